// Idempotency keys (docs/competitions.md): scoped to (application, method, route, key), kept 24 h, recorded in
// the write's own transaction. The record is claimed first in that transaction, so a concurrent
// request with the same key waits on it and then replays the committed result; if the first one
// rolled back, the waiting one simply proceeds. A key already taken is looked up only then: a new
// key costs no extra round trip.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { SqlStatement } from '../db/database.ts';
import { failWith, guardFailure } from '../db/guards.ts';
import { ApiError } from '../api/errors.ts';
import { canonicalJson } from '../api/canonical-json.ts';

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

/**
 * First statement of the write's transaction: claims the key, or fails guard `key_taken`. A
 * concurrent request holding the same key makes it wait until that one commits (the key is then
 * taken) or rolls back (then it is ours).
 */
export function claimKeyStatement(scope: IdempotencyScope): SqlStatement {
  return {
    text: `WITH claimed AS (
             INSERT INTO "IdempotencyRecord" ("applicationId", method, route, key, "requestHash", state, "createdAt", "expiresAt")
             VALUES ($1, $2, $3, $4, $5, 'in_progress', now() AT TIME ZONE 'UTC', (now() AT TIME ZONE 'UTC') + $6::interval)
             ON CONFLICT DO NOTHING
             RETURNING 1)
           SELECT CASE WHEN count(*) = 0 THEN ${failWith('key_taken', 'count(*)')} END AS guard FROM claimed`,
    values: [scope.applicationId, scope.method, scope.route, scope.key, scope.requestHash, `${IDEMPOTENCY_TTL_MS} milliseconds`],
  };
}

/** Removes this key's record if it has expired; true when it did (the key may then be used afresh). */
export async function releaseExpiredKey(db: Db, scope: IdempotencyScope): Promise<boolean> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { ...keyWhere(scope).applicationId_method_route_key, expiresAt: { lte: new Date() } } });
  return count > 0;
}

/** Last statement of the write's transaction: the response a retry will get. */
export function completeKeyStatement(scope: IdempotencyScope, response: StoredResponse): SqlStatement {
  return {
    text: `UPDATE "IdempotencyRecord" SET state = 'completed', "responseStatus" = $5, "responseBody" = $6::jsonb
           WHERE "applicationId" = $1 AND method = $2 AND route = $3 AND key = $4`,
    values: [scope.applicationId, scope.method, scope.route, scope.key, response.status, JSON.stringify(response.body)],
  };
}

/**
 * A write that needs no plan against a revision (webhook endpoints, redeliveries): its statements run
 * in one transaction between claiming the key and recording `response`. A key already used answers
 * its first response, replayed. `onGuard` turns the write's own failed checks into errors.
 */
export async function idempotentTransaction<T>(
  ctx: { db: Db; transaction(statements: SqlStatement[]): Promise<unknown> },
  scope: IdempotencyScope,
  response: { status: number; body: T },
  statements: SqlStatement[],
  onGuard: (check: string, value: string) => Error | undefined = () => undefined,
): Promise<{ body: T; replayed: boolean }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await ctx.transaction([claimKeyStatement(scope), ...statements, completeKeyStatement(scope, response)]);
      return { body: response.body, replayed: false };
    } catch (error) {
      const failed = guardFailure(error);
      if (!failed) throw error;
      if (failed.check !== 'key_taken') throw onGuard(failed.check, failed.value) ?? error;
      const replay = await findReplay(ctx.db, scope);
      if (replay) return { body: replay.body as T, replayed: true };
      if (!(await releaseExpiredKey(ctx.db, scope))) {
        throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.', [{ field: 'idempotency-key', issue: 'idempotency_key_in_use' }]);
      }
    }
  }
  throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.', [{ field: 'idempotency-key', issue: 'idempotency_key_in_use' }]);
}

/** The stored answer for a key whose request now fails validation (its first run changed things), if any. */
export async function replayInstead(db: Db, scope: IdempotencyScope, error: unknown): Promise<{ body: unknown; replayed: true } | null> {
  if (!(error instanceof ApiError)) return null;
  const replay = await findReplay(db, scope);
  return replay ? { body: replay.body, replayed: true } : null;
}
