// Who may read what in the competitions subgraph: organisations, events and users are readable
// through an active installation of the application (for an event, one on its organisation counts).
// A resource the caller may not see is not_found, so that nothing reveals whether it exists.
import type { SubgraphContext } from '../shared/context.ts';
import { installationFor } from '../shared/authority.ts';
import { notFound } from '../shared/errors.ts';
import type { TargetType } from '../shared/scopes.ts';

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

export const readableEvent = (ctx: SubgraphContext, id: string) => readable(ctx, 'event', id, () => ctx.loaders.event.load(id), 'The event');

export const readableUser = (ctx: SubgraphContext, id: string) => readable(ctx, 'user', id, () => ctx.loaders.user.load(id), 'The user');
