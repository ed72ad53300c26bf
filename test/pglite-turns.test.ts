// The embedded database runs in the server's thread: queued statements must leave the event loop a
// turn between two of them (platform/db/pglite-turns.ts), or a burst of queries holds every
// other request, /healthz included, until the last one ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../platform/db/database.ts';

let db: Database;
beforeAll(async () => {
  db = openDatabase({ url: 'memory://', dataDir: 'memory://' });
  await db.sql('CREATE TABLE heavy AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 100000) g', []);
}, 60_000);
afterAll(() => db?.close());

const heavy = () => db.sql(`SELECT count(*) FROM heavy WHERE v LIKE '%ab%'`, []);

describe('statements queued on PGlite', () => {
  it('give the event loop a turn between two: a timer fires during a burst, not after it', async () => {
    const started = performance.now();
    await heavy();
    const one = performance.now() - started;
    const lateness: number[] = [];
    let running = true;
    const ticker = (async () => {
      while (running) {
        const at = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 1));
        lateness.push(performance.now() - at);
      }
    })();
    const burst = performance.now();
    // Queries, transactions and a mix of both, all queued at once.
    await Promise.all([...Array.from({ length: 16 }, heavy), db.transaction([{ text: 'SELECT 1', values: [] }]), db.prisma.$queryRawUnsafe('SELECT 2')]);
    const total = performance.now() - burst;
    running = false;
    await ticker;
    // Without the turns the ticker waited for the whole burst (16 × one query): no tick at all.
    expect(lateness.length).toBeGreaterThan(8);
    expect(Math.max(...lateness)).toBeLessThan(Math.max(4 * one, total / 3));
  }, 60_000);
});
