// The one path every write to an event takes: scope, event, installation and a user's
// permission; the Idempotency-Key and If-Match headers; then one transaction that claims the key (or
// replays its first answer), locks the event, checks the revision, makes the change, moves the
// revision by one with a compare-and-swap (only when something changed) and appends change-log rows.
import { randomUUID } from 'node:crypto';
import type { SubgraphContext } from '../shared/context.ts';
import type { Prisma } from '../shared/db/generated/client.ts';
import { installationFor, permissionsOn, requireScope, type Authority } from '../shared/authority.ts';
import { ApiError, forbidden, notFound } from '../shared/errors.ts';
import { claimKey, completeKey, findReplay, KeyTaken, releaseExpiredKey, requestHash, validateKey, type IdempotencyScope } from '../shared/idempotency.ts';
import { expectedRevision, revisionMismatch } from '../shared/preconditions.ts';
import { WRITES, type WriteOperation } from './write-contracts.ts';

export type Tx = Prisma.TransactionClient;

export interface LockedEvent {
  id: string;
  organisationId: string;
  state: string;
  revision: number;
}

export interface Change {
  /** A documented event type, e.g. stage.created. */
  type: string;
  resourceType: string;
  resourceId: string;
  payload: Record<string, unknown>;
}

export interface Outcome {
  resourceId: string;
  changed: boolean;
  changes: Change[];
  /** Other events of the organisation this write also changed (their revisions move too). */
  alsoChangedEventIds?: string[];
}

export interface WriteResult {
  resourceId: string;
  revision: number;
  updated: boolean;
  replayed: boolean;
}

export interface EventWrite {
  /** The operation (write-contracts.ts): its method, scope, Idempotency-Key and status. */
  operation: WriteOperation;
  eventId: string;
  ifMatch?: string | null;
  idempotencyKey?: string | null;
  /** Everything that identifies the request except the preconditions, for the idempotency hash. */
  request: unknown;
  apply(tx: Tx, event: LockedEvent): Promise<Outcome>;
}

const TRANSACTION = { maxWait: 15_000, timeout: 20_000 };

const EVENT_ORGANISATION_SQL = `SELECT id, "organisationId" FROM "Event" WHERE id = $1`;

/**
 * Before the transaction (whose connection must not wait on others): the event exists (404), the
 * application is installed on it or its organisation (403), a user actor may do this there (403).
 */
async function admit(ctx: SubgraphContext, authority: Authority, write: EventWrite) {
  const contract = WRITES[write.operation];
  const [event] = await ctx.sql<{ id: string; organisationId: string }>(EVENT_ORGANISATION_SQL, [write.eventId]);
  if (!event) throw notFound('The event');
  const installation = await installationFor(ctx.loaders, authority.applicationId, 'event', event.id, event.organisationId);
  if (!installation) {
    throw forbidden('The application has no active installation on the organisation of this event.', 'missing_installation');
  }
  if (authority.actor.type === 'user') {
    const permissions = await permissionsOn(ctx.db, ctx.loaders, authority, 'event', event.id, installation);
    if (!permissions.includes(contract.scope)) {
      throw forbidden(`The user may not ${contract.scope.replace(':', ' ')} in this organisation.`, 'missing_permission');
    }
  }
}

async function lockEvent(tx: Tx, eventId: string): Promise<LockedEvent> {
  const rows = await tx.$queryRaw<LockedEvent[]>`
    SELECT id, "organisationId", state, revision FROM "Event" WHERE id = ${eventId} FOR UPDATE`;
  if (!rows[0]) throw notFound('The event');
  return rows[0];
}

/** Moves an event's revision on by one with a compare-and-swap. */
async function bumpRevision(tx: Tx, event: { id: string; organisationId: string; revision: number }): Promise<number> {
  const updated = await tx.$executeRaw`
    UPDATE "Event" SET revision = revision + 1, "updatedAt" = now() WHERE id = ${event.id} AND revision = ${event.revision}`;
  if (updated !== 1) throw revisionMismatch(event.revision);
  return event.revision + 1;
}

async function appendChanges(tx: Tx, event: { id: string; organisationId: string }, revision: number, changes: Change[]) {
  if (!changes.length) return;
  await tx.changeLog.createMany({
    data: changes.map((change) => ({
      id: `chg_${randomUUID().replace(/-/g, '')}`,
      type: change.type,
      organisationId: event.organisationId,
      eventId: event.id,
      resourceType: change.resourceType,
      resourceId: change.resourceId,
      revision,
      payload: { ...change.payload, eventId: event.id, revision } as Prisma.InputJsonValue,
    })),
  });
}

export async function runEventWrite(ctx: SubgraphContext, write: EventWrite): Promise<WriteResult> {
  const contract = WRITES[write.operation];
  const authority = await ctx.authority();
  requireScope(authority, contract.scope);
  await admit(ctx, authority, write);
  let idempotency: IdempotencyScope | undefined;
  if (contract.idempotent || write.idempotencyKey) {
    idempotency = {
      applicationId: authority.applicationId,
      method: contract.method,
      route: write.operation,
      key: validateKey(write.idempotencyKey),
      requestHash: requestHash({ eventId: write.eventId, request: write.request }),
    };
  }
  const expected = expectedRevision(write.ifMatch);
  return transact(ctx, write, expected, idempotency, true);
}

async function transact(
  ctx: SubgraphContext,
  write: EventWrite,
  expected: number,
  idempotency: IdempotencyScope | undefined,
  mayRetry: boolean,
): Promise<WriteResult> {
  try {
    return await ctx.db.$transaction(async (tx) => {
      if (idempotency) await claimKey(tx, idempotency);
      const event = await lockEvent(tx, write.eventId);
      if (event.revision !== expected) throw revisionMismatch(event.revision);
      const outcome = await write.apply(tx, event);
      let revision = event.revision;
      if (outcome.changed) {
        revision = await bumpRevision(tx, event);
        await appendChanges(tx, event, revision, outcome.changes);
        for (const otherId of outcome.alsoChangedEventIds ?? []) {
          const other = await lockEvent(tx, otherId);
          const otherRevision = await bumpRevision(tx, other);
          await appendChanges(tx, other, otherRevision, outcome.changes);
        }
      }
      const result: WriteResult = { resourceId: outcome.resourceId, revision, updated: outcome.changed, replayed: false };
      if (idempotency) await completeKey(tx, idempotency, { status: WRITES[write.operation].status, body: result });
      return result;
    }, TRANSACTION);
  } catch (error) {
    if (error instanceof KeyTaken && idempotency) {
      // The key's first request committed: replay it (even if the revision has moved on since).
      const replay = await findReplay(ctx.db, idempotency);
      if (replay) return { ...(replay.body as WriteResult), replayed: true };
      // Its record had expired: the key is free again.
      if (mayRetry && (await releaseExpiredKey(ctx.db, idempotency))) return transact(ctx, write, expected, idempotency, false);
      throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.', [{ field: 'idempotency-key', issue: 'idempotency_key_in_use' }]);
    }
    throw error;
  }
}
