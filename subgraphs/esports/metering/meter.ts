// Exact metering with group commit. A successful read asks for its unit and answers only once that
// unit is committed; units asked for while commits are running are written together by the next one
// (one statement, one WAL flush for all of them). A few commits may run at once, each on its own
// shard row so they never wait on each other's locks: a call waits for at most one commit to finish
// before its own starts. If a commit fails, every call waiting on it fails and none of them is
// counted: a call is metered exactly when it succeeds.
import type { SqlRunner } from '../../../platform/db/database.ts';

/** Rows a day's units are spread over (see UsageRecord.shard): concurrent batches of several processes do not queue on one row. */
export const USAGE_SHARDS = 16;
const MAX_BATCH = 1000;
/** Commits running at once; each writes its own shard (≤ USAGE_SHARDS). */
const CONCURRENT_FLUSHES = 2;

const FLUSH_SQL = `
  INSERT INTO "UsageRecord" ("applicationId", "installationId", metric, day, shard, units)
  SELECT u.app, u.inst, 'esports_calls', (now() AT TIME ZONE 'UTC')::date, $4::int, u.units
  FROM unnest($1::text[], $2::text[], $3::int[]) AS u(app, inst, units)
  ON CONFLICT ("applicationId", "installationId", metric, day, shard) DO UPDATE SET units = "UsageRecord".units + EXCLUDED.units`;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

class Meter {
  private pending = new Map<string, { app: string; inst: string; units: number }>();
  private waiters: Waiter[] = [];
  /** Shards of the commits running now; processes start at random so that they spread over all of them. */
  private readonly shardsInUse = new Set<number>();
  private nextShard = Math.floor(Math.random() * USAGE_SHARDS);

  constructor(private readonly sql: SqlRunner) {}

  record(applicationId: string, installationId: string): Promise<void> {
    const key = `${applicationId}\u0000${installationId}`;
    const entry = this.pending.get(key);
    if (entry) entry.units++;
    else this.pending.set(key, { app: applicationId, inst: installationId, units: 1 });
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // Start a commit now if one may start; otherwise the next commit to finish takes these.
    if (this.shardsInUse.size < CONCURRENT_FLUSHES) void this.flushLoop();
    return done;
  }

  private async flushLoop() {
    // Distinct shards for the commits running at once: they touch different rows.
    while (this.shardsInUse.has(this.nextShard)) this.nextShard = (this.nextShard + 1) % USAGE_SHARDS;
    const shard = this.nextShard;
    this.shardsInUse.add(shard);
    while (this.waiters.length) {
      // In key order, so that commits of other processes on the same shard lock rows in one order.
      const batch = [...this.pending.values()].sort((a, b) => (a.app === b.app ? cmp(a.inst, b.inst) : cmp(a.app, b.app)));
      const waiters = this.waiters;
      this.pending = new Map();
      this.waiters = [];
      try {
        for (let i = 0; i < batch.length; i += MAX_BATCH) {
          const part = batch.slice(i, i + MAX_BATCH);
          await this.sql(FLUSH_SQL, [part.map((u) => u.app), part.map((u) => u.inst), part.map((u) => u.units), shard]);
        }
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.shardsInUse.delete(shard);
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const meters = new WeakMap<SqlRunner, Meter>();

/** Records one esports_calls unit for (application, installation, UTC day); resolves once committed. */
export function recordUnit(sql: SqlRunner, applicationId: string, installationId: string): Promise<void> {
  let meter = meters.get(sql);
  if (!meter) {
    meter = new Meter(sql);
    meters.set(sql, meter);
  }
  return meter.record(applicationId, installationId);
}
