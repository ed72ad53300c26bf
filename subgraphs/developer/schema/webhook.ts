// Webhooks: endpoints, deliveries and their attempts under Application, the event-type catalogue,
// and the mutations the REST routes run. Rules live in ../webhooks/.
import { inputTypes } from '../../shared/zod-graphql.ts';
import { builder } from '../builder.ts';
import { WebhookEndpointStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../shared/demand-control.ts';
import { listAttempts, listDeliveries, getDelivery, redeliver, type AttemptView, type DeliveryView } from '../webhooks/delivery-log.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  recoverDeliveries,
  rotateSecret,
  testEndpoint,
  updateEndpoint,
  type EndpointView,
} from '../webhooks/endpoints.ts';
import { payloadSchema, CHANGE_TYPES, type ChangeTypeSpec } from '../../shared/change-catalogue.ts';
import { createEndpointInput, recoverInput, updateEndpointInput } from '../webhooks/inputs.ts';
import { Application } from './application.ts';
import { pageType } from './page.ts';

export const WebhookEndpoint = builder.objectRef<EndpointView>('WebhookEndpoint').implement({
  description: 'Where an application receives webhooks. Its signing secret is answered only at creation and rotation.',
  fields: (t) => ({
    id: t.exposeID('id'),
    applicationId: t.exposeID('applicationId'),
    name: t.exposeString('name'),
    url: t.exposeString('url'),
    status: t.expose('status', { type: WebhookEndpointStatusEnum }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'manual, gone (the receiver answered 410) or failing (5 days without a success)' }),
    description: t.exposeString('description', { nullable: true }),
    subscribedEvents: t.exposeStringList('subscribedEvents'),
    revision: t.exposeInt('revision', { description: 'Its ETag is "<revision>"; PATCH needs it in If-Match.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookEndpointWithSecret = builder
  .objectRef<{ endpoint: EndpointView; secret: string; replayed?: boolean }>('WebhookEndpointWithSecret')
  .implement({
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpoint, resolve: (result) => result.endpoint }),
      secret: t.exposeString('secret', { description: 'whsec_…: verify deliveries with it (Standard Webhooks).' }),
      replayed: t.boolean({ description: 'True when this is the stored result of an earlier request with the same Idempotency-Key.', resolve: (result) => result.replayed ?? false }),
    }),
  });

export const WebhookDelivery = builder.objectRef<DeliveryView & { replayed?: boolean }>('WebhookDelivery').implement({
  description: 'One change (or test) on its way to one endpoint.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the webhook-id header of every attempt.' }),
    applicationId: t.exposeID('applicationId'),
    installationId: t.exposeID('installationId'),
    endpointId: t.exposeID('endpointId'),
    eventId: t.exposeID('eventId', { description: 'The change delivered (data.changeId of the body).' }),
    eventType: t.exposeString('eventType'),
    status: t.exposeString('status', { description: 'pending, failed (will retry), succeeded or dead-letter' }),
    attemptCount: t.exposeInt('attemptCount', { description: 'Attempts made, the one in progress included.' }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    redeliveryOf: t.exposeID('redeliveryOf', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    replayed: t.boolean({ description: 'True when this is the stored result of an earlier request with the same Idempotency-Key.', resolve: (row) => row.replayed ?? false }),
    attempts: t.field({
      type: pageType('WebhookAttemptPage', builder.objectRef<AttemptView>('WebhookAttempt').implement({
        fields: (a) => ({
          number: a.exposeInt('number'),
          startedAt: a.expose('startedAt', { type: 'DateTime' }),
          durationMs: a.exposeInt('durationMs'),
          responseStatus: a.exposeInt('responseStatus', { nullable: true }),
          errorCode: a.exposeString('errorCode', {
            nullable: true,
            description:
              'null after a 2xx answer; otherwise why not: timeout, connection_refused, dns_failed, tls_error, blocked_address, connection_reset, unreachable, network_error, http_error; in_progress while the attempt is being made (logged before the request is sent; durationMs 0); interrupted when its worker stopped before recording the outcome (the receiver may or may not have had it; durationMs 0).',
          }),
          responseBody: a.exposeString('responseBody', { nullable: true, description: 'The first 1 KB of the answer.' }),
        }),
      })),
      args: { cursor: t.arg.string(), limit: t.arg.int() },
      directives: PAGED_BY_LIMIT,
      resolve: (row, args, ctx) => listAttempts(ctx, row.applicationId, row.id, args),
    }),
  }),
});

const WebhookEndpointPage = pageType('WebhookEndpointPage', WebhookEndpoint);
const WebhookDeliveryPage = pageType('WebhookDeliveryPage', WebhookDelivery);

const WebhookEventTypeRef = builder.objectRef<ChangeTypeSpec>('WebhookEventType').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    payloadSchema: t.field({ type: 'JSON', description: 'JSON Schema of a delivery body of this type.', resolve: (type) => payloadSchema(type) }),
  }),
});

