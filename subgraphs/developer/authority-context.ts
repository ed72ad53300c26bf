// The authority context: what the calling token may ask (scopes), what its actor may do on a target
// (permissions) and what its owner has paid for (entitlements).
import type { SubgraphContext } from '../../platform/domain/context.ts';
import { installationFor, permissionsOn, type InstallationRow } from '../../platform/domain/authority.ts';
import { validationFailed } from '../../platform/api/errors.ts';
import { TARGET_TYPES, type TargetType } from '../../platform/domain/scopes.ts';

export interface AuthorityContextResult {
  requestId: string;
  applicationId: string;
  actor: { type: 'application'; applicationId: string } | { type: 'user'; userId: string };
  owner: { type: string; id: string };
  installation: InstallationRow | null;
  scopes: string[];
  permissions: string[];
  entitlements: string[];
}

export async function authorityContext(
  ctx: SubgraphContext,
  targetType: string | null | undefined,
  targetId: string | null | undefined,
): Promise<AuthorityContextResult> {
  const authority = await ctx.authority();
  const hasType = targetType != null && targetType !== '';
  const hasId = targetId != null && targetId !== '';
  if (hasType !== hasId) {
    const missing = hasType ? 'targetId' : 'targetType';
    throw validationFailed('targetType and targetId go together: supply both or neither.', [
      { field: missing, issue: 'required when the other target parameter is given' },
    ]);
  }
  if (hasType && !TARGET_TYPES.includes(targetType as TargetType)) {
    throw validationFailed(`targetType must be one of ${TARGET_TYPES.join(', ')}.`, [
      { field: 'targetType', issue: `must be one of ${TARGET_TYPES.join(', ')}` },
    ]);
  }
  let installation: InstallationRow | null = null;
  let permissions: string[] = [];
  if (hasType) {
    installation = await installationFor(ctx.loaders, authority.applicationId, targetType as TargetType, targetId!);
    permissions = await permissionsOn(ctx.db, ctx.loaders, authority, targetType as TargetType, targetId!, installation);
  }
  return {
    requestId: ctx.requestId,
    applicationId: authority.applicationId,
    actor: authority.actor,
    owner: authority.owner,
    installation,
    scopes: [...authority.scopes].sort(),
    permissions,
    entitlements: authority.entitlements,
  };
}
