// The one path every write to an event takes: scope, event, installation and a user's
// permission; the Idempotency-Key and If-Match headers; then the write in two steps.
//
// 1. Plan: outside any transaction, the write reads what it needs at the event's current revision,
//    answers its 4xx, or decides its statements. Every change to an event's data moves its
//    revision, so that revision stands for everything the plan read.
// 2. Transaction: claim the key (or replay its first answer), lock the event and check that it is
//    still at If-Match's revision and at the plan's, run the statements, move the revision by one
//    and append the change-log rows (whose readers are woken at commit), record the key's answer. The statements are sent back to back
//    (Database.transaction): the connection is held for the SQL alone. A check that fails aborts
//    the transaction (db/guards.ts); a plan that went stale or a deadlock is planned again.
import type { ChangeDetails, ChangeType } from '../../../platform/domain/change-catalogue.ts';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { Db, SqlStatement } from '../../../platform/db/database.ts';
import { guardFailure } from '../../../platform/db/guards.ts';
import { installationFor, permissionsOn, requireScope, type Authority } from '../../../platform/domain/authority.ts';
import { ApiError, forbidden, notFound } from '../../../platform/api/errors.ts';
import {
  claimKeyStatement,
  completeKeyStatement,
  findReplay,
  releaseExpiredKey,
  requestHash,
  validateKey,
  type IdempotencyScope,
} from '../../../platform/domain/idempotency.ts';
import { expectedRevision, revisionMismatch } from '../../../platform/api/preconditions.ts';
import { appendChanges, type NewChange } from '../../../platform/domain/change-log.ts';
import { BUMP_REVISIONS_SQL, EVENT_STATE_SQL, LOCK_EVENT_SQL } from './statements.ts';
import { contractOf, WRITES, type WriteOperation } from '../write-contracts.ts';
import { rolesGranting, SCOPE_ACTIONS, type Scope } from '../../../platform/domain/scopes.ts';

export interface EventState {
  id: string;
  organisationId: string;
  state: string;
  revision: number;
}

/**
 * A change an event write records: a type of the change catalogue (e.g. stage.created) and the
 * details its schema there declares (ChangeDetails), so a writer emitting a payload its type does not
 * declare does not compile. The write adds eventId and revision to the payload.
 */
export type Change<T extends ChangeType = ChangeType> = {
  [K in T]: { type: K; resourceType: string; resourceId: string; payload: ChangeDetails<K> };
}[T];

export interface Plan {
  resourceId: string;
  /** False when the request changes nothing: the answer is the current revision and nothing is written. */
  changed: boolean;
  changes: Change[];
  /** The write's own statements (statements.ts), run once the event is locked and found unchanged. */
  statements: SqlStatement[];
  /** Other events of the organisation this write also changes, at the revision the plan read them. */
  alsoChanged?: EventState[];
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
  /** Reads what the write needs through Prisma's model API and decides, or throws the request's 4xx. */
  plan(db: Db, event: EventState): Promise<Plan>;
  /**
   * Who may make this write, instead of the installation and permission check of admit(): for the
   * writes whose contract names no scope (a team's player answering an invitation).
   */
  admit?(authority: Authority, event: EventState): Promise<void>;
  /** The error a failed check of the write's own statements stands for (e.g. slug_taken). */
  onGuard?(check: string, value: string): Error | undefined;
}

/** The Idempotency-Key scope of a write: the application, the route and the request's hash. */
export function idempotencyScope(authority: Authority, method: string, route: string, key: string | null | undefined, request: unknown): IdempotencyScope {
  return { applicationId: authority.applicationId, method, route, key: validateKey(key), requestHash: requestHash(request) };
}

/** A stale plan or a deadlock is retried this many times in all before the write gives up. */
const ATTEMPTS = 4;

/**
 * An organiser's authority over organisation `organisationId`, or over its event `eventId` when
 * given: the application is installed there (on the event or its organisation; else 403
 * missing_installation) and a user actor holds `scope` there (else 403 missing_permission).
 */
export async function assertOrganiserAuthority(ctx: SubgraphContext, authority: Authority, scope: Scope, organisationId: string, eventId?: string): Promise<void> {
  const installation = eventId
    ? await installationFor(ctx.loaders, authority.applicationId, 'event', eventId, organisationId)
    : await installationFor(ctx.loaders, authority.applicationId, 'organisation', organisationId);
  if (!installation) {
    throw forbidden(`The application has no active installation on ${eventId ? 'the organisation of this event' : 'this organisation'}.`, 'missing_installation');
  }
  if (authority.actor.type === 'user') {
    const permissions = await permissionsOn(ctx.db, ctx.loaders, authority, eventId ? 'event' : 'organisation', eventId ?? organisationId, installation);
    if (!permissions.includes(scope)) {
      throw forbidden(
        `The user may not ${SCOPE_ACTIONS[scope] ?? 'do this'} ${eventId ? 'in this event' : 'in this organisation'}: that needs the permission ${scope}, which ${rolesGranting(scope)} of the organisation hold.`,
        'missing_permission',
      );
    }
  }
}

/**
 * Before the transaction: the event exists (404), the application is installed on it or its
 * organisation (403), a user actor may do this there (403).
 */
async function admit(ctx: SubgraphContext, authority: Authority, write: EventWrite): Promise<EventState> {
  const contract = contractOf(write.operation);
  const event = await readEvent(ctx, write.eventId);
  if (write.admit) {
    await write.admit(authority, event);
    return event;
  }
  if (!contract.scope) throw new Error(`${write.operation} names no scope and no admission of its own.`);
  await assertOrganiserAuthority(ctx, authority, contract.scope, event.organisationId, event.id);
  return event;
}

