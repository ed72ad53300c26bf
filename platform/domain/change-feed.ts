// The change feed: every committed change-log row exactly once, in cursor order. Webhooks, the
// realtime gateway and any later consumer read it here and nowhere else.
//
// Sequences are taken in one order and committed in another: a transaction holding sequence 10 can
// commit after one holding 11. Each row records its writing transaction (ChangeLog.xid), and the feed
// goes in (xid, sequence) order over transactions older than the oldest one still running
// (pg_snapshot_xmin): those have all committed or rolled back, and any row written later belongs to a
// newer transaction, so it sorts after every position already handed out. Writers pay one column
// default; nothing serialises them. A long transaction holds the feed back until it ends.
import { ApiError } from '../api/errors.ts';
import { setting } from '../process/config.ts';
import type { Database, SqlRunner } from '../db/database.ts';
import { iso, NOW } from '../db/sql-fragments.ts';
import { coalesce } from '../process/coalesce.ts';
import { FailureRun, type TaskLog } from '../process/failure-run.ts';

/** Where a reader stands: after the row of transaction `xid` with sequence `sequence` (decimal strings). */
export interface FeedPosition {
  xid: string;
  sequence: string;
}

export interface FeedChange {
  /** Opaque: the position right after this change. */
  cursor: string;
  position: FeedPosition;
  id: string;
  type: string;
  organisationId: string | null;
  eventId: string | null;
  resourceType: string;
  resourceId: string;
  revision: number | null;
  payload: Record<string, unknown>;
  createdAt: string;
}

export const CHANGE_FEED_CHANNEL = 'change_feed';

/** Rows whose transaction has ended, and so can no longer be joined by an earlier one. */
const SETTLED = `xid < pg_snapshot_xmin(pg_current_snapshot())`;

// A page of settled changes after a position, then at most one row standing for "committed after the
// position but not settled yet" (a transaction older than it is still open): a follower learns in the
// same statement that it must look again soon, whether or not the page had changes.
const PAGE_SQL = `
  SELECT p.xid::text AS xid, p.sequence::text AS sequence, p.waiting, id, type, "organisationId", "eventId",
         "resourceType", "resourceId", revision, payload, ${iso('"createdAt"')} AS "createdAt"
  FROM (
    (SELECT c.*, false AS waiting FROM "ChangeLog" c
     WHERE ${SETTLED} AND (c.xid, c.sequence) > ($1::xid8, $2::bigint)
     ORDER BY c.xid, c.sequence LIMIT $3)
    UNION ALL
    -- Spelt so that the index scan starts at the oldest running transaction, not at the position
    -- (a row comparison there would walk every settled row after it).
    (SELECT c.*, true AS waiting FROM "ChangeLog" c
     WHERE c.xid >= pg_snapshot_xmin(pg_current_snapshot())
       AND (c.xid > $1::xid8 OR (c.xid = $1::xid8 AND c.sequence > $2::bigint))
     ORDER BY c.xid, c.sequence LIMIT 1)
  ) p
  -- Qualified: a bare name here would order by the text columns selected under the same names,
  -- and "993" sorts after "1052".
  ORDER BY p.waiting, p.xid, p.sequence`;

const HEAD_SQL = `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid`;

const HORIZON_SQL = `SELECT xid::text AS xid, sequence::text AS sequence FROM "ChangeFeedPosition" WHERE name = 'retention'`;

/** Settled rows older than $1 go, at most $2 at a time; the retention horizon moves past the last of them. */
const PRUNE_SQL = `
  WITH gone AS (
    DELETE FROM "ChangeLog" WHERE sequence IN (
      SELECT sequence FROM "ChangeLog" WHERE "createdAt" < $1::timestamp AND ${SETTLED} LIMIT $2)
    RETURNING xid, sequence),
  last AS (SELECT xid, sequence FROM gone ORDER BY xid DESC, sequence DESC LIMIT 1),
  moved AS (
    INSERT INTO "ChangeFeedPosition" (name, xid, sequence, "updatedAt")
    SELECT 'retention', xid, sequence, ${NOW} FROM last
    ON CONFLICT (name) DO UPDATE SET xid = EXCLUDED.xid, sequence = EXCLUDED.sequence, "updatedAt" = EXCLUDED."updatedAt"
    WHERE ("ChangeFeedPosition".xid, "ChangeFeedPosition".sequence) < (EXCLUDED.xid, EXCLUDED.sequence))
  SELECT count(*)::int AS removed FROM gone`;

interface ChangeRow extends Omit<FeedChange, 'cursor' | 'position'> {
  xid: string;
  sequence: string;
}

const CURSOR_PREFIX = 'cf1.';

export function encodeCursor(position: FeedPosition): string {
  return CURSOR_PREFIX + Buffer.from(`${position.xid}.${position.sequence}`).toString('base64url');
}

const invalidCursor = (field: string) =>
  new ApiError('validation_failed', 'The cursor is not one this feed handed out.', [{ field, issue: 'invalid_cursor' }]);

/** The position of a cursor the feed handed out; anything else is a 400 naming `field`. */
export function decodeCursor(cursor: string, field = 'cursor'): FeedPosition {
  if (!cursor.startsWith(CURSOR_PREFIX) || cursor.length > 80) throw invalidCursor(field);
  const match = /^(\d{1,20})\.(\d{1,19})$/.exec(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString());
  if (!match || BigInt(match[1]) >= 2n ** 64n || BigInt(match[2]) >= 2n ** 63n) throw invalidCursor(field);
  // Canonical digits (no leading zeros), as the database writes them, so that positions compare as text.
  return { xid: BigInt(match[1]).toString(), sequence: BigInt(match[2]).toString() };
}

