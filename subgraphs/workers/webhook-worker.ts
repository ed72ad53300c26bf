// The webhook worker: fans the change feed out into deliveries and attempts every due delivery.
// Runs inside `npm start` (unless WEBHOOK_WORKER=off) and on its own as `npm run worker`; any number
// may run. A delivery is claimed with FOR UPDATE SKIP LOCKED and a lease longer than an attempt can
// last, so no two workers make the same attempt; a worker that dies loses nothing: its lease runs out
// and another worker makes the attempt again, with the same webhook-id (at least once). Claims are
// fair across endpoints and bounded per endpoint, so a receiver that hangs cannot take every slot.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../platform/db/database.ts';
import { NOW } from '../../platform/db/sql-fragments.ts';
import { onChanges, pruneChanges } from '../../platform/domain/change-feed.ts';
import { coalesce } from '../../platform/process/coalesce.ts';
import { setting } from '../../platform/process/config.ts';
import { FailureRun } from '../../platform/process/failure-run.ts';
import { retryWhileUnavailable } from '../../platform/db/unavailable.ts';
import { attemptDelivery, type AttemptOutcome } from './webhook-attempt.ts';
import { fanOut, startFanOut } from './webhook-fanout.ts';
import { DELIVERIES_CHANNEL } from '../developer/webhooks/delivery-log.ts';

/** An endpoint failing continuously this long is disabled. */
const FAILING_DISABLES_AFTER = '5 days';
/** An unrecorded attempt is retried by whoever claims it after its lease: recording stops this long before. */
const LEASE_MARGIN_MS = 5_000;
/** A receiver's Retry-After is honoured up to this many seconds. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Seconds after the previous attempt; after the last one the delivery is dead-letter. */
export const retrySchedule = (): number[] => setting('WEBHOOK_RETRY_SCHEDULE');

/**
 * Claims serialise on this transaction-level advisory lock, so that each sees every claim made before
 * it and the per-endpoint bound is exact with any number of workers; a claim holds it for one short
 * statement.
 */
const CLAIM_LOCK_SQL = `SELECT pg_advisory_xact_lock(7316531, 1)`;

/**
 * Up to $1 due deliveries, at most $4 in flight per endpoint (1 while it is failing), taken in turns:
 * every endpoint's oldest due delivery first, then every endpoint's second, and so on, so that an
 * endpoint with a backlog does not push the others' deliveries back. Claiming one makes its attempt:
 * the attempt is numbered and logged as in_progress now, before anything is sent, and the previous
 * attempt, if its worker died before recording it, becomes interrupted.
 */
