// Copies of the template database (each test file's database on PostgreSQL) survive a crash of the
// server: a sequence of the copy never hands out again a value it handed out before the crash. With
// PostgreSQL 15's default strategy for CREATE DATABASE (WAL_LOG) it did: the copy's sequence went back
// to the template's value and the next insert collided with a row written before the crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { adminQuery, postgresBinaries, startOwnPostgres, type OwnPostgres } from './support/own-postgres.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

const bin = postgresBinaries();

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!bin)('a database copied from a template', () => {
  let own: OwnPostgres;
  beforeAll(async () => {
    own = await startOwnPostgres(bin!);
  });
  afterAll(async () => {
    await own?.destroy();
  });

  it('keeps its sequences ahead of every value handed out before a crash', async () => {
    // A template like the tests' own: a table whose ids come from a sequence, used once (so the
    // sequence's page holds values it logged ahead of the one it handed out, as the ChangeLog's does).
    await adminQuery(own.url(), 'CREATE DATABASE template_seq');
    await adminQuery(own.url('template_seq'), "CREATE TABLE change_log (sequence bigserial PRIMARY KEY, type text); INSERT INTO change_log (type) VALUES ('seeded')");
    const copy = await createScratchDatabase(own.url(), 'copy', 'template_seq');
    const written = await query<{ sequence: string }>(copy.url, "INSERT INTO change_log (type) SELECT 'before' FROM generate_series(1, 5) RETURNING sequence");
    const highest = Math.max(...written.map((row) => Number(row.sequence)));
    // A crash: no checkpoint, what is only in memory is lost, the WAL is replayed at the next start.
    await own.stop('immediate');
    await own.start();
    const [after] = await query<{ sequence: string }>(copy.url, "INSERT INTO change_log (type) VALUES ('after') RETURNING sequence");
    expect(Number(after.sequence)).toBeGreaterThan(highest);
    await copy.drop();
  });
});
