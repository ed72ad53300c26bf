// Who may read what in the competitions subgraph: organisations, events and users are readable
// through an active installation of the application (for an event, one on its organisation counts).
// A resource the caller may not see is not_found, so that nothing reveals whether it exists.
import type { SubgraphContext } from '../../platform/domain/context.ts';
import { installationFor } from '../../platform/domain/authority.ts';
import { notFound } from '../../platform/api/errors.ts';
import type { TargetType } from '../../platform/domain/scopes.ts';
import type { Event } from '../../platform/db/generated/client.ts';
import DataLoader from 'dataloader';
import { READABLE_EVENTS_SQL, toEvent, type EventRow } from './events/statements.ts';

// The authority is awaited before any lookup starts: a lookup begun before a failed authority check
// would be a promise nobody awaits.
async function readable<T>(ctx: SubgraphContext, targetType: TargetType, id: string, load: () => Promise<T | null>, what: string): Promise<T> {
  const authority = await ctx.authority();
  const [row, installation] = await Promise.all([load(), installationFor(ctx.loaders, authority.applicationId, targetType, id)]);
  if (!row || !installation) throw notFound(what);
  return row;
}

export const readableOrganisation = (ctx: SubgraphContext, id: string) =>
  readable(ctx, 'organisation', id, () => ctx.loaders.organisation.load(id), 'The organisation');

type ReadableEventRow = EventRow & { installationId: string | null };

// Per request: the events asked for in one tick are read, with their installation check, together.
const readableEventLoaders = new WeakMap<SubgraphContext, DataLoader<string, ReadableEventRow | null>>();

function readableEventLoader(ctx: SubgraphContext, applicationId: string) {
  let loader = readableEventLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.sql<ReadableEventRow>(READABLE_EVENTS_SQL, [[...ids], applicationId]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    readableEventLoaders.set(ctx, loader);
  }
  return loader;
}

/** An event through an installation on it or its organisation: the event and the check in one statement. */
export async function readableEvent(ctx: SubgraphContext, id: string): Promise<Event> {
  const authority = await ctx.authority();
  const row = await readableEventLoader(ctx, authority.applicationId).load(id);
  if (!row?.installationId) throw notFound('The event');
  const { installationId: _installationId, ...columns } = row;
  const event = toEvent(columns);
  ctx.loaders.event.prime(id, event);
  return event;
}

export const readableUser = (ctx: SubgraphContext, id: string) => readable(ctx, 'user', id, () => ctx.loaders.user.load(id), 'The user');
