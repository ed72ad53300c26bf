// The delivery log of an application: deliveries newest first (filters endpointId, status,
// eventType), one delivery, its attempts, and redelivery of a terminal one (a new delivery with the
// same payload and redeliveryOf set; the original stays as it was).
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../../platform/db/generated/client.ts';
import { failWith } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { ApiError, notFound, validationFailed } from '../../../platform/api/errors.ts';
import { idempotentTransaction, replayInstead, requestHash, validateKey } from '../../../platform/domain/idempotency.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { managedApplication } from '../../../platform/domain/application-access.ts';
import { CHANGE_TYPE_NAMES } from '../../../platform/domain/change-catalogue.ts';
import { DELIVERY_STATUSES } from './inputs.ts';
import type { webhookAttemptView, webhookDeliveryView } from './views.ts';
import type { SqlStatement } from '../../../platform/db/database.ts';

/** The channel that wakes the webhook workers (subgraphs/workers) when deliveries are due. */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';
/** Sent in the transaction that makes deliveries due: a new endpoint's test, a redelivery, a fan-out. */
export const NOTIFY_DELIVERIES: SqlStatement = { text: `SELECT pg_notify('${DELIVERIES_CHANNEL}', '')`, values: [] };

// A delivery and an attempt as answered: the views' types (views.ts), declared once.
export type DeliveryView = z.output<typeof webhookDeliveryView>;
export type AttemptView = z.output<typeof webhookAttemptView>;

