// Webhooks: endpoints, deliveries and their attempts under Application, the event-type catalogue,
// and the mutations the REST routes run. Rules live in ../webhooks/.
import { inputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { builder } from '../builder.ts';
import { replayedField } from '../../../platform/graphql/builder.ts';
import './enums.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
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
import { payloadSchema, CHANGE_TYPES, type ChangeTypeSpec } from '../../../platform/domain/change-catalogue.ts';
import { createEndpointInput, recoverInput, updateEndpointInput } from '../webhooks/inputs.ts';
import { webhookAttemptView, webhookDeliveryView, webhookEndpointView, webhookEndpointWithSecretView, webhookEventTypeView, webhookEndpointDeletedView, webhookRecoverResultView } from '../webhooks/views.ts';
import { Application } from './application.ts';
import { pageType } from './page.ts';

const fieldsOf = viewFields(builder);

export const WebhookEndpoint = builder.objectRef<EndpointView>('WebhookEndpoint').implement({
  description: webhookEndpointView.description,
  fields: (t) => fieldsOf(t, webhookEndpointView),
});

const WebhookEndpointWithSecret = builder
  .objectRef<{ endpoint: EndpointView; secret: string; replayed?: boolean }>('WebhookEndpointWithSecret')
  .implement({
    fields: (t) => ({
      ...fieldsOf(t, webhookEndpointWithSecretView, { endpoint: WebhookEndpoint }),
      replayed: replayedField(t),
    }),
  });

const WebhookAttempt = builder.objectRef<AttemptView>('WebhookAttempt').implement({ fields: (t) => fieldsOf(t, webhookAttemptView) });

export const WebhookDelivery = builder.objectRef<DeliveryView & { replayed?: boolean }>('WebhookDelivery').implement({
  description: webhookDeliveryView.description,
  fields: (t) => ({
    ...fieldsOf(t, webhookDeliveryView, { status: 'String' }),
    replayed: replayedField(t),
    attempts: t.field({
      type: pageType('WebhookAttemptPage', WebhookAttempt),
      args: { cursor: t.arg.string(), limit: t.arg.int() },
      directives: PAGED_BY_LIMIT,
      resolve: (row, args, ctx) => listAttempts(ctx, row.applicationId, row.id, args),
    }),
  }),
});

const WebhookEndpointPage = pageType('WebhookEndpointPage', WebhookEndpoint);
const WebhookDeliveryPage = pageType('WebhookDeliveryPage', WebhookDelivery);

const WebhookEventTypeRef = builder.objectRef<ChangeTypeSpec>('WebhookEventType').implement({
  fields: (t) => fieldsOf(t, webhookEventTypeView, {}, { payloadSchema: (type: ChangeTypeSpec) => payloadSchema(type) }),
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

const RecoverResult = builder.objectRef<{ endpointId: string; requeued: number }>('WebhookRecoverResult').implement({ fields: (t) => fieldsOf(t, webhookRecoverResultView) });
const DeleteResult = builder.objectRef<{ id: string; deleted: boolean }>('WebhookEndpointDeleted').implement({ fields: (t) => fieldsOf(t, webhookEndpointDeletedView) });

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
