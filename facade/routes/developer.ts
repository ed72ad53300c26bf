// REST routes of an application about itself (its installations; its usage is with the esports
// routes), and of a user about the applications they have authorised.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { INSTALLATION_STATUSES } from '../../subgraphs/developer/vocabulary.ts';
import { TARGET_TYPES } from '../../platform/domain/scopes.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';
import { installationView as installationSchema, revokedUserAuthorizationView as revokedAuthorizationSchema, userAuthorizationView as userAuthorizationSchema } from '../../subgraphs/developer/views.ts';

export const developerRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'listApplicationInstallations',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/installations',
    tag: 'Developer applications',
    summary: "List an application's installations",
    description:
      'The installations of the calling application, active and revoked, in target order (type, then id), 20 per page by default (keyset pagination). Filters status (active, revoked) and targetType (user, team, organisation, event). For a token of the application itself, with an application actor or a user who manages the application\'s owner (another user: 403 missing_permission); any other appId is 404.',
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
      `query ListApplicationInstallations($appId: ID!, $cursor: String, $limit: Int, $status: InstallationStatus, $targetType: AuthorityTargetType) {
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
    errors: [400, 401, 403, 404, 429, 500, 503],
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
  defineRoute({
    operationId: 'listMyAuthorizations',
    method: 'get',
    path: '/api/v2/users/me/authorizations',
    tag: 'Authorised applications',
    summary: 'List the applications the user has authorised',
    description:
      'For a token acting for a user (from the authorization-code flow): every application the user has authorised and not revoked, by application id, with the scopes granted, when it was first authorised and when a token was last issued under it. A token of an application acting for itself is 403 (details user_actor_required).',
    security: 'bearer',
    input: { query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers: z.object({ 'x-request-id': requestIdHeader }) },
    operation: prepareOperation(
      `query ListMyAuthorizations($cursor: String, $limit: Int) {
        myAuthorizations(cursor: $cursor, limit: $limit) { data { ${selectionOf(userAuthorizationSchema)} } meta { ${selectionOf(pageMeta)} } }
      }`,
    ),
    variables: ({ query }) => ({ ...query }),
    result: (data) => data.myAuthorizations,
    format: 'list',
    success: { status: 200, schema: userAuthorizationSchema, description: 'A page of authorisations.' },
    errors: [400, 401, 403, 429, 500, 503],
    example: {
      request: 'GET /api/v2/users/me/authorizations',
      response: {
        data: [{ applicationId: 'app_demo', applicationName: 'Demo App', scopes: ['event:manage'], authorizedAt: '2026-11-23T21:00:00.000Z', lastUsedAt: '2026-11-23T21:00:00.000Z' }],
        meta: { nextCursor: null, hasMore: false },
      },
    },
  }),
  defineRoute({
    operationId: 'revokeMyAuthorization',
    method: 'delete',
    path: '/api/v2/users/me/authorizations/{applicationId}',
    tag: 'Authorised applications',
    summary: 'Revoke an application the user authorised',
    description:
      'Revokes every grant of the application for the user and every token acting for the user (they stop working at once, open gateway sockets included), and answers what was authorised with revokedAt. An application the user has not authorised is 404; a token of an application acting for itself is 403.',
    security: 'bearer',
    input: { path: z.object({ applicationId: idParam }), headers: z.object({ 'x-request-id': requestIdHeader }) },
    operation: prepareOperation(
      `mutation RevokeMyAuthorization($applicationId: ID!) { revokeMyAuthorization(applicationId: $applicationId) { ${selectionOf(revokedAuthorizationSchema)} } }`,
    ),
    variables: ({ path }) => ({ applicationId: path.applicationId }),
    result: (data) => data.revokeMyAuthorization,
    success: { status: 200, schema: revokedAuthorizationSchema, description: 'The authorisation, now revoked.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
  }),
];
