// Reads behind an organisation API key (v1): everything is scoped to the key's organisation.
import type { SubgraphContext } from '../shared/context.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../shared/pagination.ts';
import { notFound, validationFailed } from '../shared/errors.ts';
import type { KeyAuthority } from '../shared/api-keys.ts';
import { organisationEventsPage, type ConditionalPage, type EventListArgs } from './organisation-events.ts';
import type { Event, Map as MapRow } from '../shared/db/generated/client.ts';

/** Maps, the reference data every event's pool and results name, in id order. */
export async function mapsPage(ctx: SubgraphContext, args: { cursor?: string | null; limit?: number | null }): Promise<Page<MapRow>> {
  await ctx.keyAuthority();
  const limit = pageLimit(args.limit);
  const binding = 'maps';
  const after = decodeCursor(binding, args.cursor);
  if (after && typeof after[0] !== 'string') throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  const rows = await ctx.db.map.findMany({ where: after ? { id: { gt: after[0] as string } } : {}, orderBy: { id: 'asc' }, take: limit + 1 });
  return pageOf(rows, limit, binding, (row) => [row.id], (row) => row);
}

/** The key's organisation's events, as the v2 list pages them (same cursors, same ETags). */
export function keyEventsPage(ctx: SubgraphContext, key: KeyAuthority, args: Omit<EventListArgs, 'organisationId'>): Promise<ConditionalPage<Event>> {
  return organisationEventsPage(ctx, { ...args, organisationId: key.organisationId }, async () => undefined);
}

/** An event of the key's organisation; any other is not_found. */
export async function keyEvent(ctx: SubgraphContext, key: KeyAuthority, eventId: string): Promise<Event> {
  const event = await ctx.db.event.findUnique({ where: { id: eventId } });
  if (!event || event.organisationId !== key.organisationId) throw notFound('The event');
  return event;
}
