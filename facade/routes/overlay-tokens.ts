// REST routes of an organisation's overlay tokens (one event's v1 reads for a browser source), for the
// users who manage its broadcast: each row runs a field of the competitions subgraph
// (schema/overlay-tokens.ts).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { overlayTokenCreateInput } from '../../subgraphs/competitions/inputs.ts';
import { issuedOverlayTokenView as issuedSchema, overlayTokenView as overlayTokenSchema } from '../../subgraphs/competitions/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'Overlay tokens';
const WHO =
  'Callers: a token with broadcast:manage (403 missing_scope), of an application installed on the organisation or the event; a user actor must hold broadcast:manage there (403 missing_permission).';

const headers = z.object({ 'x-request-id': requestIdHeader });
const orgPath = z.object({ organisationId: idParam });
const tokenPath = z.object({ organisationId: idParam, tokenId: idParam });
const ISSUED = selectionOf(issuedSchema);
const TOKEN = selectionOf(overlayTokenSchema);
const example = {
  id: 'ovt_…',
  organisationId: 'org_demo',
  eventId: 'evt_live',
  label: 'Main stage scoreboard',
  prefix: 'ovl_Q2x8Lm0a',
  createdAt: '2026-11-26T18:00:00.000Z',
  expiresAt: '2026-11-29T18:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
};

export const overlayTokenRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'createOverlayToken',
    method: 'post',
    path: '/api/v2/organisations/{organisationId}/overlay-tokens',
    tag: TAG,
    summary: 'Issue an overlay token',
    description: `Issues a token that reads one event of the organisation through the v1 event routes (x-overlay-token) and the gateway, and nothing else; it may sit in a browser source URL, unlike an API key. Answered once (only its prefix is kept in clear); it expires after expiresIn seconds (at most 30 days). An event of another organisation is 400; an event with 100 tokens that work is 409 overlay_token_limit (revoke one first). ${WHO}`,
    security: 'bearer',
    input: { path: orgPath, headers, body: overlayTokenCreateInput },
    operation: prepareOperation(`mutation CreateOverlayToken($organisationId: ID!, $input: CreateOverlayTokenInput!) { createOverlayToken(organisationId: $organisationId, input: $input) { ${ISSUED} } }`),
    variables: ({ path, body }) => ({ organisationId: path.organisationId, input: body }),
    result: (data) => data.createOverlayToken,
    success: { status: 201, schema: issuedSchema, description: 'The token, shown once.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: { request: JSON.stringify({ eventId: 'evt_live', label: 'Main stage scoreboard', expiresIn: 259200 }), response: { data: { overlayToken: example, token: 'ovl_…' } } },
  }),
  defineRoute({
    operationId: 'listOverlayTokens',
    method: 'get',
    path: '/api/v2/organisations/{organisationId}/overlay-tokens',
    tag: TAG,
    summary: "List an organisation's overlay tokens",
    description: `In creation order, revoked and expired ones included: event, label, prefix, created, expiry, last used, revocation. Never the tokens. ${WHO}`,
    security: 'bearer',
    input: { path: orgPath, query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query ListOverlayTokens($organisationId: ID!, $cursor: String, $limit: Int) {
        organisation(id: $organisationId) { overlayTokens(cursor: $cursor, limit: $limit) { data { ${TOKEN} } meta { ${selectionOf(pageMeta)} } } }
      }`,
    ),
    variables: ({ path, query }) => ({ organisationId: path.organisationId, ...query }),
    result: (data) => (data.organisation as { overlayTokens: unknown }).overlayTokens,
    format: 'list',
    success: { status: 200, schema: overlayTokenSchema, description: 'A page of overlay tokens.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/organisations/org_demo/overlay-tokens', response: { data: [example], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'revokeOverlayToken',
    method: 'delete',
    path: '/api/v2/organisations/{organisationId}/overlay-tokens/{tokenId}',
    tag: TAG,
    summary: 'Revoke an overlay token',
    description: `The token stops working at once; gateway sockets opened with it close with 4403 within a second. Revoking a revoked token changes nothing. ${WHO}`,
    security: 'bearer',
    input: { path: tokenPath, headers },
    operation: prepareOperation(`mutation RevokeOverlayToken($organisationId: ID!, $tokenId: ID!) { revokeOverlayToken(organisationId: $organisationId, tokenId: $tokenId) { ${TOKEN} } }`),
    variables: ({ path }) => ({ organisationId: path.organisationId, tokenId: path.tokenId }),
    result: (data) => data.revokeOverlayToken,
    success: { status: 200, schema: overlayTokenSchema, description: 'The revoked token.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'DELETE /api/v2/organisations/org_demo/overlay-tokens/ovt_…', response: { data: { ...example, revokedAt: '2026-11-26T19:30:00.000Z' } } },
  }),
];