async function readEvent(ctx: SubgraphContext, eventId: string): Promise<EventState> {
  const [event] = await ctx.sql<EventState>(EVENT_STATE_SQL, [eventId]);
  if (!event) throw notFound('The event');
  return event;
}

export async function runEventWrite(ctx: SubgraphContext, write: EventWrite): Promise<WriteResult> {
  const contract = contractOf(write.operation);
  const authority = await ctx.authority();
  if (contract.scope) requireScope(authority, contract.scope);
  let event = await admit(ctx, authority, write);
  let idempotency: IdempotencyScope | undefined;
  if (contract.idempotent || write.idempotencyKey) {
    idempotency = idempotencyScope(authority, contract.method, write.operation, write.idempotencyKey, { eventId: write.eventId, request: write.request });
  }
  // Writes without If-Match are planned at the current revision and only checked for staleness.
  const expected = contract.ifMatch === false ? null : expectedRevision(write.ifMatch);
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptWrite(ctx, write, event, expected, idempotency);
    if (outcome !== RETRY) return outcome;
    if (attempt === ATTEMPTS) {
      throw new ApiError('conflict', 'The event kept changing while this write was applied: send it again.', [{ issue: 'concurrent_changes' }]);
    }
    event = await readEvent(ctx, write.eventId);
  }
}

const RETRY = Symbol('retry');

/** SQLSTATEs after which the same write, planned again, may well succeed. */
const TRANSIENT = new Set(['40P01', '40001']);

async function attemptWrite(
  ctx: SubgraphContext,
  write: EventWrite,
  event: EventState,
  expected: number | null,
  idempotency: IdempotencyScope | undefined,
): Promise<WriteResult | typeof RETRY> {
  // Planned only at If-Match's revision (any, without If-Match); otherwise the transaction answers (a replay, or 412).
  let plan: Plan | undefined;
  if (expected === null || event.revision === expected) {
    try {
      plan = await write.plan(ctx.db, event);
    } catch (error) {
      // A key's first request may have changed what this one would now refuse: replay it.
      const replay = error instanceof ApiError && idempotency ? await findReplay(ctx.db, idempotency) : null;
      if (replay) return { ...(replay.body as WriteResult), replayed: true };
      throw error;
    }
    if (!plan.changed && !idempotency) return { resourceId: plan.resourceId, revision: event.revision, updated: false, replayed: false };
  }
  const statements: SqlStatement[] = [];
  if (idempotency) statements.push(claimKeyStatement(idempotency));
  statements.push({ text: LOCK_EVENT_SQL, values: [event.id, expected, plan ? event.revision : -1] });
  if (!plan) {
    // Fails: a replay, 412 at another revision, or `stale` (planned again) if the event has just
    // reached If-Match's revision.
    const answer = await runTransaction(ctx, statements, idempotency, write);
    if (answer) return answer;
    throw new Error('The event lock check passed without a plan.');
  }
  const others = [...(plan.alsoChanged ?? [])].filter((other) => other.id !== event.id).sort((a, b) => a.id.localeCompare(b.id));
  // Another event has no If-Match (null checks nothing): only whether it is still as planned.
  for (const other of others) statements.push({ text: LOCK_EVENT_SQL, values: [other.id, null, other.revision] });
  const revision = plan.changed ? event.revision + 1 : event.revision;
  if (plan.changed) statements.push(...plan.statements, ...recordChanges([event, ...others], plan.changes));
  const result: WriteResult = { resourceId: plan.resourceId, revision, updated: plan.changed, replayed: false };
  if (idempotency) statements.push(completeKeyStatement(idempotency, { status: WRITES[write.operation].status, body: result }));
  return (await runTransaction(ctx, statements, idempotency, write)) ?? result;
}

/**
 * Runs the transaction; undefined when it committed, otherwise what its failed check means: a
 * replay, a retry, or the error to answer.
 */
async function runTransaction(
  ctx: SubgraphContext,
  statements: SqlStatement[],
  idempotency: IdempotencyScope | undefined,
  write: EventWrite,
): Promise<WriteResult | typeof RETRY | undefined> {
  try {
    await ctx.transaction(statements);
    return undefined;
  } catch (error) {
    if (TRANSIENT.has((error as { code?: string }).code ?? '')) return RETRY;
    const failed = guardFailure(error);
    if (!failed) throw error;
    if (failed.check === 'revision') throw revisionMismatch(Number(failed.value));
    if (failed.check === 'stale') return RETRY;
    if (failed.check === 'not_found') throw notFound('The event');
    if (failed.check === 'key_taken' && idempotency) {
      // The key's first request committed: replay it (even if the revision has moved on since).
      const replay = await findReplay(ctx.db, idempotency);
      if (replay) return { ...(replay.body as WriteResult), replayed: true };
      // Its record had expired: the key is free again.
      if (await releaseExpiredKey(ctx.db, idempotency)) return RETRY;
      throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.', [{ field: 'idempotency-key', issue: 'idempotency_key_in_use' }]);
    }
    throw write.onGuard?.(failed.check, failed.value) ?? error;
  }
}

/** Each event's revision moves on by one; each gets a change-log row per change, at its new revision. */
function recordChanges(events: EventState[], changes: Change[]): SqlStatement[] {
  const rows = events.flatMap((event) =>
    changes.map((change) => {
      const revision = event.revision + 1;
      // The payload was checked against its type when the plan built it; TypeScript does not follow
      // the type into the spread, hence the assertion.
      return { ...change, organisationId: event.organisationId, eventId: event.id, revision, payload: { ...change.payload, eventId: event.id, revision } } as NewChange;
    }),
  );
  return [{ text: BUMP_REVISIONS_SQL, values: [events.map((event) => event.id)] }, ...appendChanges(rows)];
}
