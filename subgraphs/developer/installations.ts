// An application's installations, for the application itself and the users who manage it: keyset
// pages in target order (the unique index on application, target type and target id keeps every page
// an index range).
import type { SubgraphContext } from '../../platform/domain/context.ts';
import { managedApplication } from '../../platform/domain/application-access.ts';
import { validationFailed } from '../../platform/api/errors.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../platform/api/pagination.ts';
import { TARGET_TYPES } from '../../platform/domain/scopes.ts';
import type { InstallationRow } from '../../platform/domain/loaders.ts';

import { INSTALLATION_STATUSES } from './vocabulary.ts';

export interface InstallationListArgs {
  cursor?: string | null;
  limit?: number | null;
  status?: string | null;
  targetType?: string | null;
}

export async function applicationInstallations(ctx: SubgraphContext, applicationId: string, args: InstallationListArgs): Promise<Page<InstallationRow>> {
  // An application's installations (the users it is installed on among them) are its own business.
  await managedApplication(ctx, applicationId);
  if (args.status != null && !INSTALLATION_STATUSES.includes(args.status as (typeof INSTALLATION_STATUSES)[number])) {
    throw validationFailed(`status must be one of ${INSTALLATION_STATUSES.join(', ')}.`, [{ field: 'status', issue: `must be one of ${INSTALLATION_STATUSES.join(', ')}` }]);
  }
  if (args.targetType != null && !TARGET_TYPES.includes(args.targetType as (typeof TARGET_TYPES)[number])) {
    throw validationFailed(`targetType must be one of ${TARGET_TYPES.join(', ')}.`, [{ field: 'targetType', issue: `must be one of ${TARGET_TYPES.join(', ')}` }]);
  }
  const limit = pageLimit(args.limit);
  const binding = `installations|${applicationId}|${args.status ?? ''}|${args.targetType ?? ''}`;
  const after = decodeCursor(binding, args.cursor);
  if (after && (after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string')) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const rows = await ctx.db.installation.findMany({
    where: {
      applicationId,
      ...(args.status ? { status: args.status } : {}),
      ...(args.targetType ? { targetType: args.targetType } : {}),
      ...(after
        ? { OR: [{ targetType: { gt: after[0] as string } }, { targetType: after[0] as string, targetId: { gt: after[1] as string } }] }
        : {}),
    },
    orderBy: [{ targetType: 'asc' }, { targetId: 'asc' }],
    take: limit + 1,
    select: { id: true, applicationId: true, targetType: true, targetId: true, status: true, createdAt: true },
  });
  return pageOf(rows, limit, binding, (row) => [row.targetType, row.targetId], (row) => row);
}
