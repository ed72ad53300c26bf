// REST routes of owner transfers: offer an application to another owner, list and read its transfers,
// accept, decline or cancel one. Each row runs a field of the developer subgraph
// (schema/owner-transfer.ts).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { createTransferInput, TRANSFER_STATUSES } from '../../subgraphs/developer/owner-transfers/inputs.ts';
import { ownerTransferView as ownerTransferSchema } from '../../subgraphs/developer/owner-transfers/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idempotentHeaders, idParam, limitParam, pageMeta, REPLAY_HEADER, replayedHeader, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'Owner transfers';

const TRANSFER = selectionOf(ownerTransferSchema);
const headers = z.object({ 'x-request-id': requestIdHeader });
const appPath = z.object({ appId: idParam });
const transferPath = z.object({ appId: idParam, transferId: idParam });
const ETAG_HEADER = { ETag: { description: 'The transfer revision, e.g. "2".', schema: { type: 'string' } } };
const etag = (value: unknown) => `"${(value as { revision: number }).revision}"`;

const demoTransfer = {
  id: 'otr_pending',
  applicationId: 'app_transfer',
  status: 'pending',
  fromOwner: { type: 'organisation', id: 'org_demo' },
  toOwner: { type: 'organisation', id: 'org_rival' },
  revision: 1,
  createdAt: '2026-01-05T12:00:00.000Z',
  expiresAt: '2100-01-01T00:00:00.000Z',
};

const READERS =
  "Callers: the application's own token, a user who manages the application's owner (every transfer), or a user who manages a transfer's new owner (that transfer). Any other application or transfer is 404.";

