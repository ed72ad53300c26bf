// REST routes of an application about itself: its installations (its usage is with the esports routes).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { INSTALLATION_STATUSES } from '../../subgraphs/developer/installations.ts';
import { TARGET_TYPES } from '../../subgraphs/shared/scopes.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';
import { installationSchema } from './authority.ts';

export const developerRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'listApplicationInstallations',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/installations',
    tag: 'Developer applications',
    summary: "List an application's installations",
    description:
      'The installations of the calling application, active and revoked, in target order (type, then id), 20 per page by default (keyset pagination). Filters status (active, revoked) and targetType (user, team, organisation, event). Any other appId is 404.',
    security: 'bearer',
    input: {
      path: z.object({ appId: idParam }),
      query: z
        .object({
          cursor: cursorParam,
          limit: limitParam,
          status: z.enum(INSTALLATION_STATUSES).optional(),
          targetType: z.enum(TARGET_TYPES).optional(),
        })
        .strict(),
      headers: z.object({ 'x-request-id': requestIdHeader }),
    },
    operation: prepareOperation(
      `query ListApplicationInstallations($appId: ID!, $cursor: String, $limit: Int, $status: String, $targetType: String) {
        application(id: $appId) {
          installations(cursor: $cursor, limit: $limit, status: $status, targetType: $targetType) {
            data { ${selectionOf(installationSchema)} } meta { ${selectionOf(pageMeta)} }
          }
        }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, ...query }),
    result: (data) => (data.application as { installations: unknown }).installations,
    format: 'list',
    success: { status: 200, schema: installationSchema, description: 'A page of installations.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v2/developer/apps/app_demo/installations?status=active',
      response: {
        data: [
          { id: 'ins_demo_org', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_demo', status: 'active', createdAt: '2026-01-05T12:30:00.000Z' },
          { id: 'ins_demo_bob', applicationId: 'app_demo', targetType: 'user', targetId: 'usr_bob', status: 'active', createdAt: '2026-01-05T12:31:00.000Z' },
        ],
        meta: { nextCursor: null, hasMore: false },
      },
    },
  }),
];
