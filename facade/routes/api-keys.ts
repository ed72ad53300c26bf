// REST routes of an organisation's API keys (v1 credentials), for its administrators: each row runs a
// field of the competitions subgraph (schema/api-key-admin.ts).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { apiKeyCreateInput, apiKeyRotateInput } from '../../subgraphs/competitions/inputs.ts';
import { apiKeyView as apiKeySchema, issuedApiKeyView as issuedSchema } from '../../subgraphs/competitions/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'Organisation API keys';
const WHO =
  'Callers: a token with a user actor who administers the organisation, of an application with an active installation on it (403 otherwise).';

const headers = z.object({ 'x-request-id': requestIdHeader });
const orgPath = z.object({ organisationId: idParam });
const keyPath = z.object({ organisationId: idParam, keyId: idParam });
const ISSUED = selectionOf(issuedSchema);
const KEY = selectionOf(apiKeySchema);
const example = { id: 'key_…', organisationId: 'org_demo', name: 'Stream overlay', prefix: 'okey_Xb3k9Q', createdAt: '2026-11-22T19:00:00.000Z', lastUsedAt: null, expiresAt: null, revokedAt: null };

export const apiKeyRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'createOrganisationApiKey',
    method: 'post',
    path: '/api/v2/organisations/{organisationId}/api-keys',
    tag: TAG,
    summary: 'Issue an API key',
    description: `Issues a key for the v1 read API and answers it once (only its prefix is kept in clear). ${WHO}`,
    security: 'bearer',
    input: { path: orgPath, headers, body: apiKeyCreateInput },
    operation: prepareOperation(`mutation CreateOrganisationApiKey($organisationId: ID!, $input: CreateApiKeyInput!) { createOrganisationApiKey(organisationId: $organisationId, input: $input) { ${ISSUED} } }`),
    variables: ({ path, body }) => ({ organisationId: path.organisationId, input: body }),
    result: (data) => data.createOrganisationApiKey,
    success: { status: 201, schema: issuedSchema, description: 'The key, shown once.' },
    errors: [400, 401, 403, 429, 500, 503],
    example: { request: JSON.stringify({ name: 'Stream overlay' }), response: { data: { apiKey: example, key: 'okey_…' } } },
  }),
  defineRoute({
    operationId: 'listOrganisationApiKeys',
    method: 'get',
    path: '/api/v2/organisations/{organisationId}/api-keys',
    tag: TAG,
    summary: "List an organisation's API keys",
    description: `In creation order, revoked ones included: name, prefix, created, last used, expiry, revocation. Never the keys. ${WHO}`,
    security: 'bearer',
    input: { path: orgPath, query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query ListOrganisationApiKeys($organisationId: ID!, $cursor: String, $limit: Int) {
        organisation(id: $organisationId) { apiKeys(cursor: $cursor, limit: $limit) { data { ${KEY} } meta { ${selectionOf(pageMeta)} } } }
      }`,
    ),
    variables: ({ path, query }) => ({ organisationId: path.organisationId, ...query }),
    result: (data) => (data.organisation as { apiKeys: unknown }).apiKeys,
    format: 'list',
    success: { status: 200, schema: apiKeySchema, description: 'A page of keys.' },
    errors: [400, 401, 403, 429, 500, 503],
    example: { request: 'GET /api/v2/organisations/org_demo/api-keys', response: { data: [example], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'rotateOrganisationApiKey',
    method: 'post',
    path: '/api/v2/organisations/{organisationId}/api-keys/{keyId}/rotate',
    tag: TAG,
    summary: 'Rotate an API key',
    description: `Issues a replacement (answered once, same name). The old key stops at once, or keeps working for graceSeconds (at most 7 days) when asked. A key is rotated once: a revoked key or one past its grace period is 404, one still in its grace period is 409 with detail key_rotated (rotate its replacement instead); of concurrent rotations of one key exactly one succeeds. ${WHO}`,
    security: 'bearer',
    input: { path: keyPath, headers, body: apiKeyRotateInput.optional() },
    operation: prepareOperation(
      `mutation RotateOrganisationApiKey($organisationId: ID!, $keyId: ID!, $input: RotateApiKeyInput) { rotateOrganisationApiKey(organisationId: $organisationId, keyId: $keyId, input: $input) { ${ISSUED} } }`,
    ),
    variables: ({ path, body }) => ({ organisationId: path.organisationId, keyId: path.keyId, input: body ?? null }),
    result: (data) => data.rotateOrganisationApiKey,
    success: { status: 201, schema: issuedSchema, description: 'The replacement key, shown once.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: { request: JSON.stringify({ graceSeconds: 3600 }), response: { data: { apiKey: example, key: 'okey_…' } } },
  }),
  defineRoute({
    operationId: 'revokeOrganisationApiKey',
    method: 'delete',
    path: '/api/v2/organisations/{organisationId}/api-keys/{keyId}',
    tag: TAG,
    summary: 'Revoke an API key',
    description: `The key stops working at once. Revoking a revoked key changes nothing. ${WHO}`,
    security: 'bearer',
    input: { path: keyPath, headers },
    operation: prepareOperation(`mutation RevokeOrganisationApiKey($organisationId: ID!, $keyId: ID!) { revokeOrganisationApiKey(organisationId: $organisationId, keyId: $keyId) { ${KEY} } }`),
    variables: ({ path }) => ({ organisationId: path.organisationId, keyId: path.keyId }),
    result: (data) => data.revokeOrganisationApiKey,
    success: { status: 200, schema: apiKeySchema, description: 'The revoked key.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'DELETE /api/v2/organisations/org_demo/api-keys/key_…', response: { data: { ...example, revokedAt: '2026-11-22T19:30:00.000Z' } } },
  }),
];
