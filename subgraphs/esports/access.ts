// Who may read published esports data: the calling application, through one of its own active
// installations named by the svc-installation-id header, whose owner holds esports_data.
import type { SubgraphContext } from '../kernel/context.ts';
import { ApiError, forbidden } from '../kernel/errors.ts';
import type { Installation } from '../kernel/db/generated/client.ts';
import { wireModel, type RowOf } from '../kernel/db/wire-rows.ts';

export interface EsportsCaller {
  applicationId: string;
  installationId: string;
}

const NAMED_INSTALLATION = wireModel<Installation>()('Installation', 'i', ['createdAt', 'revokedAt']).pick('applicationId', 'status');
const INSTALLATION_SQL = `SELECT ${NAMED_INSTALLATION.columns} FROM "Installation" i WHERE i.id = $1`;

export async function esportsCaller(ctx: SubgraphContext): Promise<EsportsCaller> {
  const authority = await ctx.authority();
  const installationId = ctx.scope.installationId?.trim();
  if (!installationId) {
    throw new ApiError('validation_failed', 'Esports data calls need the header svc-installation-id naming an active installation of your application.', [
      { field: 'svc-installation-id', issue: 'required' },
    ]);
  }
  if (installationId.length > 128) {
    throw new ApiError('validation_failed', 'svc-installation-id is too long.', [{ field: 'svc-installation-id', issue: 'at most 128 characters' }]);
  }
  const [installation] = await ctx.sql<RowOf<typeof NAMED_INSTALLATION>>(INSTALLATION_SQL, [installationId]);
  if (!installation || installation.applicationId !== authority.applicationId || installation.status !== 'active') {
    throw forbidden('svc-installation-id is not an active installation of this application.', 'missing_installation');
  }
  if (!authority.entitlements.includes('esports_data')) {
    throw forbidden("The application's owner does not hold the esports_data entitlement.", 'missing_entitlement');
  }
  return { applicationId: authority.applicationId, installationId };
}
