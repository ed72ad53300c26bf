// Who manages an owner of applications: an organisation's administrators, a team's captains and
// coaches, a user themself. Webhooks and owner transfers ask it of the user behind a token.
import type { SubgraphContext } from '../shared/context.ts';

export interface OwnerRef {
  type: string;
  id: string;
}

export const OWNER_TYPES = ['organisation', 'team', 'user'] as const;

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

/** Whether the owner exists. */
export async function ownerExists(ctx: SubgraphContext, owner: OwnerRef): Promise<boolean> {
  const where = { where: { id: owner.id }, select: { id: true } };
  if (owner.type === 'organisation') return Boolean(await ctx.db.organisation.findUnique(where));
  if (owner.type === 'team') return Boolean(await ctx.db.team.findUnique(where));
  if (owner.type === 'user') return Boolean(await ctx.db.user.findUnique(where));
  return false;
}