builder.objectFields(Application, (t) => ({
  webhookEndpoints: t.field({
    type: WebhookEndpointPage,
    description: 'Webhook endpoints in creation order.',
    args: { cursor: t.arg.string(), limit: t.arg.int() },
    directives: PAGED_BY_LIMIT,
    resolve: (app, args, ctx) => listEndpoints(ctx, app.id, args),
  }),
  webhookEndpoint: t.field({
    type: WebhookEndpoint,
    args: { id: t.arg.id({ required: true }) },
    resolve: (app, args, ctx) => getEndpoint(ctx, app.id, String(args.id)),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    description: 'Deliveries, newest first.',
    args: { cursor: t.arg.string(), limit: t.arg.int(), endpointId: t.arg.id(), status: t.arg.string(), eventType: t.arg.string() },
    directives: PAGED_BY_LIMIT,
    resolve: (app, args, ctx) => listDeliveries(ctx, app.id, { ...args, endpointId: args.endpointId == null ? null : String(args.endpointId) }),
  }),
  webhookDelivery: t.field({
    type: WebhookDelivery,
    args: { id: t.arg.id({ required: true }) },
    resolve: (app, args, ctx) => getDelivery(ctx, app.id, String(args.id)),
  }),
}));

builder.queryFields((t) => ({
  webhookEventTypes: t.field({
    type: [WebhookEventTypeRef],
    description: 'The closed catalogue of webhook event types, with the JSON Schema of their bodies.',
    resolve: () => CHANGE_TYPES,
  }),
}));

const inputType = inputTypes(builder);
const CreateWebhookEndpointInput = inputType('CreateWebhookEndpointInput', createEndpointInput);
const UpdateWebhookEndpointInput = inputType('UpdateWebhookEndpointInput', updateEndpointInput);
const RecoverWebhookDeliveriesInput = inputType('RecoverWebhookDeliveriesInput', recoverInput);

/** GraphQL sends every omitted input field as null; absent fields stay absent (description may be null on purpose). */
const present = (input: Record<string, unknown>, keep: string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

const RecoverResult = builder.objectRef<{ endpointId: string; requeued: number }>('WebhookRecoverResult').implement({
  fields: (t) => ({ endpointId: t.exposeID('endpointId'), requeued: t.exposeInt('requeued', { description: 'Deliveries queued again.' }) }),
});
const DeleteResult = builder.objectRef<{ id: string; deleted: boolean }>('WebhookEndpointDeleted').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => {
  const appId = t.arg.id({ required: true });
  const endpointId = t.arg.id({ required: true });
  return {
    createWebhookEndpoint: t.field({
      type: WebhookEndpointWithSecret,
      description: 'Creates an active HTTPS endpoint (at most 25 per application) and answers its signing secret, once.',
      args: { appId, input: t.arg({ type: CreateWebhookEndpointInput, required: true }), idempotencyKey: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => createEndpoint(ctx, String(args.appId), present(args.input), args.idempotencyKey),
    }),
    updateWebhookEndpoint: t.field({
      type: WebhookEndpoint,
      description: 'Changes url, name, description, subscribedEvents or status; ifMatch is the endpoint revision ("3").',
      args: { appId, endpointId, input: t.arg({ type: UpdateWebhookEndpointInput, required: true }), ifMatch: t.arg.string() },
      resolve: (_root, args, ctx) => updateEndpoint(ctx, String(args.appId), String(args.endpointId), present(args.input), args.ifMatch),
    }),
    deleteWebhookEndpoint: t.field({
      type: DeleteResult,
      description: 'Deletes the endpoint and its deliveries.',
      args: { appId, endpointId, ifMatch: t.arg.string() },
      resolve: (_root, args, ctx) => deleteEndpoint(ctx, String(args.appId), String(args.endpointId), args.ifMatch),
    }),
    rotateWebhookEndpointSecret: t.field({
      type: WebhookEndpointWithSecret,
      description: 'A new signing secret; the previous one also signs for 24 hours.',
      args: { appId, endpointId },
      resolve: (_root, args, ctx) => rotateSecret(ctx, String(args.appId), String(args.endpointId)),
    }),
    testWebhookEndpoint: t.field({
      type: WebhookDelivery,
      description: 'Queues a webhook.test delivery to this endpoint.',
      args: { appId, endpointId },
      resolve: (_root, args, ctx) => testEndpoint(ctx, String(args.appId), String(args.endpointId)),
    }),
    recoverWebhookDeliveries: t.field({
      type: RecoverResult,
      description: 'Queues again the failed and dead-letter deliveries of the endpoint created since a time.',
      args: { appId, endpointId, input: t.arg({ type: RecoverWebhookDeliveriesInput, required: true }) },
      resolve: (_root, args, ctx) => recoverDeliveries(ctx, String(args.appId), String(args.endpointId), args.input),
    }),
    redeliverWebhookDelivery: t.field({
      type: WebhookDelivery,
      description: 'Queues a new delivery with the payload of a succeeded or dead-letter one (redeliveryOf set); other statuses are a conflict.',
      args: { appId, deliveryId: t.arg.id({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => redeliver(ctx, String(args.appId), String(args.deliveryId), args.idempotencyKey),
    }),
  };
});
