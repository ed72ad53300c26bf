// Who may manage an application's webhooks: a token of that application with an application actor,
// or with a user actor who manages the application's owner (an administrator of the owning
// organisation, a captain or coach of the owning team, the owning user). Another application's
// token is answered not_found, as if the application did not exist.
import type { SubgraphContext } from '../../shared/context.ts';
import { forbidden, notFound } from '../../shared/errors.ts';
import type { Authority } from '../../shared/authority.ts';
import { managesOwner } from '../owners.ts';

export async function managedApplication(ctx: SubgraphContext, applicationId: string): Promise<Authority> {
  const authority = await ctx.authority();
  if (authority.applicationId !== applicationId) throw notFound('The application');
  if (authority.actor.type === 'user' && !(await managesOwner(ctx, authority.actor.userId, authority.owner))) {
    throw forbidden("The user does not manage this application's owner.", 'missing_permission');
  }
  return authority;
}
