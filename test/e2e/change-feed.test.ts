// The change feed (platform/domain/change-feed.ts) against the real server: 32 writers mixing the
// nine event writes while a reader follows the feed; a transaction that takes a lower sequence and
// commits late is not skipped; cursors are opaque, checked, and expire with retention.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertRetained,
  decodeCursor,
  encodeCursor,
  followChanges,
  headPosition,
  pruneChanges,
  readChanges,
  type FeedChange,
  type FeedPosition,
} from '../../platform/domain/change-feed.ts';
import { NOTIFY_CHANGES } from '../../platform/domain/change-log.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { postgresServerUrl } from '../support/scratch-database.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;

/** The nine writes, each repeatable (a repeat that changes nothing simply writes no change). */
function write(kind: number, n: number): { eventId: string; method: string; path: string; body?: unknown } {
  switch (kind % 9) {
    case 0:
      return { eventId: 'evt_open', method: 'POST', path: '/api/v2/events/evt_open/stages', body: { name: `Feed ${n}`, format: 'swiss', bestOf: 1 } };
    case 1:
      return { eventId: 'evt_open', method: 'PATCH', path: '/api/v2/events/evt_open/settings/veto', body: { configurations: [n % 2 ? { bestOf: 1, steps: [] } : { bestOf: 3, steps: [{ action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] }] } };
    case 2:
      return { eventId: 'evt_open', method: 'POST', path: '/api/v2/events/evt_open/standing-adjustments', body: { participantId: 'par_alpha', stageId: 'stg_open_groups', points: 1 } };
    case 3:
      return { eventId: 'evt_open', method: 'PATCH', path: '/api/v2/events/evt_open/participants/par_bravo', body: { action: 'status', status: n % 2 ? 'checked_in' : 'registered' } };
    case 4:
      return { eventId: 'evt_open', method: 'PUT', path: '/api/v2/events/evt_open/participants/par_bravo/lineup', body: { operation: 'set_role', userId: 'usr_carol', role: n % 2 ? 'captain' : 'player', scope: 'event' } };
    case 5:
      return { eventId: 'evt_open', method: 'PUT', path: '/api/v2/events/evt_open/playdays/pd_open_1/staff', body: { staff: [{ userId: 'usr_erin', role: n % 2 ? 'caster' : 'observer' }] } };
    case 6:
      return { eventId: 'evt_live', method: 'POST', path: '/api/v2/events/evt_live/stages', body: { name: `Live ${n}`, format: 'swiss', bestOf: 1 } };
    case 7:
      return n % 4 === 3
        ? { eventId: 'evt_draft', method: 'POST', path: '/api/v2/events/evt_draft/publish' }
        : { eventId: 'evt_draft', method: 'POST', path: '/api/v2/events/evt_draft/stages', body: { name: `Draft ${n}`, format: 'league', bestOf: 3 } };
    default:
      return { eventId: 'evt_rival', method: 'POST', path: '/api/v2/events/evt_rival/invitations', body: { teamId: 'team_delta' } };
  }
}

/** One write, sent again at the event's new revision while another writer got there first (412). */
async function send(kind: number, n: number): Promise<number> {
  const request = write(kind, n);
  const token = request.eventId === 'evt_rival' ? 'demo-token-noesports' : 'demo-token-app';
  for (let attempt = 0; attempt < 200; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    const response = await call(server.url, request.path, { method: request.method, token, ifMatch: await revisionOf(request.eventId), key: uniqueKey('feed'), body: request.body });
    if (response.status !== 412) return response.status;
  }
  return 412;
}

const tableAfter = async (after: FeedPosition) =>
  (
    await server.db.query(`SELECT id FROM "ChangeLog" WHERE (xid, sequence) > ($1::xid8, $2::bigint) ORDER BY xid, sequence`, [after.xid, after.sequence])
  ).rows.map((row) => row.id as string);

describe('change feed', () => {
  // Its writes queue on one event's lock: 40 s on a busy machine running one file at a time, past
  // 60 s beside two other files.
  it('32 concurrent writers mixing the nine writes: a following reader sees every row exactly once, in cursor order', async () => {
    const start = await headPosition(server.db.sql);
    const seen: FeedChange[] = [];
    const follower = await followChanges(server.db, start, (changes) => void seen.push(...changes), { pollMs: 200, batch: 7 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 32 }, async (_, writer) => {
          const results: number[] = [];
          for (let n = 0; n < 6; n++) results.push(await send(writer + n, n + writer * 6));
          return results;
        }),
      );
      const all = statuses.flat();
      expect(all.filter((status) => status >= 500 || status === 400 || status === 412)).toEqual([]);
      expect(all.filter((status) => status === 200 || status === 201).length).toBeGreaterThan(100);
      const expected = await tableAfter(start);
      // Repeated writes that change nothing add no row; most writes do.
      expect(expected.length).toBeGreaterThan(64);
      const deadline = Date.now() + 20_000;
      while (seen.length < expected.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen.map((change) => change.id)).toEqual(expected);
      // Cursors strictly increase and decode to the positions they stand for.
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [decodeCursor(seen[i - 1].cursor), decodeCursor(seen[i].cursor)];
        expect(BigInt(a.xid) < BigInt(b.xid) || (a.xid === b.xid && BigInt(a.sequence) < BigInt(b.sequence))).toBe(true);
      }
      const kinds = new Set(seen.map((change) => change.type));
      for (const type of ['stage.created', 'veto.updated', 'standing.adjusted', 'participant.updated', 'lineup.updated', 'playday.staff_updated', 'event.published', 'invitation.created']) {
        expect(kinds).toContain(type);
      }
    } finally {
      await follower.stop();
    }
  }, 180_000);

  it('orders transaction ids as numbers across a change in their number of digits', async () => {
    // Two settled rows whose transaction ids read "99" and "100": as text "100" sorts first.
    await server.db.sql(
      `INSERT INTO "ChangeLog" (id, xid, type, "resourceType", "resourceId", payload) VALUES
         ('chg_digits_b', '100'::xid8, 'maps.updated', 'maps', 'maps', '{}'), ('chg_digits_a', '99'::xid8, 'maps.updated', 'maps', 'maps', '{}')`,
      [],
    );
    try {
      const first = await readChanges(server.db.sql, { xid: '0', sequence: '0' }, 1);
      expect(first.map((c) => c.id)).toEqual(['chg_digits_a']);
      const next = await readChanges(server.db.sql, first[0].position, 1);
      expect(next.map((c) => c.id)).toEqual(['chg_digits_b']);
      expect((await readChanges(server.db.sql, next[0].position, 500)).map((c) => c.id)).not.toContain('chg_digits_a');
    } finally {
      await server.db.sql(`DELETE FROM "ChangeLog" WHERE id IN ('chg_digits_a', 'chg_digits_b')`, []);
    }
  });

  it('a participant deletion is in the feed too', async () => {
    const start = await headPosition(server.db.sql);
    const response = await call(server.url, '/api/v2/events/evt_open/participants/par_charlie', { method: 'DELETE', ifMatch: await revisionOf('evt_open'), key: uniqueKey() });
    expect(response.status).toBe(200);
    const changes = await readChanges(server.db.sql, start);
    expect(changes.map((change) => change.type)).toEqual(['participant.deleted']);
    expect(changes[0]).toMatchObject({ eventId: 'evt_open', organisationId: 'org_demo', resourceType: 'participant', resourceId: 'par_charlie' });
  });

  // PGlite has one session: two transactions cannot overlap there.
  it.skipIf(!postgresServerUrl())('does not skip a change that took a lower sequence and committed after a higher one', async () => {
    const start = await headPosition(server.db.sql);
    const connect = async () => {
      const client = new pg.Client({ connectionString: server.db.url });
      await client.connect();
      return client;
    };
    const [early, late] = await Promise.all([connect(), connect()]);
    const insert = (client: pg.Client, id: string) =>
      client.query(`INSERT INTO "ChangeLog" (id, type, "resourceType", "resourceId", payload) VALUES ($1, 'test.change', 'test', $1, '{}') RETURNING sequence::text`, [id]);
    try {
      await early.query('BEGIN');
      const first = (await insert(early, `chg_early_${Date.now()}`)).rows[0].sequence;
      const second = (await insert(late, `chg_late_${Date.now()}`)).rows[0].sequence; // commits at once
      expect(BigInt(first) < BigInt(second)).toBe(true);
      // The higher sequence has committed, but the reader waits for the transaction before it.
      expect(await readChanges(server.db.sql, start)).toEqual([]);
      await early.query('COMMIT');
      const ids = (await readChanges(server.db.sql, start)).map((change) => change.id);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toMatch(/^chg_early_/);
      expect(ids[1]).toMatch(/^chg_late_/);
    } finally {
      await Promise.all([early.end(), late.end()]);
    }
  });

  // A read that hands out one change while the next waits for an older transaction: that transaction
  // writes no change, so nobody notifies when it ends; the follower must look again by itself, not at
  // its next poll (a minute here).
  it.skipIf(!postgresServerUrl())('hands out a change held back by a transaction that notifies nobody as soon as it ends, not at the next poll', async () => {
    const start = await headPosition(server.db.sql);
    const seen: string[] = [];
    const follower = await followChanges(server.db, start, (changes) => void seen.push(...changes.map((c) => c.id)), { pollMs: 60_000 });
    const connect = async () => {
      const client = new pg.Client({ connectionString: server.db.url });
      await client.connect();
      return client;
    };
    const [holder, writer] = await Promise.all([connect(), connect()]);
    const insert = `INSERT INTO "ChangeLog" (id, type, "resourceType", "resourceId", payload) VALUES ($1, 'test.change', 'test', $1, '{}')`;
    const [settled, held] = [`chg_settled_${Date.now()}`, `chg_held_${Date.now()}`];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the follower's first read is done
      await writer.query(insert, [settled]); // settled from the start; notifies nobody yet
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()'); // an older transaction id, and no change
      await writer.query('BEGIN');
      await writer.query(insert, [held]);
      await writer.query(NOTIFY_CHANGES.text);
      await writer.query('COMMIT'); // wakes the follower: it finds the first change, the second waits
      for (let i = 0; i < 100 && !seen.includes(settled); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([settled]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('COMMIT');
      const ended = Date.now();
      while (!seen.includes(held) && Date.now() - ended < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).toEqual([settled, held]);
      expect(Date.now() - ended).toBeLessThan(1_000);
    } finally {
      await follower.stop();
      await Promise.all([holder.end(), writer.end()]);
      await server.db.sql(`DELETE FROM "ChangeLog" WHERE id IN ($1, $2)`, [settled, held]);
    }
  });

  it('cursors are opaque and checked; a cursor past retention is an explicit error', async () => {
    for (const bad of ['', 'abc', 'cf1.', `cf1.${Buffer.from('1.x').toString('base64url')}`, `cf1.${Buffer.from(`${2n ** 64n}.1`).toString('base64url')}`]) {
      expect(() => decodeCursor(bad)).toThrow(/cursor/);
    }
    const position = { xid: '123', sequence: '45' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);

    const before = await headPosition(server.db.sql);
    await assertRetained(server.db.sql, before);
    // Retention of 0: every settled change is removed and the horizon passes every earlier cursor.
    const removed = await pruneChanges(server.db.sql, 0);
    expect(removed).toBeGreaterThan(0);
    await expect(assertRetained(server.db.sql, { xid: '1', sequence: '0' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'cursor', issue: 'cursor_expired' }] });
    await assertRetained(server.db.sql, await headPosition(server.db.sql));
  });
});
