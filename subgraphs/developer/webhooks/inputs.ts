// Request bodies of the webhook routes, defined once: the REST facade validates with them, OpenAPI
// documents them, the GraphQL inputs are generated from them and the subgraph validates with them.
import { z } from 'zod';
import { isoTimestamp } from '../../../platform/api/validation.ts';
import { graphql } from '../../../platform/graphql/zod-graphql.ts';
import { CHANGE_TYPE_NAMES } from '../../../platform/domain/change-catalogue.ts';

export const MAX_ENDPOINTS_PER_APPLICATION = 25;
export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export const DELIVERY_STATUSES = ['pending', 'failed', 'succeeded', 'dead-letter'] as const;

const eventType = z.string().refine((value) => CHANGE_TYPE_NAMES.includes(value), {
  message: `must be one of the event types of GET /api/v2/developer/webhook-event-types (${CHANGE_TYPE_NAMES.join(', ')})`,
});
const subscribedEvents = z
  .array(eventType)
  .min(1)
  .max(CHANGE_TYPE_NAMES.length)
  .refine((types) => new Set(types).size === types.length, 'event types must be unique')
  .describe('Event types to deliver (see GET /api/v2/developer/webhook-event-types).');
const url = z.string().min(1).max(2048).describe('An https:// address whose host is not localhost (or a subdomain of it) and not a literal private, loopback, link-local, multicast, reserved or IPv4-compatible address, in any spelling.');
const name = z.string().trim().min(1).max(100);
const description = z.string().max(500).nullish();

export const createEndpointInput = z
  .object({ url, name, description, subscribedEvents })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest' });

export const updateEndpointInput = z
  .object({
    url: url.optional(),
    name: name.optional(),
    description,
    subscribedEvents: subscribedEvents.optional(),
    status: z
      .enum(ENDPOINT_STATUSES)
      .describe('disabled stops deliveries (they wait); active resumes them.')
      .register(graphql, { name: 'WebhookEndpointStatus' })
      .optional(),
  })
  .strict()
  .meta({ id: 'UpdateWebhookEndpointRequest' });

export const recoverInput = z
  .object({ since: isoTimestamp.describe('Re-queue failed and dead-letter deliveries created at or after this time.') })
  .strict()
  .meta({ id: 'RecoverWebhookDeliveriesRequest' });
