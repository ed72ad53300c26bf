// Owners of applications: an organisation, a team or a user. Who manages one is the shared rule of
// platform/domain/application-access.ts.
import type { SubgraphContext } from '../../platform/domain/context.ts';
import type { OwnerRef } from '../../platform/domain/application-access.ts';

/** Whether the owner exists. */
export async function ownerExists(ctx: SubgraphContext, owner: OwnerRef): Promise<boolean> {
  const where = { where: { id: owner.id }, select: { id: true } };
  if (owner.type === 'organisation') return Boolean(await ctx.db.organisation.findUnique(where));
  if (owner.type === 'team') return Boolean(await ctx.db.team.findUnique(where));
  if (owner.type === 'user') return Boolean(await ctx.db.user.findUnique(where));
  return false;
}
