// The v1 read API: GET routes under /api/v1 authorised by an organisation API key in x-api-key (a key
// in the URL is refused). Each row runs a field under Query.apiKey of the competitions subgraph.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { conditionalList, cursorParam, ETAG_DOC, idParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';
import { EVENT_FIELDS, organisationEventSchema } from './competition-reads.ts';
import { EVENT_STATES, EVENT_VISIBILITIES, matchesIfNoneMatch } from '../../subgraphs/competitions/organisation-events.ts';
import { etagOf } from '../../subgraphs/shared/preconditions.ts';

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

const conditionalHeaders = headers.extend({ 'if-none-match': z.string().max(500).optional() });

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
    operationId: 'v1ListEvents',
    method: 'get',
    path: '/api/v1/events',
    tag: TAG,
    summary: "The organisation's events",
    description: `In creation order, 20 per page by default (keyset pagination); filters visibility and state. Strong ETag: If-None-Match answers 304 while nothing changed. ${KEY}`,
    security: 'apiKey',
    input: {
      query: z.object({ cursor: cursorParam, limit: limitParam, visibility: z.enum(EVENT_VISIBILITIES).optional(), state: z.enum(EVENT_STATES).optional() }).strict(),
      headers: conditionalHeaders,
    },
    operation: prepareOperation(
      `query V1ListEvents($cursor: String, $limit: Int, $visibility: String, $state: String, $ifNoneMatch: String) {
        apiKey { events(cursor: $cursor, limit: $limit, visibility: $visibility, state: $state, ifNoneMatch: $ifNoneMatch) { etag notModified data { ${EVENT_FIELDS} } meta { ${selectionOf(pageMeta)} } } }
      }`,
    ),
    variables: ({ query, headers: h }) => ({ ...query, ifNoneMatch: h['if-none-match'] ?? null }),
    ...conditionalList((data) => apiKey(data).events),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: organisationEventSchema, description: 'A page of events.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/events?state=scheduled', response: { data: [], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'v1GetEvent',
    method: 'get',
    path: '/api/v1/events/{eventId}',
    tag: TAG,
    summary: 'An event of the organisation',
    description: `The event with its revision as a strong ETag ("5"); If-None-Match answers 304 while it is unchanged. Another organisation's event is 404. ${KEY}`,
    security: 'apiKey',
    input: { path: z.object({ eventId: idParam }), headers: conditionalHeaders },
    operation: prepareOperation(`query V1GetEvent($eventId: ID!) { apiKey { event(id: $eventId) { ${EVENT_FIELDS} } } }`),
    variables: ({ path }) => ({ eventId: path.eventId }),
    result: (data) => apiKey(data).event,
    respond: (data, input) => {
      const etag = etagOf((apiKey(data).event as { revision: number }).revision);
      return { headers: { ETag: etag }, notModified: matchesIfNoneMatch(input.headers['if-none-match'] as string | undefined, etag) };
    },
    notModified: true,
    documentedHeaders: { ETag: { description: 'The event revision as a strong ETag, e.g. "5".', schema: { type: 'string' } } },
    success: { status: 200, schema: organisationEventSchema, description: 'The event.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: { request: 'GET /api/v1/events/evt_open', response: { data: { id: 'evt_open', organisationId: 'org_demo', name: 'Demo Open', slug: 'open', type: 'cup', visibility: 'public', state: 'scheduled', platform: 'pc', currency: 'EUR', region: 'eu', bannerUrl: null, description: null, firstStageId: 'stg_open_groups', completedAt: null, revision: 5 } } },
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
