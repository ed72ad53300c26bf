// Who may read what in the competitions subgraph. A resource the caller may not see is not_found,
// so that nothing reveals whether it exists.
import type { SubgraphContext } from '../shared/context.ts';
import { installationFor } from '../shared/authority.ts';
import { notFound } from '../shared/errors.ts';

export async function readableOrganisation(ctx: SubgraphContext, id: string) {
  const authority = await ctx.authority();
  const [organisation, installation] = await Promise.all([
    ctx.loaders.organisation.load(id),
    installationFor(ctx.loaders, authority.applicationId, 'organisation', id),
  ]);
  if (!organisation || !installation) throw notFound('The organisation');
  return organisation;
}

export async function readableEvent(ctx: SubgraphContext, id: string) {
  const authority = await ctx.authority();
  const [event, installation] = await Promise.all([
    ctx.loaders.event.load(id),
    installationFor(ctx.loaders, authority.applicationId, 'event', id),
  ]);
  if (!event || !installation) throw notFound('The event');
  return event;
}

/** Users are readable through an active installation of the application on them. */
export async function readableUser(ctx: SubgraphContext, id: string) {
  const authority = await ctx.authority();
  const [user, installation] = await Promise.all([
    ctx.loaders.user.load(id),
    installationFor(ctx.loaders, authority.applicationId, 'user', id),
  ]);
  if (!user || !installation) throw notFound('The user');
  return user;
}
