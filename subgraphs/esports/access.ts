// Who may read published esports data: the calling application, through one of its own active
// installations named by the svc-installation-id header, whose owner holds esports_data.
import type { SubgraphContext } from '../../platform/domain/context.ts';
import { ApiError, forbidden } from '../../platform/api/errors.ts';
import { namedInstallation } from '../../platform/domain/authority.ts';

export interface EsportsCaller {
  applicationId: string;
  installationId: string;
}

export async function esportsCaller(ctx: SubgraphContext): Promise<EsportsCaller> {
  const authority = await ctx.authority();
  const installationId = ctx.scope.installationId;
  if (!installationId) {
    throw new ApiError('validation_failed', 'Esports data calls need the header svc-installation-id naming an active installation of your application.', [
      { field: 'svc-installation-id', issue: 'required' },
    ]);
  }
  await namedInstallation(ctx.sql, authority.applicationId, installationId);
  if (!authority.entitlements.includes('esports_data')) {
    throw forbidden("The application's owner does not hold the esports_data entitlement.", 'missing_entitlement');
  }
  return { applicationId: authority.applicationId, installationId };
}