const CLAIM_SQL = `
  WITH due_endpoints AS (
    -- Endpoints with something due, from the nextAttemptAt index: not every active endpoint.
    SELECT DISTINCT "endpointId" FROM "WebhookDelivery"
    WHERE "nextAttemptAt" <= ${NOW} AND status IN ('pending', 'failed') AND ("claimedUntil" IS NULL OR "claimedUntil" < ${NOW})),
  busy AS (
    SELECT "endpointId", count(*)::int AS leased FROM "WebhookDelivery"
    WHERE "claimedUntil" > ${NOW}
    GROUP BY "endpointId"),
  room AS (
    SELECT id, free FROM (
      SELECT e.id, CASE WHEN e."failingSince" IS NULL THEN $4::int ELSE 1 END - COALESCE(busy.leased, 0) AS free
      FROM due_endpoints due JOIN "WebhookEndpoint" e ON e.id = due."endpointId" LEFT JOIN busy ON busy."endpointId" = e.id
      WHERE e.status = 'active') endpoints
    -- Filtered here, so that the LIMIT below is never negative (a failing endpoint may hold more than 1).
    WHERE free > 0),
  ranked AS (
    SELECT due.id, due."nextAttemptAt", ROW_NUMBER() OVER (PARTITION BY room.id ORDER BY due."nextAttemptAt", due.id) AS turn
    FROM room CROSS JOIN LATERAL (
      SELECT d.id, d."nextAttemptAt" FROM "WebhookDelivery" d
      WHERE d."endpointId" = room.id AND d."nextAttemptAt" <= ${NOW} AND d.status IN ('pending', 'failed')
        AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ${NOW})
      -- Index order (endpointId, nextAttemptAt): a backlog is not sorted to take its oldest few.
      ORDER BY d."nextAttemptAt"
      LIMIT LEAST(room.free, $1::int)
      FOR UPDATE OF d SKIP LOCKED) due),
  picked AS (SELECT id FROM ranked ORDER BY turn, "nextAttemptAt", id LIMIT $1::int),
  claimed AS (
    UPDATE "WebhookDelivery" d SET "claimedUntil" = ${NOW} + $2::interval, "claimToken" = $3, "attemptCount" = d."attemptCount" + 1
    FROM picked WHERE d.id = picked.id
    RETURNING d.id, d."attemptCount", d."endpointId", d.payload::text AS body),
  interrupted AS (
    UPDATE "WebhookAttempt" a SET "errorCode" = 'interrupted'
    FROM claimed WHERE a."deliveryId" = claimed.id AND a.number = claimed."attemptCount" - 1 AND a."errorCode" = 'in_progress'),
  started AS (
    INSERT INTO "WebhookAttempt" ("deliveryId", number, "startedAt", "durationMs", "errorCode")
    SELECT id, "attemptCount", ${NOW}, 0, 'in_progress' FROM claimed
    ON CONFLICT ("deliveryId", number) DO NOTHING)
  SELECT claimed.id, claimed."attemptCount", claimed."endpointId", claimed.body, e.url,
         CASE WHEN e."previousSecret" IS NOT NULL AND e."previousSecretExpiresAt" > ${NOW}
              THEN ARRAY[e.secret, e."previousSecret"] ELSE ARRAY[e.secret] END AS secrets
  FROM claimed JOIN "WebhookEndpoint" e ON e.id = claimed."endpointId"`;

/**
 * The attempt, the delivery's new state and, when it changes, the endpoint's: failing since when,
 * disabled on 410 or after five days of failures. Only the claim's holder moves the delivery.
 */
const RECORD_SQL = `
  WITH attempt AS (
    -- The outcome replaces in_progress, or interrupted when this worker was taken for dead (its lease
    -- ran out) but did get the answer: the truth is better than the guess.
    UPDATE "WebhookAttempt" SET "startedAt" = $3::timestamptz AT TIME ZONE 'UTC', "durationMs" = $4,
      "responseStatus" = $5, "errorCode" = $6, "responseBody" = $7
    WHERE "deliveryId" = $1 AND number = $2 AND "errorCode" IN ('in_progress', 'interrupted')),
  delivery AS (
    UPDATE "WebhookDelivery" SET status = $8, "responseStatus" = $5, "errorCode" = $6,
      "nextAttemptAt" = CASE WHEN $8 = 'failed' THEN ${NOW} + $9::interval END,
      "deliveredAt" = CASE WHEN $8 = 'succeeded' THEN ${NOW} ELSE "deliveredAt" END,
      "claimedUntil" = NULL, "claimToken" = NULL, "updatedAt" = ${NOW}
    WHERE id = $1 AND "claimToken" = $10
    RETURNING "endpointId")
  UPDATE "WebhookEndpoint" e SET
    "failingSince" = CASE WHEN $8 = 'succeeded' THEN NULL ELSE COALESCE(e."failingSince", ${NOW}) END,
    status = CASE WHEN $11 OR e."failingSince" < ${NOW} - interval '${FAILING_DISABLES_AFTER}' THEN 'disabled' ELSE e.status END,
    "disabledReason" = CASE WHEN $11 THEN 'gone' WHEN e."failingSince" < ${NOW} - interval '${FAILING_DISABLES_AFTER}' THEN 'failing' ELSE e."disabledReason" END,
    revision = CASE WHEN $11 OR e."failingSince" < ${NOW} - interval '${FAILING_DISABLES_AFTER}' THEN e.revision + 1 ELSE e.revision END,
    "updatedAt" = ${NOW}
  FROM delivery
  WHERE e.id = delivery."endpointId" AND e.status = 'active'
    AND (CASE WHEN $8 = 'succeeded' THEN e."failingSince" IS NOT NULL
              ELSE $11 OR e."failingSince" IS NULL OR e."failingSince" < ${NOW} - interval '${FAILING_DISABLES_AFTER}' END)`;