const transitionRoute = (kind: 'accept' | 'decline' | 'cancel', summary: string, description: string, example: Record<string, unknown>) => {
  const field = `${kind}OwnerTransfer`;
  const name = `${kind[0].toUpperCase()}${kind.slice(1)}OwnerTransfer`;
  return defineRoute({
    operationId: field,
    method: 'post',
    path: `/api/v2/developer/apps/{appId}/owner-transfers/{transferId}/${kind}`,
    tag: TAG,
    summary,
    description: `${description} Idempotency-Key is required (missing → 400); a retry with it answers the first result, Idempotent-Replayed: true. A transfer that is no longer pending or has expired is 409 conflict, details[].issue not_pending or expired.`,
    security: 'bearer',
    input: { path: transferPath, headers: idempotentHeaders },
    operation: prepareOperation(
      `mutation ${name}($appId: ID!, $transferId: ID!, $idempotencyKey: String!) {
        ${field}(appId: $appId, transferId: $transferId, idempotencyKey: $idempotencyKey) { ${TRANSFER} replayed }
      }`,
    ),
    variables: ({ path, headers: h }) => ({ appId: path.appId, transferId: path.transferId, idempotencyKey: h['idempotency-key'] }),
    result: (data) => {
      const { replayed: _replayed, ...transfer } = data[field] as Record<string, unknown>;
      return transfer;
    },
    respond: (data) => ({ headers: { ETag: etag(data[field]), ...replayedHeader(data[field]) } }),
    documentedHeaders: { ...ETAG_HEADER, ...REPLAY_HEADER },
    success: { status: 200, schema: ownerTransferSchema, description: 'The transfer as it is now.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: { request: `POST /api/v2/developer/apps/app_transfer/owner-transfers/otr_pending/${kind}`, response: { data: example } },
  });
};

export const ownerTransferRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'createOwnerTransfer',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/owner-transfers',
    tag: TAG,
    summary: 'Offer an application to another owner',
    description:
      "Creates a pending transfer of the application to toOwner (an organisation, team or user), which a user who manages toOwner may accept until expiresAt (expiresInDays, default 7, at most 30). The caller is a user who manages the application's current owner, with a token of any application (an application actor is 403). One pending transfer at a time: another one is 409 conflict (issue transfer_pending, field its id). toOwner must exist and differ from the current owner (else 400). Idempotency-Key is required.",
    security: 'bearer',
    input: { path: appPath, headers: idempotentHeaders, body: createTransferInput },
    operation: prepareOperation(
      `mutation CreateOwnerTransfer($appId: ID!, $input: CreateOwnerTransferInput!, $idempotencyKey: String!) {
        createOwnerTransfer(appId: $appId, input: $input, idempotencyKey: $idempotencyKey) { ${TRANSFER} replayed }
      }`,
    ),
    variables: ({ path, headers: h, body }) => ({ appId: path.appId, input: body, idempotencyKey: h['idempotency-key'] }),
    result: (data) => {
      const { replayed: _replayed, ...transfer } = data.createOwnerTransfer as Record<string, unknown>;
      return transfer;
    },
    respond: (data) => ({ headers: { ETag: etag(data.createOwnerTransfer), ...replayedHeader(data.createOwnerTransfer) } }),
    documentedHeaders: { ...ETAG_HEADER, ...REPLAY_HEADER },
    success: { status: 201, schema: ownerTransferSchema, description: 'Created: the pending transfer.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: {
      request: JSON.stringify({ toOwner: { type: 'organisation', id: 'org_rival' }, expiresInDays: 7 }),
      response: { data: { ...demoTransfer, id: 'otr_…', applicationId: 'app_demo', createdAt: '2026-11-23T10:00:00.000Z', expiresAt: '2026-11-30T10:00:00.000Z' } },
    },
  }),
  defineRoute({
    operationId: 'listOwnerTransfers',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/owner-transfers',
    tag: TAG,
    summary: "List an application's owner transfers",
    description: `Newest first, 20 per page by default (keyset pagination); status filters (expired: pending past expiresAt). ${READERS}`,
    security: 'bearer',
    input: { path: appPath, query: z.object({ cursor: cursorParam, limit: limitParam, status: z.enum(TRANSFER_STATUSES).optional() }).strict(), headers },
    operation: prepareOperation(
      `query ListOwnerTransfers($appId: ID!, $cursor: String, $limit: Int, $status: OwnerTransferStatus) {
        ownerTransfers(appId: $appId, cursor: $cursor, limit: $limit, status: $status) { data { ${TRANSFER} } meta { ${selectionOf(pageMeta)} } }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, ...query }),
    result: (data) => data.ownerTransfers,
    format: 'list',
    success: { status: 200, schema: ownerTransferSchema, description: 'A page of transfers.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_transfer/owner-transfers?status=pending', response: { data: [demoTransfer], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'getOwnerTransfer',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/owner-transfers/{transferId}',
    tag: TAG,
    summary: 'Read an owner transfer',
    description: `ETag is the transfer revision. ${READERS}`,
    security: 'bearer',
    input: { path: transferPath, headers },
    operation: prepareOperation(`query GetOwnerTransfer($appId: ID!, $transferId: ID!) { ownerTransfer(appId: $appId, id: $transferId) { ${TRANSFER} } }`),
    variables: ({ path }) => ({ appId: path.appId, transferId: path.transferId }),
    result: (data) => data.ownerTransfer,
    respond: (data) => ({ headers: { ETag: etag(data.ownerTransfer) } }),
    documentedHeaders: ETAG_HEADER,
    success: { status: 200, schema: ownerTransferSchema, description: 'The transfer.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_transfer/owner-transfers/otr_pending', response: { data: demoTransfer } },
  }),
  transitionRoute(
    'accept',
    'Accept an owner transfer',
    "Moves the application to toOwner, in one transaction with the transfer's new status, accepted. The caller must be a user who manages toOwner (with a token of any application); an application actor or a user who does not manage it is 403. The transfer must be pending, unexpired, and the application still owned by fromOwner (else 409, issue not_pending, expired or owner_changed). The application's installations, tokens and webhook endpoints stay as they are; entitlements are the new owner's from then on.",
    { ...demoTransfer, status: 'accepted', revision: 2 },
  ),
  transitionRoute('decline', 'Decline an owner transfer', 'Declines a pending transfer; the application stays where it is. The caller must be a user who manages toOwner (else 403).', {
    ...demoTransfer,
    status: 'declined',
    revision: 2,
  }),
  transitionRoute('cancel', 'Cancel an owner transfer', "Withdraws a pending transfer. The caller must be a user who manages the application's owner (else 403).", {
    ...demoTransfer,
    status: 'cancelled',
    revision: 2,
  }),
];
