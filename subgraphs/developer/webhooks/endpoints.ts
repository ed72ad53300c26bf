// Webhook endpoints of an application: create (Idempotency-Key, at most 25), list, read, change
// (If-Match on the endpoint's revision), delete, rotate the secret (the old one signs too for 24 h),
// send a test delivery, and re-queue failed deliveries. Secrets are answered only at creation and
// rotation.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { WebhookEndpoint } from '../../../platform/db/generated/client.ts';
import { failWith } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { ApiError, notFound } from '../../../platform/api/errors.ts';
import { idempotentTransaction, replayInstead, requestHash, validateKey, type IdempotencyScope } from '../../../platform/domain/idempotency.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { expectedRevision, revisionMismatch } from '../../../platform/api/preconditions.ts';
import { validate } from '../../../platform/api/validation.ts';
import { managedApplication } from '../../../platform/domain/application-access.ts';
import { checkEndpointUrl } from './addresses.ts';
import type { DeliveryView } from './delivery-log.ts';
import { NOTIFY_DELIVERIES } from './delivery-log.ts';
import type { webhookEndpointView, webhookEndpointWithSecretView } from './views.ts';
import { createEndpointInput, MAX_ENDPOINTS_PER_APPLICATION, recoverInput, updateEndpointInput } from './inputs.ts';
import type { ChangeType } from '../../../platform/domain/change-catalogue.ts';

export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

// An endpoint as answered: the view's type (views.ts), declared once.
export type EndpointView = z.output<typeof webhookEndpointView>;
export type EndpointWithSecret = z.output<typeof webhookEndpointWithSecretView>;

