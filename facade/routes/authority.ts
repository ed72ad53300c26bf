import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { TARGET_TYPES } from '../../platform/domain/scopes.ts';
import { authorityContextView as authorityContextSchema, installationView as installationSchema } from '../../subgraphs/developer/views.ts';
import { defineRoute } from './table.ts';
import { requestIdHeader, selectionOf } from './common.ts';

export const authorityRoutes = [
  defineRoute({
    operationId: 'getAuthContext',
    method: 'get',
    path: '/api/v2/auth/context',
    tag: 'Authority',
    summary: 'Inspect the authority of the calling access token',
    description:
      'Scopes the token carries, entitlements of the application owner and, when targetType and targetId are given together, the installation of the application on that target and the permissions of the actor there. An unknown target is not an error: it has no installation and no permissions, so this endpoint never reveals whether a resource exists.',
    security: 'bearer',
    input: {
      query: z
        .object({
          targetType: z.enum(TARGET_TYPES).optional().describe('user, team, organisation or event; goes with targetId.'),
          targetId: z.string().min(1).max(128).optional().describe('Identifier of the target; goes with targetType.'),
        })
        .strict(),
      headers: z.object({ 'x-request-id': requestIdHeader }),
    },
    operation: prepareOperation(/* GraphQL */ `
      query AuthContext($targetType: AuthorityTargetType, $targetId: ID) {
        authContext(targetType: $targetType, targetId: $targetId) {
          requestId
          applicationId
          actor {
            ... on ApplicationActor { type applicationId }
            ... on UserActor { type userId }
          }
          owner { type id }
          installation { ${selectionOf(installationSchema)} }
          scopes
          permissions
          entitlements
        }
      }
    `),
    variables: ({ query }) => ({ targetType: query.targetType, targetId: query.targetId }),
    result: (data) => data.authContext,
    success: { status: 200, schema: authorityContextSchema, description: 'The authority context.' },
    errors: [400, 401, 429, 500, 503],
    example: {
      request: 'GET /api/v2/auth/context?targetType=organisation&targetId=org_demo',
      response: {
        data: {
          requestId: 'req_7f0c…',
          applicationId: 'app_demo',
          actor: { type: 'application', applicationId: 'app_demo' },
          owner: { type: 'organisation', id: 'org_demo' },
          installation: { id: 'ins_demo_org', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_demo', status: 'active', createdAt: '2026-01-05T12:30:00.000Z' },
          scopes: ['broadcast:manage', 'event.participants:manage', 'event.results:manage', 'event.structure:manage', 'event:manage'],
          permissions: ['broadcast:manage', 'event.participants:manage', 'event.results:manage', 'event.structure:manage', 'event:manage', 'event:read', 'organisation:read'],
          entitlements: ['esports_data'],
        },
      },
    },
  }),
];