export const toDeliveryView = (row: WebhookDelivery): DeliveryView => ({
  id: row.id,
  applicationId: row.applicationId,
  installationId: row.installationId,
  endpointId: row.endpointId,
  eventId: row.eventId,
  eventType: row.eventType,
  // A text column that only ever holds DELIVERY_STATUSES (the worker takes it from them).
  status: row.status as DeliveryView['status'],
  attemptCount: row.attemptCount,
  responseStatus: row.responseStatus,
  errorCode: row.errorCode,
  redeliveryOf: row.redeliveryOf,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

/**
 * An attempt logged in_progress whose delivery is no longer leased for it is interrupted: its worker
 * died (or lost the database) before recording the outcome. The next claim writes that down; until
 * then (a disabled endpoint is not claimed) the answer says it already.
 */
const toAttemptView = (delivery: WebhookDelivery) => (row: WebhookAttempt): AttemptView => {
  const running = row.number === delivery.attemptCount && delivery.claimedUntil !== null && delivery.claimedUntil.getTime() > Date.now();
  return {
    number: row.number,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    responseStatus: row.responseStatus,
    errorCode: row.errorCode === 'in_progress' && !running ? 'interrupted' : row.errorCode,
    responseBody: row.responseBody,
  };
};

export interface DeliveryListArgs {
  cursor?: string | null;
  limit?: number | null;
  endpointId?: string | null;
  status?: string | null;
  eventType?: string | null;
}

const oneOf = (field: string, value: string | null | undefined, allowed: readonly string[]) => {
  if (value != null && !allowed.includes(value)) {
    throw validationFailed(`${field} must be one of ${allowed.join(', ')}.`, [{ field, issue: `must be one of ${allowed.join(', ')}` }]);
  }
};

export async function listDeliveries(ctx: SubgraphContext, applicationId: string, args: DeliveryListArgs): Promise<Page<DeliveryView>> {
  await managedApplication(ctx, applicationId);
  oneOf('status', args.status, DELIVERY_STATUSES);
  oneOf('eventType', args.eventType, CHANGE_TYPE_NAMES);
  return keysetPage({
    binding: `webhook-deliveries|${applicationId}|${args.endpointId ?? ''}|${args.status ?? ''}|${args.eventType ?? ''}`,
    args,
    order: ['createdAt', 'id'],
    direction: 'desc',
    where: {
      applicationId,
      ...(args.endpointId ? { endpointId: args.endpointId } : {}),
      ...(args.status ? { status: args.status } : {}),
      ...(args.eventType ? { eventType: args.eventType } : {}),
    },
    find: (where, orderBy, take) => ctx.db.webhookDelivery.findMany({ where, orderBy, take }),
    map: toDeliveryView,
  });
}

async function deliveryOf(ctx: SubgraphContext, applicationId: string, deliveryId: string): Promise<WebhookDelivery> {
  const row = await ctx.db.webhookDelivery.findUnique({ where: { id: deliveryId } });
  if (!row || row.applicationId !== applicationId) throw notFound('The webhook delivery');
  return row;
}

export async function getDelivery(ctx: SubgraphContext, applicationId: string, deliveryId: string): Promise<DeliveryView> {
  await managedApplication(ctx, applicationId);
  return toDeliveryView(await deliveryOf(ctx, applicationId, deliveryId));
}

export async function listAttempts(ctx: SubgraphContext, applicationId: string, deliveryId: string, args: { cursor?: string | null; limit?: number | null }): Promise<Page<AttemptView>> {
  await managedApplication(ctx, applicationId);
  const delivery = await deliveryOf(ctx, applicationId, deliveryId);
  return keysetPage({
    binding: `webhook-attempts|${deliveryId}`,
    args,
    order: ['number'],
    where: { deliveryId },
    find: (where, orderBy, take) => ctx.db.webhookAttempt.findMany({ where, orderBy, take }),
    map: toAttemptView(delivery),
  });
}

const TERMINAL = ['succeeded', 'dead-letter'];

const REDELIVER_SQL = `
  WITH inserted AS (
    INSERT INTO "WebhookDelivery" (id, "applicationId", "installationId", "endpointId", "eventId", "eventType", payload, status, "redeliveryOf", "nextAttemptAt", "createdAt", "updatedAt")
    SELECT $1, "applicationId", "installationId", "endpointId", "eventId", "eventType", payload, 'pending', id, ${NOW}, $3::timestamp, $3::timestamp
    FROM "WebhookDelivery" WHERE id = $2 AND status IN ('succeeded', 'dead-letter')
    RETURNING 1)
  SELECT CASE WHEN count(*) = 0 THEN ${failWith('not_terminal', 'count(*)')} END AS guard FROM inserted`;

const notTerminal = (status: string) =>
  new ApiError('conflict', `Only a succeeded or dead-letter delivery can be redelivered; this one is ${status}.`, [{ field: 'deliveryId', issue: 'not_terminal' }]);

export async function redeliver(
  ctx: SubgraphContext,
  applicationId: string,
  deliveryId: string,
  idempotencyKey: string | null | undefined,
): Promise<DeliveryView & { replayed: boolean }> {
  await managedApplication(ctx, applicationId);
  const scope = { applicationId, method: 'POST', route: 'redeliverWebhookDelivery', key: validateKey(idempotencyKey), requestHash: requestHash({ applicationId, deliveryId }) };
  let original: WebhookDelivery;
  try {
    original = await deliveryOf(ctx, applicationId, deliveryId);
    if (!TERMINAL.includes(original.status)) throw notTerminal(original.status);
  } catch (error) {
    const replay = await replayInstead(ctx.db, scope, error);
    if (replay) return { ...(replay.body as DeliveryView), replayed: true };
    throw error;
  }
  const now = new Date().toISOString();
  const delivery: DeliveryView = {
    ...toDeliveryView(original),
    id: newId('dlv'),
    status: 'pending',
    attemptCount: 0,
    responseStatus: null,
    errorCode: null,
    redeliveryOf: original.id,
    createdAt: now,
    updatedAt: now,
    deliveredAt: null,
  };
  const { body, replayed } = await idempotentTransaction(
    ctx,
    scope,
    { status: 201, body: delivery },
    [{ text: REDELIVER_SQL, values: [delivery.id, original.id, now.replace('Z', '')] }, NOTIFY_DELIVERIES],
    (check) => (check === 'not_terminal' ? notTerminal('no longer terminal') : undefined),
  );
  return { ...body, replayed };
}