interface Claimed {
  id: string;
  attemptCount: number;
  endpointId: string;
  body: string;
  url: string;
  secrets: string[];
}

export interface WorkerOptions {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight at once to one endpoint, counted across all workers (1 while it is failing). */
  endpointConcurrency?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** Wake-up without a notification, for what becomes due by time (retries). */
  pollMs?: number;
  schedule?: number[];
  log?: (message: string, error?: unknown) => void;
  /** Told of every attempt once it is made (webhookAttemptLogger: one info line each). */
  logAttempt?: (attempt: AttemptLogEntry) => void;
}

/**
 * What an operator sees of one attempt: where it went (the endpoint and the URL's host, never its
 * path or query, which may carry a receiver's token), what came back and how long it took. Never the
 * payload, the signature or the secret.
 */
export interface AttemptLogEntry {
  deliveryId: string;
  endpointId: string;
  host: string;
  attempt: number;
  /** The receiver's HTTP status; null when no answer came (errorCode says why). */
  status: number | null;
  errorCode: string | null;
  durationMs: number;
  /** What became of the delivery: succeeded, failed (retried in nextAttemptInSeconds) or dead-letter. */
  outcome: string;
  nextAttemptInSeconds: number | null;
}

/** Every attempt as one info line of `logger` (pino's signature). */
export const webhookAttemptLogger = (logger: { info(fields: object, message: string): void }) => (attempt: AttemptLogEntry) =>
  logger.info(attempt, 'webhook delivery attempt');

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
};