// Decimal digits without leading zeros: the longer is the larger, and equal lengths compare as text.
// Compared per subscriber per change, so without parsing.
const compareDigits = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export const comparePositions = (a: FeedPosition, b: FeedPosition): number =>
  Math.sign(compareDigits(a.xid, b.xid) || compareDigits(a.sequence, b.sequence));

/** The position after everything settled now: a new reader starting here sees what commits from now on. */
export async function headPosition(sql: SqlRunner): Promise<FeedPosition> {
  const [row] = await sql<{ xid: string }>(HEAD_SQL, []);
  return { xid: row.xid, sequence: '0' };
}

/** Fails with a 400 (details cursor_expired) when retention has removed changes after this position. */
export async function assertRetained(sql: SqlRunner, position: FeedPosition, field = 'cursor'): Promise<void> {
  const [horizon] = await sql<FeedPosition>(HORIZON_SQL, []);
  if (horizon && comparePositions(position, horizon) < 0) {
    throw new ApiError('validation_failed', 'Changes after this cursor are past the retention period and no longer kept.', [
      { field, issue: 'cursor_expired' },
    ]);
  }
}

const toChange = ({ xid, sequence, ...change }: ChangeRow): FeedChange => {
  const position = { xid, sequence };
  return { cursor: encodeCursor(position), position, ...change };
};

/** Up to `limit` settled changes after `after`, in cursor order. */
export async function readChanges(sql: SqlRunner, after: FeedPosition, limit = 500): Promise<FeedChange[]> {
  return (await readPage(sql, after, limit)).changes;
}

/**
 * Up to `limit` settled changes after `after`, in cursor order, and whether a change after them has committed but is not settled yet:
 * then it is handed out once the older transactions before it end, which may notify nobody.
 */
export async function readPage(sql: SqlRunner, after: FeedPosition, limit = 500): Promise<{ changes: FeedChange[]; waiting: boolean }> {
  const rows = await sql<ChangeRow & { waiting: boolean }>(PAGE_SQL, [after.xid, after.sequence, limit]);
  const waiting = rows.length > 0 && rows[rows.length - 1].waiting;
  if (waiting) rows.pop();
  return { changes: rows.map(({ waiting: _, ...row }) => toChange(row)), waiting };
}

/** Removes changes older than the retention period (CHANGE_FEED_RETENTION_DAYS, default 30). */
export async function pruneChanges(sql: SqlRunner, retentionMs = retentionPeriodMs(), batch = 10_000): Promise<number> {
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  let removed = 0;
  for (;;) {
    const [row] = await sql<{ removed: number }>(PRUNE_SQL, [cutoff, batch]);
    removed += row.removed;
    if (row.removed < batch) return removed;
  }
}

export function retentionPeriodMs(): number {
  return setting('CHANGE_FEED_RETENTION_DAYS') * 86_400_000;
}

/**
 * Calls `wake` when changes may have committed: at once on a notification, and every `pollMs` in case
 * one was missed (a listener reconnecting, or a change that settles only when an older transaction
 * ends). Returns a stop function.
 */
export async function onChanges(db: Database, wake: () => void, pollMs = 1000): Promise<() => Promise<void>> {
  const unlisten = await db.listen(CHANGE_FEED_CHANNEL, wake);
  const timer = setInterval(wake, pollMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await unlisten();
  };
}

/**
 * Follows the feed from `after`: hands every batch of changes to `consume` in order, one batch at a
 * time, and moves on only once it has returned. For readers that keep their position in memory (the
 * realtime gateway, tests); the webhook fan-out keeps its own in the database.
 */
export async function followChanges(
  db: Database,
  after: FeedPosition,
  consume: (changes: FeedChange[]) => Promise<void> | void,
  options: { pollMs?: number; batch?: number; log?: TaskLog } = {},
): Promise<{ stop(): Promise<void>; position(): FeedPosition }> {
  let position = after;
  let stopped = false;
  let retryMs = 0;
  let retry: NodeJS.Timeout | undefined;
  const batch = options.batch ?? 500;
  // A failed read (the database away) is logged once and tried again with backoff; the position moves
  // only past changes handed to `consume`, so nothing is lost or handed out twice across the outage.
  const drain = coalesce(async () => {
    for (;;) {
      if (stopped) return;
      const { changes, waiting } = await readPage(db.sql, position, batch);
      if (changes.length) {
        await consume(changes);
        position = changes[changes.length - 1].position;
      }
      if (changes.length === batch) continue;
      // Anything committed after this read notifies again. A change that has committed but waits for
      // an older transaction (perhaps one that writes no change, and so notifies nobody when it ends)
      // is looked for again in a few milliseconds rather than at the next poll, backing off while
      // that transaction stays open.
      clearTimeout(retry);
      if (waiting && !stopped) {
        retryMs = changes.length ? 2 : Math.min(Math.max(retryMs * 2, 2), 250);
        retry = setTimeout(() => void drain(), retryMs);
        retry.unref();
      } else retryMs = 0;
      return;
    }
  }, { failures: new FailureRun('reading the change feed', options.log ?? (() => undefined)) });
  const stopListening = await onChanges(db, () => void drain(), options.pollMs);
  void drain();
  return {
    position: () => position,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      drain.cancel();
      await stopListening();
    },
  };
}
