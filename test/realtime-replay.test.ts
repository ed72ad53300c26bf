// A subscription that resumes with a cursor replays the change feed a page at a time
// (facade/realtime/stream.ts): a few pages are read at once in the whole process however many
// subscriptions replay together, each page is charged to its subscription's reservation once read,
// and a page the budget cannot take ends the subscription as a backlog that cannot grow does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { headPosition, type FeedPosition } from '../platform/domain/change-feed.ts';
import { ChangeHub, changeBytes } from '../facade/realtime/hub.ts';
import { ChangeStream } from '../facade/realtime/stream.ts';
import { InFlightBytes } from '../facade/graphql/document-memory.ts';
import type { Database } from '../platform/db/database.ts';

let db: TestDatabase;
let start: FeedPosition;
const CHANGES = 120;

beforeAll(async () => {
  db = await createTestDatabase();
  start = await headPosition(db.sql);
  const payload = JSON.stringify({ note: 'x'.repeat(400) });
  for (let i = 0; i < CHANGES; i++) {
    await db.sql(`INSERT INTO "ChangeLog" (id, type, "resourceType", "resourceId", payload) VALUES ($1, 'test.change', 'test', $1, $2::jsonb)`, [`chg_replay_${i}`, payload]);
  }
});
afterAll(() => db?.drop());

/** The database, counting the feed reads in flight at once. */
function countingReads(): { db: Database; mostAtOnce: () => number } {
  let now = 0;
  let most = 0;
  const sql = (async (text: string, values?: unknown[]) => {
    const feedRead = /FROM "ChangeLog"/.test(text);
    if (feedRead) most = Math.max(most, ++now);
    try {
      // Held a moment, so that reads that could overlap do.
      if (feedRead) await new Promise((resolve) => setTimeout(resolve, 20));
      return await db.sql(text, values as never);
    } finally {
      if (feedRead) now--;
    }
  }) as Database['sql'];
  return { db: { ...db, sql } as Database, mostAtOnce: () => most };
}

/** Takes everything a stream hands out until it has replayed `count` changes or ended. */
async function drain(stream: ChangeStream, count: number): Promise<number> {
  let taken = 0;
  const deadline = Date.now() + 30_000;
  while (taken < count && !stream.done && Date.now() < deadline) {
    if (stream.take()) taken++;
    else await new Promise<void>((resolve) => (stream.onReady = resolve));
  }
  return taken;
}

describe('replaying the feed', () => {
  it('60 subscriptions resuming together read at most two pages at once, each charged once read and given back once taken', async () => {
    const { db: counted, mostAtOnce } = countingReads();
    const hub = new ChangeHub(counted);
    const budget = new InFlightBytes(64 * 1024 * 1024, 64 * 1024 * 1024);
    let mostHeld = 0;
    const streams = Array.from({ length: 60 }, () => {
      const memory = budget.reserve('credential', 12 * 1024);
      if (typeof memory === 'string') throw new Error('refused');
      return new ChangeStream({ hub, db: counted, after: start, filter: () => true, maxQueued: 1000, maxQueuedBytes: 1 << 20, memory, onOverflow: () => undefined });
    });
    const watching = setInterval(() => (mostHeld = Math.max(mostHeld, budget.bytes)), 1);
    const taken = await Promise.all(streams.map((stream) => drain(stream, CHANGES)));
    clearInterval(watching);
    expect(taken).toEqual(streams.map(() => CHANGES));
    expect(mostAtOnce()).toBeGreaterThan(0);
    expect(mostAtOnce()).toBeLessThanOrEqual(2);
    // A page was held in the budget while it was being sent, and given back once taken.
    const page = CHANGES * changeBytes({ payload: { note: 'x'.repeat(400) }, cursor: 'c'.repeat(20), eventId: null, resourceId: 'chg_replay_000', type: 'test.change' } as never);
    expect(mostHeld).toBeGreaterThan(12 * 1024 + page / 2);
    expect(budget.bytes).toBe(60 * 12 * 1024);
    for (const stream of streams) stream.finish();
    expect(budget.bytes).toBe(0);
    // 60 streams read in turn two pages at a time: on a busy machine (three files at once) over a minute.
  }, 180_000);

  it('a page the budget cannot take ends the subscription as too slow and gives its reservation back', async () => {
    const hub = new ChangeHub(db);
    // Room for the subscription's share and a few changes, not for a page of them.
    const budget = new InFlightBytes(12 * 1024 + 8 * 1024, 12 * 1024 + 8 * 1024);
    const memory = budget.reserve('credential', 12 * 1024);
    if (typeof memory === 'string') throw new Error('refused');
    let overflowed = false;
    const stream = new ChangeStream({ hub, db, after: start, filter: () => true, maxQueued: 1000, maxQueuedBytes: 1 << 20, memory, onOverflow: () => (overflowed = true) });
    expect(await drain(stream, CHANGES)).toBe(0);
    expect(overflowed).toBe(true);
    expect(stream.done).toBe(true);
    expect(budget.bytes).toBe(0);
  });
});
