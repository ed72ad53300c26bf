// The v1 read API: GET routes under /api/v1 authorised by an organisation API key in x-api-key (a key
// in the URL is refused). Each row runs a field under Query.apiKey of the competitions subgraph.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'v1 read API';
const KEY =
  'Authorised by the organisation API key in the x-api-key header (missing, unknown or revoked → 401 invalid_token); a key in the URL is refused (400, key_in_url).';

const headers = z.object({
  'x-api-key': z.string().max(200).optional().describe('Required: the organisation API key.'),
  'x-request-id': requestIdHeader,
});

export const v1OrganisationSchema = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), createdAt: z.string() })
  .strict()
  .meta({ id: 'V1Organisation' });

export const v1MapSchema = z.object({ id: z.string(), name: z.string(), imageUrl: z.string().nullable() }).strict().meta({ id: 'V1Map' });

const apiKey = (data: Record<string, unknown>) => data.apiKey as Record<string, unknown>;

export const v1Routes: RouteRow[] = [
  defineRoute({
    operationId: 'v1GetOrganisation',
    method: 'get',
    path: '/api/v1/organisation',
    tag: TAG,
    summary: "The key's organisation",
    description: KEY,
    security: 'apiKey',
    input: { headers },
    operation: prepareOperation(`query V1GetOrganisation { apiKey { organisation { ${selectionOf(v1OrganisationSchema)} } } }`),
    variables: () => ({}),
    result: (data) => apiKey(data).organisation,
    success: { status: 200, schema: v1OrganisationSchema, description: 'The organisation.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/organisation', response: { data: { id: 'org_demo', name: 'Demo Esports', slug: 'demo', createdAt: '2026-01-01T00:00:00.000Z' } } },
  }),
  defineRoute({
    operationId: 'v1ListMaps',
    method: 'get',
    path: '/api/v1/maps',
    tag: TAG,
    summary: 'Maps',
    description: `The game's maps (reference data named by map pools, vetoes and match results), in id order, 20 per page by default. ${KEY}`,
    security: 'apiKey',
    input: { query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query V1ListMaps($cursor: String, $limit: Int) { apiKey { maps(cursor: $cursor, limit: $limit) { data { ${selectionOf(v1MapSchema)} } meta { ${selectionOf(pageMeta)} } } } }`,
    ),
    variables: ({ query }) => query,
    result: (data) => apiKey(data).maps,
    format: 'list',
    success: { status: 200, schema: v1MapSchema, description: 'A page of maps.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/maps?limit=2', response: { data: [{ id: 'map_ancient', name: 'Ancient', imageUrl: null }], meta: { nextCursor: null, hasMore: false } } },
  }),
];
