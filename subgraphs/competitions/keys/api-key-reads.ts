// Reads behind an organisation API key (v1): everything is scoped to the key's organisation. An
// overlay token (x-overlay-token) reads its one event through the same fields; everything else is
// not_found for it, as if it did not exist.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { notFound, validationFailed } from '../../../platform/api/errors.ts';
import type { KeyAuthority } from '../../../platform/domain/api-keys.ts';
import { organisationEventsPage, type EventListArgs } from '../events/organisation-events.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import type { Event, Map as MapRow } from '../../../platform/db/generated/client.ts';
import { EVENT_SQL, toEvent, type EventRow } from '../events/statements.ts';

/** What an overlay token may not read (anything outside its event) answers as a missing resource. */
export function outsideOverlay(key: KeyAuthority, what: string): void {
  if (key.eventId !== undefined) throw notFound(what);
}

/** Maps, the reference data every event's pool and results name, in id order. */
export async function mapsPage(ctx: SubgraphContext, args: { cursor?: string | null; limit?: number | null }): Promise<Page<MapRow>> {
  outsideOverlay(await ctx.keyAuthority(), 'The resource');
  return keysetPage({ binding: 'maps', args, order: ['id'], where: {}, find: (where, orderBy, take) => ctx.db.map.findMany({ where, orderBy, take }) });
}

/**
 * Maps by id, in the order asked (unknown ids left out), for any valid credential: an access token
 * or an organisation API key. The realtime gateway resolves mapsChanged through it.
 */
export async function mapsById(ctx: SubgraphContext, ids: string[]): Promise<MapRow[]> {
  await (ctx.scope.apiKey ? ctx.keyAuthority() : ctx.authority());
  if (ids.length > 100) throw validationFailed('Ask for at most 100 maps.', [{ field: 'ids', issue: 'at most 100' }]);
  const rows = await ctx.db.map.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The key's organisation's events, as the v2 list pages them (same cursors, same ETags). */
export async function keyEventsPage(ctx: SubgraphContext, key: KeyAuthority, args: Omit<EventListArgs, 'organisationId'>): Promise<ConditionalPage<Event>> {
  outsideOverlay(key, 'The resource');
  return organisationEventsPage(ctx, { ...args, organisationId: key.organisationId }, async () => undefined);
}

/** An event of the key's organisation; any other is not_found. */
export async function keyEvent(ctx: SubgraphContext, key: KeyAuthority, eventId: string): Promise<Event> {
  const [row] = await ctx.sql<EventRow>(EVENT_SQL, [eventId]);
  if (!row || row.organisationId !== key.organisationId || (key.eventId !== undefined && key.eventId !== eventId)) throw notFound('The event');
  return toEvent(row);
}

/** An event as a v1 route sees it: its ETag for this view (the route and its parameters) and, unless that matched If-None-Match, the event to read from. */
export interface EventView {
  etag: string;
  notModified: boolean;
  event: Event | null;
}

/**
 * Every change to what an event holds moves its revision, so revision and view make a strong ETag
 * that costs one row: a 304 reads nothing else.
 */
export async function keyEventView(ctx: SubgraphContext, key: KeyAuthority, eventId: string, view: string, ifNoneMatch: string | null | undefined): Promise<EventView> {
  const event = await keyEvent(ctx, key, eventId);
  const etag = pageEtag('e', event.revision, view);
  if (matchesIfNoneMatch(ifNoneMatch, etag)) return { etag, notModified: true, event: null };
  return { etag, notModified: false, event };
}

// A user takes part in an organisation's event as a member of a participating team or of a
// participant's lineup.
const KEY_USER_SQL = `
  SELECT 1 AS found FROM "Participant" p JOIN "Event" e ON e.id = p."eventId"
  WHERE e."organisationId" = $1 AND (
    EXISTS (SELECT 1 FROM "TeamMember" tm WHERE tm."teamId" = p."teamId" AND tm."userId" = $2)
    OR EXISTS (SELECT 1 FROM "LineupMember" lm WHERE lm."participantId" = p.id AND lm."userId" = $2))
  LIMIT 1`;

/** A user who takes part in an event of the key's organisation (public fields only); anyone else is not_found. */
export async function keyUser(ctx: SubgraphContext, key: KeyAuthority, userId: string) {
  outsideOverlay(key, 'The resource');
  const [[found], user] = await Promise.all([ctx.sql<{ found: number }>(KEY_USER_SQL, [key.organisationId, userId]), ctx.loaders.user.load(userId)]);
  if (!found || !user) throw notFound('The user');
  return user;
}