export const toEndpointView = (row: WebhookEndpoint): EndpointView => ({
  id: row.id,
  applicationId: row.applicationId,
  name: row.name,
  url: row.url,
  // A text column that only ever holds ENDPOINT_STATUSES (the writers take it from them).
  status: row.status as EndpointView['status'],
  disabledReason: row.disabledReason,
  description: row.description,
  subscribedEvents: row.subscribedEvents,
  revision: row.revision,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** whsec_ and 24 random bytes in base64, as Standard Webhooks libraries expect. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

async function endpointOf(ctx: SubgraphContext, applicationId: string, endpointId: string): Promise<WebhookEndpoint> {
  const row = await ctx.db.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!row || row.applicationId !== applicationId) throw notFound('The webhook endpoint');
  return row;
}

const idempotencyScope = (applicationId: string, route: string, key: string | null | undefined, request: unknown): IdempotencyScope => ({
  applicationId,
  method: 'POST',
  route,
  key: validateKey(key),
  requestHash: requestHash(request),
});

// The application's lock is a statement of its own: a statement sees the rows committed before it
// began, so a count in the statement that waited for the lock would miss the endpoints created by
// the writers it waited for, and concurrent creations could pass the limit together.
const LOCK_APPLICATION_SQL = `SELECT id FROM "Application" WHERE id = $1 FOR UPDATE`;
const INSERT_ENDPOINT_SQL = `
  WITH app AS (SELECT id FROM "Application" WHERE id = $2),
  inserted AS (
    INSERT INTO "WebhookEndpoint" (id, "applicationId", name, url, description, "subscribedEvents", status, secret, revision, "createdAt", "updatedAt")
    SELECT $1, app.id, $3, $4, $5, $6::text[], 'active', $7, 1, $8::timestamp, $8::timestamp FROM app
    WHERE (SELECT count(*) FROM "WebhookEndpoint" WHERE "applicationId" = $2) < ${MAX_ENDPOINTS_PER_APPLICATION}
    RETURNING 1)
  SELECT CASE WHEN count(*) = 0 THEN ${failWith('endpoint_limit', 'count(*)')} END AS guard FROM inserted`;

export async function createEndpoint(
  ctx: SubgraphContext,
  applicationId: string,
  body: unknown,
  idempotencyKey: string | null | undefined,
): Promise<EndpointWithSecret & { replayed: boolean }> {
  await managedApplication(ctx, applicationId);
  const scope = idempotencyScope(applicationId, 'createWebhookEndpoint', idempotencyKey, { applicationId, body });
  let input;
  try {
    input = validate(createEndpointInput, body);
    input = { ...input, url: checkEndpointUrl(input.url) };
  } catch (error) {
    const replay = await replayInstead(ctx.db, scope, error);
    if (replay) return { ...(replay.body as EndpointWithSecret), replayed: true };
    throw error;
  }
  const now = new Date().toISOString();
  const endpoint: EndpointView = {
    id: newId('whe'),
    applicationId,
    name: input.name,
    url: input.url,
    status: 'active',
    disabledReason: null,
    description: input.description ?? null,
    subscribedEvents: input.subscribedEvents,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
  const secret = newSecret();
  const { body: result, replayed } = await idempotentTransaction(
    ctx,
    scope,
    { status: 201, body: { endpoint, secret } },
    [
      { text: LOCK_APPLICATION_SQL, values: [applicationId] },
      {
        text: INSERT_ENDPOINT_SQL,
        values: [endpoint.id, applicationId, endpoint.name, endpoint.url, endpoint.description, endpoint.subscribedEvents, secret, now.replace('Z', '')],
      },
    ],
    (check) =>
      check === 'endpoint_limit'
        ? new ApiError('validation_failed', `An application may have at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints; delete one first.`, [
            { issue: 'limit_exceeded' },
          ])
        : undefined,
  );
  return { ...result, replayed };
}

export interface EndpointListArgs {
  cursor?: string | null;
  limit?: number | null;
}

export async function listEndpoints(ctx: SubgraphContext, applicationId: string, args: EndpointListArgs): Promise<Page<EndpointView>> {
  await managedApplication(ctx, applicationId);
  return keysetPage({
    binding: `webhook-endpoints|${applicationId}`,
    args,
    order: ['createdAt', 'id'],
    where: { applicationId },
    find: (where, orderBy, take) => ctx.db.webhookEndpoint.findMany({ where, orderBy, take }),
    map: toEndpointView,
  });
}

export async function getEndpoint(ctx: SubgraphContext, applicationId: string, endpointId: string): Promise<EndpointView> {
  await managedApplication(ctx, applicationId);
  return toEndpointView(await endpointOf(ctx, applicationId, endpointId));
}

export async function updateEndpoint(ctx: SubgraphContext, applicationId: string, endpointId: string, body: unknown, ifMatch: string | null | undefined): Promise<EndpointView> {
  await managedApplication(ctx, applicationId);
  const current = await endpointOf(ctx, applicationId, endpointId);
  const expected = expectedRevision(ifMatch);
  const input = validate(updateEndpointInput, body);
  if (current.revision !== expected) throw revisionMismatch(current.revision);
  const changes = {
    ...(input.url !== undefined ? { url: checkEndpointUrl(input.url) } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.subscribedEvents !== undefined ? { subscribedEvents: input.subscribedEvents } : {}),
    ...(input.status === 'active' && current.status !== 'active' ? { status: 'active', disabledReason: null, failingSince: null } : {}),
    ...(input.status === 'disabled' && current.status !== 'disabled' ? { status: 'disabled', disabledReason: 'manual' } : {}),
  };
  const changed = Object.entries(changes).some(([field, value]) => JSON.stringify(value) !== JSON.stringify(current[field as keyof WebhookEndpoint]));
  if (!changed) return toEndpointView(current);
  const { count } = await ctx.db.webhookEndpoint.updateMany({
    where: { id: endpointId, revision: expected },
    data: { ...changes, revision: { increment: 1 } },
  });
  if (count === 0) throw revisionMismatch((await endpointOf(ctx, applicationId, endpointId)).revision);
  return toEndpointView(await endpointOf(ctx, applicationId, endpointId));
}

export async function deleteEndpoint(ctx: SubgraphContext, applicationId: string, endpointId: string, ifMatch: string | null | undefined): Promise<{ id: string; deleted: boolean }> {
  await managedApplication(ctx, applicationId);
  const current = await endpointOf(ctx, applicationId, endpointId);
  // If-Match is optional here; when sent it must match.
  const expected = ifMatch == null ? current.revision : expectedRevision(ifMatch);
  const { count } = await ctx.db.webhookEndpoint.deleteMany({ where: { id: endpointId, revision: expected } });
  if (count === 0) {
    const now = await ctx.db.webhookEndpoint.findUnique({ where: { id: endpointId } });
    if (!now) throw notFound('The webhook endpoint');
    throw revisionMismatch(now.revision);
  }
  return { id: endpointId, deleted: true };
}

export async function rotateSecret(ctx: SubgraphContext, applicationId: string, endpointId: string): Promise<EndpointWithSecret> {
  await managedApplication(ctx, applicationId);
  const current = await endpointOf(ctx, applicationId, endpointId);
  const secret = newSecret();
  const { count } = await ctx.db.webhookEndpoint.updateMany({
    where: { id: endpointId, revision: current.revision },
    data: { secret, previousSecret: current.secret, previousSecretExpiresAt: new Date(Date.now() + SECRET_OVERLAP_MS), revision: { increment: 1 } },
  });
  if (count === 0) throw new ApiError('conflict', 'The endpoint changed while its secret was rotated: rotate again.', [{ issue: 'concurrent_changes' }]);
  return { endpoint: toEndpointView(await endpointOf(ctx, applicationId, endpointId)), secret };
}

const TEST_TYPE: ChangeType = 'webhook.test';
const TEST_DELIVERY_SQL = `
  INSERT INTO "WebhookDelivery" (id, "applicationId", "installationId", "endpointId", "eventId", "eventType", payload, status, "nextAttemptAt", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, '${TEST_TYPE}', $6::jsonb, 'pending', ${NOW}, $7::timestamp, $7::timestamp)`;

/** Queues a webhook.test delivery to this endpoint alone, through the application's first active installation. */
export async function testEndpoint(ctx: SubgraphContext, applicationId: string, endpointId: string): Promise<DeliveryView> {
  await managedApplication(ctx, applicationId);
  const endpoint = await endpointOf(ctx, applicationId, endpointId);
  const installation = await ctx.db.installation.findFirst({ where: { applicationId, status: 'active' }, orderBy: { id: 'asc' } });
  if (!installation) {
    throw new ApiError('conflict', 'The application has no active installation: deliveries are made through one.', [{ issue: 'missing_installation' }]);
  }
  const id = newId('dlv');
  const changeId = newId('chg_test');
  const now = new Date();
  const payload = {
    type: TEST_TYPE,
    timestamp: now.toISOString(),
    data: {
      changeId,
      organisationId: null,
      eventId: null,
      resourceType: 'webhook_endpoint',
      resourceId: endpoint.id,
      revision: null,
      details: { endpointId: endpoint.id, message: 'A test delivery: your endpoint receives and verifies webhooks.' },
    },
  };
  await ctx.transaction([
    { text: TEST_DELIVERY_SQL, values: [id, applicationId, installation.id, endpoint.id, changeId, JSON.stringify(payload), now.toISOString().replace('Z', '')] },
    NOTIFY_DELIVERIES,
  ]);
  // The delivery as queued: a read after the commit races the worker the NOTIFY woke, which may
  // already have delivered it.
  const at = now.toISOString();
  return {
    id,
    applicationId,
    installationId: installation.id,
    endpointId: endpoint.id,
    eventId: changeId,
    eventType: 'webhook.test',
    status: 'pending',
    attemptCount: 0,
    responseStatus: null,
    errorCode: null,
    redeliveryOf: null,
    createdAt: at,
    updatedAt: at,
    deliveredAt: null,
  };
}

const RECOVER_SQL = `
  WITH requeued AS (
    UPDATE "WebhookDelivery" SET status = 'pending', "nextAttemptAt" = ${NOW}, "updatedAt" = ${NOW}
    WHERE "endpointId" = $1 AND status IN ('failed', 'dead-letter') AND "createdAt" >= $2::timestamp
    RETURNING 1)
  SELECT count(*)::int AS requeued FROM requeued`;

/** Failed and dead-letter deliveries of the endpoint created since `since` are attempted again now. */
export async function recoverDeliveries(ctx: SubgraphContext, applicationId: string, endpointId: string, body: unknown): Promise<{ endpointId: string; requeued: number }> {
  await managedApplication(ctx, applicationId);
  await endpointOf(ctx, applicationId, endpointId);
  const input = validate(recoverInput, body);
  const since = new Date(input.since).toISOString().replace('Z', '');
  const [rows] = await ctx.transaction([{ text: RECOVER_SQL, values: [endpointId, since] }, NOTIFY_DELIVERIES]);
  return { endpointId, requeued: Number((rows[0] as { requeued: number }).requeued) };
}