export class WebhookWorker {
  private readonly concurrency: number;
  private readonly endpointConcurrency: number;
  private readonly leaseMs: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly schedule: number[];
  private readonly log: (message: string, error?: unknown) => void;
  private readonly logAttempt: (attempt: AttemptLogEntry) => void;
  private inFlight = 0;
  private running = false;
  /** Fans out what the feed holds; woken by notifications and the poll. */
  private readonly fanOut = coalesce(
    async () => {
      if (this.running && (await fanOut(this.db)) > 0) void this.pump();
    },
    { failures: new FailureRun('webhook fan-out', (message, error) => this.log(message, error)) },
  );
  /** Claims as many due deliveries as there are free slots and starts them. */
  private readonly pump = coalesce(
    async () => {
      while (this.running && this.inFlight < this.concurrency) {
        const token = randomUUID();
        const [, rows] = await this.db.transaction([
          { text: CLAIM_LOCK_SQL, values: [] },
          { text: CLAIM_SQL, values: [this.concurrency - this.inFlight, `${this.leaseMs} milliseconds`, token, this.endpointConcurrency] },
        ]);
        const claimed = rows as unknown as Claimed[];
        for (const delivery of claimed) this.track(this.attempt(delivery, token));
        if (!claimed.length) break;
      }
    },
    { failures: new FailureRun('claiming webhook deliveries', (message, error) => this.log(message, error)) },
  );
  private readonly recordFailures = new FailureRun('recording webhook attempts', (message, error) => this.log(message, error));
  private readonly stops: Array<() => Promise<void>> = [];
  private readonly attempts = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    options: WorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? setting('WEBHOOK_CONCURRENCY');
    this.endpointConcurrency = options.endpointConcurrency ?? setting('WEBHOOK_ENDPOINT_CONCURRENCY');
    if (!Number.isInteger(this.endpointConcurrency) || this.endpointConcurrency < 1) {
      throw new Error(`WEBHOOK_ENDPOINT_CONCURRENCY must be a whole number of at least 1; got ${this.endpointConcurrency}`);
    }
    this.timeoutMs = options.timeoutMs ?? setting('WEBHOOK_TIMEOUT_MS');
    // The lease must outlast an attempt, or a second worker could make it while the first still is.
    this.leaseMs = Math.max(options.leaseMs ?? setting('WEBHOOK_LEASE_MS'), this.timeoutMs + 1_000);
    this.pollMs = options.pollMs ?? 1000;
    this.schedule = options.schedule ?? retrySchedule();
    this.log = options.log ?? (() => undefined);
    this.logAttempt = options.logAttempt ?? (() => undefined);
  }

  async start(): Promise<void> {
    this.running = true;
    await startFanOut(this.db);
    this.stops.push(await onChanges(this.db, () => void this.fanOut(), this.pollMs));
    this.stops.push(await this.db.listen(DELIVERIES_CHANNEL, () => void this.pump()));
    this.timer = setInterval(() => void this.pump(), this.pollMs);
    this.timer.unref();
    // Retention of the change log (CHANGE_FEED_RETENTION_DAYS): hourly, by whichever worker runs.
    const prune = () => void pruneChanges(this.db.sql).catch((error) => this.log('pruning the change log failed', error));
    this.pruner = setInterval(prune, 3_600_000);
    this.pruner.unref();
    prune();
    void this.fanOut();
    void this.pump();
  }

  /** Stops claiming, lets attempts in flight finish and be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    this.fanOut.cancel();
    this.pump.cancel();
    for (const stop of this.stops.splice(0)) await stop().catch(() => undefined);
    while (this.attempts.size || this.pump.running || this.fanOut.running) {
      await Promise.race([...this.attempts, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  private track(attempt: Promise<void>) {
    this.inFlight++;
    this.attempts.add(attempt);
    void attempt.finally(() => {
      this.inFlight--;
      this.attempts.delete(attempt);
      void this.pump();
    });
  }

  private async attempt(delivery: Claimed, token: string): Promise<void> {
    const leaseEnds = Date.now() + this.leaseMs - LEASE_MARGIN_MS;
    const outcome = await attemptDelivery({ deliveryId: delivery.id, url: delivery.url, body: delivery.body, secrets: delivery.secrets, timeoutMs: this.timeoutMs });
    // The claim numbered the attempt (and logged it as in_progress).
    const number = delivery.attemptCount;
    const { status, delaySeconds } = this.next(outcome, number);
    this.logAttempt({
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      host: hostOf(delivery.url),
      attempt: number,
      status: outcome.responseStatus,
      errorCode: outcome.errorCode,
      durationMs: outcome.durationMs,
      outcome: status,
      nextAttemptInSeconds: status === 'failed' ? delaySeconds : null,
    });
    try {
      // While the database is away the record is tried again until shortly before the lease runs out
      // (or the worker stops): an outage shorter than that makes no attempt twice.
      const record = () => this.db.sql(RECORD_SQL, [
        delivery.id,
        number,
        outcome.startedAt.toISOString(),
        outcome.durationMs,
        outcome.responseStatus,
        outcome.errorCode,
        outcome.responseBody?.replace(/\u0000/g, '') ?? null,
        status,
        `${delaySeconds} seconds`,
        token,
        outcome.responseStatus === 410,
      ]);
      await retryWhileUnavailable(record, () => this.running && Date.now() < leaseEnds);
      this.recordFailures.succeeded();
    } catch (error) {
      // Unrecorded, the attempt stays in the log as interrupted and is made again when the lease runs out.
      this.recordFailures.failed(error);
    }
  }

  /** What becomes of the delivery after attempt `number`. */
  private next(outcome: AttemptOutcome, number: number): { status: string; delaySeconds: number } {
    if (outcome.errorCode === null) return { status: 'succeeded', delaySeconds: 0 };
    if (outcome.responseStatus === 410 || number > this.schedule.length) return { status: 'dead-letter', delaySeconds: 0 };
    const base = this.schedule[number - 1];
    if (outcome.retryAfterSeconds !== null) return { status: 'failed', delaySeconds: Math.min(outcome.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) };
    // ±20 % jitter, so that deliveries that failed together do not all come back together.
    return { status: 'failed', delaySeconds: Math.round(base * (0.8 + Math.random() * 0.4) * 1000) / 1000 };
  }
}
