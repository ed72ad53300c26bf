// Idempotency keys (docs/competitions.md): scoped to (application, method, route, key), kept 24 h, recorded in
// the write's own transaction. The record is claimed first in that transaction, so a concurrent
// request with the same key waits on it and then replays the committed result; if the first one
// rolled back, the waiting one simply proceeds. A key already taken is looked up only then: a new
// key costs no extra statement.
import { createHash } from 'node:crypto';
import type { Db } from './db/database.ts';
import type { Prisma } from './db/generated/client.ts';
import { ApiError } from './errors.ts';
import { canonicalJson } from './canonical-json.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyScope {
  applicationId: string;
  method: string;
  route: string;
  key: string;
  /** sha256 of the canonical request, without If-Match (a replay answers even after the revision moved on). */
  requestHash: string;
}

export function validateKey(key: string | null | undefined): string {
  if (key == null || key === '') {
    throw new ApiError('validation_failed', 'This operation needs an Idempotency-Key header.', [{ field: 'idempotency-key', issue: 'required' }]);
  }
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1–255 visible ASCII characters.', [{ field: 'idempotency-key', issue: 'invalid' }]);
  }
  return key;
}

/** A stable hash of a request: object keys sorted, so equal requests hash equally. */
export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

const keyWhere = (scope: IdempotencyScope) => ({
  applicationId_method_route_key: { applicationId: scope.applicationId, method: scope.method, route: scope.route, key: scope.key },
});

/** The stored response for this key, or null when the key is new (or its record expired). */
export async function findReplay(db: Db, scope: IdempotencyScope): Promise<StoredResponse | null> {
  const record = await db.idempotencyRecord.findUnique({ where: keyWhere(scope) });
  if (!record || record.expiresAt.getTime() <= Date.now()) return null;
  if (record.requestHash !== scope.requestHash) {
    throw new ApiError('conflict', 'This Idempotency-Key was used for a different request.', [{ field: 'idempotency-key', issue: 'idempotency_key_reused' }]);
  }
  if (record.state !== 'completed') {
    throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.', [{ field: 'idempotency-key', issue: 'idempotency_key_in_use' }]);
  }
  return { status: record.responseStatus!, body: record.responseBody };
}

/** Thrown when the key is already held: by a committed request (replay it) or an expired record. */
export class KeyTaken extends Error {}

/**
 * First statement of the write's transaction: claims the key. A concurrent request holding the
 * same key makes this wait until it commits (then the key is taken) or rolls back (then it is ours).
 */
export async function claimKey(tx: Prisma.TransactionClient, scope: IdempotencyScope): Promise<void> {
  const claimed = await tx.$queryRaw<unknown[]>`
    INSERT INTO "IdempotencyRecord" ("applicationId", method, route, key, "requestHash", state, "createdAt", "expiresAt")
    VALUES (${scope.applicationId}, ${scope.method}, ${scope.route}, ${scope.key}, ${scope.requestHash}, 'in_progress',
            now() AT TIME ZONE 'UTC', (now() AT TIME ZONE 'UTC') + ${`${IDEMPOTENCY_TTL_MS} milliseconds`}::interval)
    ON CONFLICT DO NOTHING
    RETURNING 1`;
  if (claimed.length === 0) throw new KeyTaken();
}

/** Removes this key's record if it has expired; true when it did (the key may then be used afresh). */
export async function releaseExpiredKey(db: Db, scope: IdempotencyScope): Promise<boolean> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { ...keyWhere(scope).applicationId_method_route_key, expiresAt: { lte: new Date() } } });
  return count > 0;
}

/** Last statement of the write's transaction: the response a retry will get. */
export async function completeKey(tx: Prisma.TransactionClient, scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await tx.idempotencyRecord.update({
    where: keyWhere(scope),
    data: { state: 'completed', responseStatus: response.status, responseBody: response.body as Prisma.InputJsonValue },
  });
}

