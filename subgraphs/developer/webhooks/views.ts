// Webhook endpoints, deliveries, attempts and event types as read: the REST responses and OpenAPI take these
// schemas, and the GraphQL object types take their fields from them (platform/graphql/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString, dateTimeString } from '../../../platform/graphql/zod-graphql.ts';
import { DELIVERY_STATUSES, ENDPOINT_STATUSES } from './inputs.ts';

export const webhookEndpointView = z
  .object({
    id: idString,
    applicationId: idString,
    name: z.string(),
    url: z.string(),
    status: z.enum(ENDPOINT_STATUSES).register(graphql, { name: 'WebhookEndpointStatus' }),
    disabledReason: z.string().nullable().describe('manual, gone (the receiver answered 410) or failing (5 days without a success)'),
    description: z.string().nullable(),
    subscribedEvents: z.array(z.string()),
    revision: z.number().int().describe('Its ETag is "<revision>"; PATCH needs it in If-Match.'),
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
  })
  .strict()
  .describe('Where an application receives webhooks. Its signing secret is answered only at creation and rotation.')
  .meta({ id: 'WebhookEndpoint' });

export const webhookEndpointWithSecretView = z
  .object({
    endpoint: webhookEndpointView,
    secret: z.string().describe('whsec_…: verify deliveries with it (Standard Webhooks); answered only here and at rotation.'),
  })
  .strict()
  .meta({ id: 'WebhookEndpointWithSecret' });

export const webhookDeliveryView = z
  .object({
    id: idString.describe('Also the webhook-id header of every attempt.'),
    applicationId: idString,
    installationId: idString,
    endpointId: idString,
    eventId: idString.describe('The change delivered (data.changeId in the body).'),
    eventType: z.string(),
    // A GraphQL String: dead-letter is not a GraphQL name.
    status: z.enum(DELIVERY_STATUSES).describe('pending, failed (will retry), succeeded or dead-letter'),
    attemptCount: z.number().int().describe('Attempts made, the one in progress included.'),
    responseStatus: z.number().int().nullable(),
    errorCode: z.string().nullable(),
    redeliveryOf: idString.nullable(),
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
    deliveredAt: dateTimeString.nullable(),
  })
  .strict()
  .describe('One change (or test) on its way to one endpoint.')
  .meta({ id: 'WebhookDelivery' });

export const webhookAttemptView = z
  .object({
    number: z.number().int(),
    startedAt: dateTimeString,
    durationMs: z.number().int(),
    responseStatus: z.number().int().nullable(),
    errorCode: z
      .string()
      .nullable()
      .describe(
        'null after a 2xx answer; otherwise why not: timeout, connection_refused, dns_failed, tls_error, blocked_address, connection_reset, unreachable, network_error, http_error; in_progress while the attempt is being made (logged before the request is sent; durationMs 0); interrupted when its worker stopped before recording the outcome (the receiver may or may not have had it; durationMs 0).',
      ),
    responseBody: z.string().nullable().describe('The first 1 KB of the answer.'),
  })
  .strict()
  .meta({ id: 'WebhookAttempt' });

export const webhookEventTypeView = z
  .object({ name: z.string(), description: z.string(), payloadSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of a delivery body of this type.') })
  .strict()
  .meta({ id: 'WebhookEventType' });

export const webhookEndpointDeletedView = z.object({ id: idString, deleted: z.boolean() }).strict().meta({ id: 'WebhookEndpointDeleted' });

export const webhookRecoverResultView = z
  .object({ endpointId: idString, requeued: z.number().int().describe('Deliveries queued again.') })
  .strict()
  .meta({ id: 'WebhookRecoverResult' });
