// REST routes of webhooks: the event-type catalogue, an application's endpoints, its delivery log and
// redelivery. Each row runs a field of the developer subgraph (schema/webhook.ts).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { createEndpointInput, DELIVERY_STATUSES, recoverInput, updateEndpointInput } from '../../subgraphs/developer/webhooks/inputs.ts';
import { webhookAttemptView as attemptSchema, webhookDeliveryView as webhookDeliverySchema, webhookEndpointView as webhookEndpointSchema, webhookEndpointWithSecretView as endpointWithSecret, webhookEventTypeView as eventTypeSchema, webhookEndpointDeletedView as deletedSchema, webhookRecoverResultView as recoveredSchema } from '../../subgraphs/developer/webhooks/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idempotentHeaders, idParam, limitParam, pageMeta, REPLAY_HEADER, replayedHeader, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'Webhooks';
const WHO =
  'Callers: a token of this application with an application actor, or with a user actor who manages the application owner (403 otherwise); any other application is 404.';


const headers = z.object({ 'x-request-id': requestIdHeader });
const ifMatchHeaders = (required: boolean) =>
  z.object({
    'if-match': z
      .string()
      .max(200)
      .optional()
      .describe(`${required ? 'Required' : 'Optional'}: the endpoint revision as a strong ETag, e.g. "2". ${required ? 'Missing → 428; ' : ''}stale, weak or * → 412.`),
    'x-request-id': requestIdHeader,
  });
const appPath = z.object({ appId: idParam });
const endpointPath = z.object({ appId: idParam, endpointId: idParam });
const deliveryPath = z.object({ appId: idParam, deliveryId: idParam });

const ENDPOINT = selectionOf(webhookEndpointSchema);
const DELIVERY = selectionOf(webhookDeliverySchema);
const ETAG_HEADER = { ETag: { description: 'The endpoint revision, e.g. "2".', schema: { type: 'string' } } };
const app = (data: Record<string, unknown>) => data.application as Record<string, unknown>;

const demoEndpoint = {
  id: 'whe_demo',
  applicationId: 'app_demo',
  name: 'Demo endpoint',
  url: 'https://hooks.example.test/demo',
  status: 'active',
  disabledReason: null,
  description: null,
  subscribedEvents: ['event.published', 'stage.created'],
  revision: 1,
  createdAt: '2026-01-05T12:00:00.000Z',
  updatedAt: '2026-01-05T12:00:00.000Z',
};
const demoDelivery = {
  id: 'dlv_succeeded',
  applicationId: 'app_demo',
  installationId: 'ins_demo_org',
  endpointId: 'whe_demo',
  eventId: 'evt_msg_succeeded',
  eventType: 'event.published',
  status: 'succeeded',
  attemptCount: 1,
  responseStatus: 200,
  errorCode: null,
  redeliveryOf: null,
  createdAt: '2026-01-05T20:20:00.000Z',
  updatedAt: '2026-01-05T20:20:01.143Z',
  deliveredAt: '2026-01-05T20:20:01.143Z',
};

