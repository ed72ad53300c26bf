// Who may manage an application (docs/developer-apps.md): a token of that application, either with
// an application actor or with a user actor who manages the application's owner (an administrator
// of the owning organisation, a captain or coach of the owning team, the owning user). Every field
// about an application's own business (installations, usage, webhooks) asks it, in whichever
// subgraph the field lives; another application's token is answered not_found, as if the
// application did not exist.
import type { SubgraphContext } from './context.ts';
import type { Authority } from './authority.ts';
import { forbidden, notFound } from '../api/errors.ts';

export interface OwnerRef {
  type: string;
  id: string;
}

/** Whether the user manages the owner: an organisation's administrators, a team's captains and coaches, a user themself. */
export async function managesOwner(ctx: SubgraphContext, userId: string, owner: OwnerRef): Promise<boolean> {
  if (owner.type === 'user') return owner.id === userId;
  if (owner.type === 'organisation') {
    const member = await ctx.db.organisationMember.findUnique({ where: { organisationId_userId: { organisationId: owner.id, userId } } });
    return member?.role === 'administrator';
  }
  if (owner.type === 'team') {
    const member = await ctx.db.teamMember.findUnique({ where: { teamId_userId: { teamId: owner.id, userId } } });
    return member?.role === 'captain' || member?.role === 'coach';
  }
  return false;
}

/** The caller's authority when it may manage the application; not_found or forbidden (missing_permission) otherwise. */
export async function managedApplication(ctx: SubgraphContext, applicationId: string): Promise<Authority> {
  const authority = await ctx.authority();
  if (authority.applicationId !== applicationId) throw notFound('The application');
  if (authority.actor.type === 'user' && !(await managesOwner(ctx, authority.actor.userId, authority.owner))) {
    throw forbidden("The user does not manage this application's owner.", 'missing_permission');
  }
  return authority;
}