export const webhookRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'listWebhookEventTypes',
    method: 'get',
    path: '/api/v2/developer/webhook-event-types',
    tag: TAG,
    summary: 'The webhook event-type catalogue',
    description: 'Every event type an endpoint can subscribe to, with the JSON Schema of its delivery body. Public: no token needed.',
    security: 'none',
    input: { headers },
    operation: prepareOperation(`query ListWebhookEventTypes { webhookEventTypes { ${selectionOf(eventTypeSchema)} } }`),
    variables: () => ({}),
    result: (data) => data.webhookEventTypes,
    success: { status: 200, schema: z.array(eventTypeSchema), description: 'The catalogue.' },
    errors: [400, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/webhook-event-types', response: { data: [{ name: 'stage.created', description: 'A stage (and its groups) was added to the event.', payloadSchema: { type: 'object' } }] } },
  }),
  defineRoute({
    operationId: 'createWebhookEndpoint',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints',
    tag: TAG,
    summary: 'Create a webhook endpoint',
    description: `Creates an active HTTPS endpoint for the subscribed event types and answers it with its signing secret (whsec_…), the only time besides rotation that the secret is shown. At most 25 endpoints per application (the 26th is 400 limit_exceeded). URLs that are not https://, or that name localhost or a private, loopback, link-local, multicast or reserved address, are 400. Unknown event types are 400. ${WHO}`,
    security: 'bearer',
    input: { path: appPath, headers: idempotentHeaders, body: createEndpointInput },
    operation: prepareOperation(
      `mutation CreateWebhookEndpoint($appId: ID!, $input: CreateWebhookEndpointInput!, $idempotencyKey: String!) {
        createWebhookEndpoint(appId: $appId, input: $input, idempotencyKey: $idempotencyKey) { ${selectionOf(endpointWithSecret)} replayed }
      }`,
    ),
    variables: ({ path, headers: h, body }) => ({ appId: path.appId, input: body, idempotencyKey: h['idempotency-key'] }),
    result: (data) => {
      const { endpoint, secret } = data.createWebhookEndpoint as { endpoint: unknown; secret: string };
      return { endpoint, secret };
    },
    respond: (data) => ({ headers: { ETag: `"${(data.createWebhookEndpoint as { endpoint: { revision: number } }).endpoint.revision}"`, ...replayedHeader(data.createWebhookEndpoint) } }),
    documentedHeaders: { ...ETAG_HEADER, ...REPLAY_HEADER },
    success: { status: 201, schema: endpointWithSecret, description: 'Created: the endpoint and its signing secret.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: {
      request: JSON.stringify({ url: 'https://hooks.example.com/esports', name: 'Production', subscribedEvents: ['stage.created', 'event.published'] }),
      response: { data: { endpoint: { ...demoEndpoint, id: 'whe_…', url: 'https://hooks.example.com/esports', name: 'Production' }, secret: 'whsec_…' } },
    },
  }),
  defineRoute({
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints',
    tag: TAG,
    summary: "List an application's webhook endpoints",
    description: `In creation order, 20 per page by default (keyset pagination). Secrets are never listed. ${WHO}`,
    security: 'bearer',
    input: { path: appPath, query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query ListWebhookEndpoints($appId: ID!, $cursor: String, $limit: Int) {
        application(id: $appId) { webhookEndpoints(cursor: $cursor, limit: $limit) { data { ${ENDPOINT} } meta { ${selectionOf(pageMeta)} } } }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, ...query }),
    result: (data) => app(data).webhookEndpoints,
    format: 'list',
    success: { status: 200, schema: webhookEndpointSchema, description: 'A page of endpoints.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_demo/webhook-endpoints', response: { data: [demoEndpoint], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Read a webhook endpoint',
    description: `The endpoint without its secret; ETag is its revision, for PATCH's If-Match. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers },
    operation: prepareOperation(`query GetWebhookEndpoint($appId: ID!, $endpointId: ID!) { application(id: $appId) { webhookEndpoint(id: $endpointId) { ${ENDPOINT} } } }`),
    variables: ({ path }) => ({ appId: path.appId, endpointId: path.endpointId }),
    result: (data) => app(data).webhookEndpoint,
    respond: (data) => ({ headers: { ETag: `"${(app(data).webhookEndpoint as { revision: number }).revision}"` } }),
    documentedHeaders: ETAG_HEADER,
    success: { status: 200, schema: webhookEndpointSchema, description: 'The endpoint.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', response: { data: demoEndpoint } },
  }),
  defineRoute({
    operationId: 'updateWebhookEndpoint',
    method: 'patch',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Change a webhook endpoint',
    description: `Changes url, name, description, subscribedEvents or status (disabled holds deliveries back; active resumes them and clears disabledReason). Requires If-Match with the endpoint revision. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers: ifMatchHeaders(true), requiredHeaders: ['if-match'], body: updateEndpointInput },
    operation: prepareOperation(
      `mutation UpdateWebhookEndpoint($appId: ID!, $endpointId: ID!, $input: UpdateWebhookEndpointInput!, $ifMatch: String) {
        updateWebhookEndpoint(appId: $appId, endpointId: $endpointId, input: $input, ifMatch: $ifMatch) { ${ENDPOINT} }
      }`,
    ),
    variables: ({ path, headers: h, body }) => ({ appId: path.appId, endpointId: path.endpointId, input: body, ifMatch: h['if-match'] ?? null }),
    result: (data) => data.updateWebhookEndpoint,
    respond: (data) => ({ headers: { ETag: `"${(data.updateWebhookEndpoint as { revision: number }).revision}"` } }),
    documentedHeaders: ETAG_HEADER,
    success: { status: 200, schema: webhookEndpointSchema, description: 'The endpoint as it is now.' },
    errors: [400, 401, 403, 404, 412, 428, 429, 500, 503],
    example: { request: JSON.stringify({ subscribedEvents: ['stage.created'], status: 'disabled' }), response: { data: { ...demoEndpoint, subscribedEvents: ['stage.created'], status: 'disabled', disabledReason: 'manual', revision: 2 } } },
  }),
  defineRoute({
    operationId: 'rotateWebhookEndpointSecret',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}/rotate-secret',
    tag: TAG,
    summary: "Rotate an endpoint's signing secret",
    description: `Answers a new secret. For 24 hours deliveries carry two signatures in webhook-signature, one per secret, so a receiver verifies with either. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers },
    operation: prepareOperation(
      `mutation RotateWebhookEndpointSecret($appId: ID!, $endpointId: ID!) {
        rotateWebhookEndpointSecret(appId: $appId, endpointId: $endpointId) { ${selectionOf(endpointWithSecret)} }
      }`,
    ),
    variables: ({ path }) => ({ appId: path.appId, endpointId: path.endpointId }),
    result: (data) => data.rotateWebhookEndpointSecret,
    success: { status: 200, schema: endpointWithSecret, description: 'The endpoint and its new secret.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: { request: 'POST /api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/rotate-secret', response: { data: { endpoint: { ...demoEndpoint, revision: 2 }, secret: 'whsec_…' } } },
  }),
  defineRoute({
    operationId: 'testWebhookEndpoint',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}/test',
    tag: TAG,
    summary: 'Send a test delivery',
    description: `Queues a webhook.test delivery to this endpoint (whatever it subscribes to), delivered and logged like any other. 409 when the application has no active installation. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers },
    operation: prepareOperation(`mutation TestWebhookEndpoint($appId: ID!, $endpointId: ID!) { testWebhookEndpoint(appId: $appId, endpointId: $endpointId) { ${DELIVERY} } }`),
    variables: ({ path }) => ({ appId: path.appId, endpointId: path.endpointId }),
    result: (data) => data.testWebhookEndpoint,
    success: { status: 201, schema: webhookDeliverySchema, description: 'The queued test delivery.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: { request: 'POST /api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/test', response: { data: { ...demoDelivery, id: 'dlv_…', eventId: 'chg_test_…', eventType: 'webhook.test', status: 'pending', attemptCount: 0, responseStatus: null, deliveredAt: null } } },
  }),
  defineRoute({
    operationId: 'recoverWebhookDeliveries',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}/recover',
    tag: TAG,
    summary: 'Re-queue failed deliveries',
    description: `Queues again, now, the endpoint's failed and dead-letter deliveries created at or after \`since\`. A dead-letter delivery gets one more attempt. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers, body: recoverInput },
    operation: prepareOperation(
      `mutation RecoverWebhookDeliveries($appId: ID!, $endpointId: ID!, $input: RecoverWebhookDeliveriesInput!) {
        recoverWebhookDeliveries(appId: $appId, endpointId: $endpointId, input: $input) { ${selectionOf(recoveredSchema)} }
      }`,
    ),
    variables: ({ path, body }) => ({ appId: path.appId, endpointId: path.endpointId, input: body }),
    result: (data) => data.recoverWebhookDeliveries,
    success: { status: 200, schema: recoveredSchema, description: 'How many deliveries were queued again.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: JSON.stringify({ since: '2026-01-01T00:00:00Z' }), response: { data: { endpointId: 'whe_demo', requeued: 2 } } },
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/webhook-deliveries',
    tag: TAG,
    summary: "List an application's webhook deliveries",
    description: `Newest first, 20 per page by default (keyset pagination). Filters endpointId, status (pending, failed, succeeded, dead-letter) and eventType. ${WHO}`,
    security: 'bearer',
    input: {
      path: appPath,
      query: z
        .object({ cursor: cursorParam, limit: limitParam, endpointId: idParam.optional(), status: z.enum(DELIVERY_STATUSES).optional(), eventType: z.string().min(1).max(100).optional() })
        .strict(),
      headers,
    },
    operation: prepareOperation(
      `query ListWebhookDeliveries($appId: ID!, $cursor: String, $limit: Int, $endpointId: ID, $status: String, $eventType: String) {
        application(id: $appId) {
          webhookDeliveries(cursor: $cursor, limit: $limit, endpointId: $endpointId, status: $status, eventType: $eventType) { data { ${DELIVERY} } meta { ${selectionOf(pageMeta)} } }
        }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, ...query }),
    result: (data) => app(data).webhookDeliveries,
    format: 'list',
    success: { status: 200, schema: webhookDeliverySchema, description: 'A page of deliveries.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_demo/webhook-deliveries?status=succeeded', response: { data: [demoDelivery], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/webhook-deliveries/{deliveryId}',
    tag: TAG,
    summary: 'Read a webhook delivery',
    description: `The delivery with its status, attempt count and last answer. ${WHO}`,
    security: 'bearer',
    input: { path: deliveryPath, headers },
    operation: prepareOperation(`query GetWebhookDelivery($appId: ID!, $deliveryId: ID!) { application(id: $appId) { webhookDelivery(id: $deliveryId) { ${DELIVERY} } } }`),
    variables: ({ path }) => ({ appId: path.appId, deliveryId: path.deliveryId }),
    result: (data) => app(data).webhookDelivery,
    success: { status: 200, schema: webhookDeliverySchema, description: 'The delivery.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: { request: 'GET /api/v2/developer/apps/app_demo/webhook-deliveries/dlv_succeeded', response: { data: demoDelivery } },
  }),
  defineRoute({
    operationId: 'listWebhookDeliveryAttempts',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/webhook-deliveries/{deliveryId}/attempts',
    tag: TAG,
    summary: "List a delivery's attempts",
    description: `Every attempt in order: when, how long, the answer's status and first 1 KB, or the error code. ${WHO}`,
    security: 'bearer',
    input: { path: deliveryPath, query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query ListWebhookDeliveryAttempts($appId: ID!, $deliveryId: ID!, $cursor: String, $limit: Int) {
        application(id: $appId) { webhookDelivery(id: $deliveryId) { attempts(cursor: $cursor, limit: $limit) { data { ${selectionOf(attemptSchema)} } meta { ${selectionOf(pageMeta)} } } } }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, deliveryId: path.deliveryId, ...query }),
    result: (data) => (app(data).webhookDelivery as { attempts: unknown }).attempts,
    format: 'list',
    success: { status: 200, schema: attemptSchema, description: 'A page of attempts.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v2/developer/apps/app_demo/webhook-deliveries/dlv_retrying/attempts',
      response: {
        data: [
          { number: 1, startedAt: '2026-01-05T20:20:01.000Z', durationMs: 61, responseStatus: 503, errorCode: 'http_error', responseBody: 'busy' },
          { number: 2, startedAt: '2026-01-05T20:20:06.000Z', durationMs: 58, responseStatus: 503, errorCode: 'http_error', responseBody: 'busy' },
        ],
        meta: { nextCursor: null, hasMore: false },
      },
    },
  }),
  defineRoute({
    operationId: 'redeliverWebhookDelivery',
    method: 'post',
    path: '/api/v2/developer/apps/{appId}/webhook-deliveries/{deliveryId}/redeliver',
    tag: TAG,
    summary: 'Redeliver a webhook',
    description: `Queues a new delivery with the same payload as a succeeded or dead-letter delivery; the new one has redeliveryOf set and its own id (and webhook-id); the original is unchanged. Any other status is 409 conflict. Idempotency-Key required. ${WHO}`,
    security: 'bearer',
    input: { path: deliveryPath, headers: idempotentHeaders },
    operation: prepareOperation(
      `mutation RedeliverWebhookDelivery($appId: ID!, $deliveryId: ID!, $idempotencyKey: String!) {
        redeliverWebhookDelivery(appId: $appId, deliveryId: $deliveryId, idempotencyKey: $idempotencyKey) { ${DELIVERY} replayed }
      }`,
    ),
    variables: ({ path, headers: h }) => ({ appId: path.appId, deliveryId: path.deliveryId, idempotencyKey: h['idempotency-key'] }),
    result: (data) => {
      const { replayed: _replayed, ...delivery } = data.redeliverWebhookDelivery as Record<string, unknown>;
      return delivery;
    },
    respond: (data) => ({ headers: replayedHeader(data.redeliverWebhookDelivery) }),
    documentedHeaders: REPLAY_HEADER,
    success: { status: 201, schema: webhookDeliverySchema, description: 'The new delivery.' },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    example: {
      request: 'POST /api/v2/developer/apps/app_demo/webhook-deliveries/dlv_succeeded/redeliver',
      response: { data: { ...demoDelivery, id: 'dlv_…', status: 'pending', attemptCount: 0, responseStatus: null, deliveredAt: null, redeliveryOf: 'dlv_succeeded' } },
    },
  }),
  // Last: the samples delete the demo endpoint that the others use.
  defineRoute({
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: '/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Delete a webhook endpoint',
    description: `Deletes the endpoint with its deliveries and their attempts. If-Match is optional; when sent it must be the current revision. ${WHO}`,
    security: 'bearer',
    input: { path: endpointPath, headers: ifMatchHeaders(false) },
    operation: prepareOperation(
      `mutation DeleteWebhookEndpoint($appId: ID!, $endpointId: ID!, $ifMatch: String) {
        deleteWebhookEndpoint(appId: $appId, endpointId: $endpointId, ifMatch: $ifMatch) { ${selectionOf(deletedSchema)} }
      }`,
    ),
    variables: ({ path, headers: h }) => ({ appId: path.appId, endpointId: path.endpointId, ifMatch: h['if-match'] ?? null }),
    result: (data) => data.deleteWebhookEndpoint,
    success: { status: 200, schema: deletedSchema, description: 'Deleted.' },
    errors: [400, 401, 403, 404, 412, 429, 500, 503],
    example: { request: 'DELETE /api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', response: { data: { id: 'whe_demo', deleted: true } } },
  }),
];
