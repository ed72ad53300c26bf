// The event-write transaction's mechanics on the real database: statements sent back to back in
// one transaction, guards that abort it, and a plan that went stale being planned again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { failWith, guardFailure } from '../platform/db/guards.ts';
import { createSubgraphContext } from '../platform/domain/context.ts';
import { runEventWrite, type EventState } from '../subgraphs/competitions/events/event-write.ts';
import { LOCK_EVENT_SQL, PUBLISH_EVENT_SQL } from '../subgraphs/competitions/events/statements.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

const revisionOf = async (eventId: string) => (await db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const lock = (eventId: string, expected: number, planned: number) => ({ text: LOCK_EVENT_SQL, values: [eventId, expected, planned] });
const failureOf = async (promise: Promise<unknown>) => guardFailure(await promise.then(() => null, (error: unknown) => error));

describe('Database.transaction', () => {
  it('commits every statement, or none when one fails', async () => {
    const name = 'Renamed in a transaction';
    const failing = db.transaction([
      { text: `UPDATE "Event" SET name = $2 WHERE id = $1`, values: ['evt_open', name] },
      { text: `SELECT 1/0 AS never`, values: [] },
      { text: `UPDATE "Event" SET slug = $2 WHERE id = $1`, values: ['evt_open', 'renamed'] },
    ]);
    await expect(failing).rejects.toMatchObject({ code: '22012' });
    expect((await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).name).not.toBe(name);
    const rows = await db.transaction([{ text: `SELECT name FROM "Event" WHERE id = $1`, values: ['evt_open'] }]);
    expect(rows).toEqual([[{ name: expect.any(String) }]]);
  });

  it('a connection whose transaction failed goes back to the pool clean: 40 failures, then all succeed', async () => {
    for (let i = 0; i < 40; i++) await expect(db.transaction([{ text: 'SELECT 1/0', values: [] }])).rejects.toThrow();
    const answers = await Promise.all(Array.from({ length: 20 }, () => db.transaction([{ text: 'SELECT 1 AS one', values: [] }])));
    expect(answers.every((rows) => rows[0][0].one === 1)).toBe(true);
  });
});

describe('the event lock guard', () => {
  it('passes at the expected revision, however often the prepared statement runs (generic plans included)', async () => {
    const revision = await revisionOf('evt_open');
    for (let i = 0; i < 8; i++) expect(await db.transaction([lock('evt_open', revision, revision)])).toEqual([[{ guard: null }]]);
  });

  it('fails `revision` with the current revision, `stale` for a plan of another revision, `not_found` for no event', async () => {
    const revision = await revisionOf('evt_open');
    for (let i = 0; i < 7; i++) {
      expect(await failureOf(db.transaction([lock('evt_open', revision + 3, revision + 3)]))).toEqual({ check: 'revision', value: String(revision) });
      expect(await failureOf(db.transaction([lock('evt_open', revision, -1)]))).toEqual({ check: 'stale', value: String(revision) });
      expect(await failureOf(db.transaction([lock('evt_nowhere', 1, 1)]))).toEqual({ check: 'not_found', value: '0' });
    }
  });

  it("fails with the platform's own SQLSTATE, carrying check and value in fields, not in the message", async () => {
    const error = (await db.transaction([{ text: `SELECT ${failWith('slug_taken', "'7'")} AS guard`, values: [] }]).catch((e: unknown) => e)) as Record<string, unknown>;
    expect(error).toMatchObject({ code: 'WG001', constraint: 'slug_taken', detail: '7' });
    expect(guardFailure(error)).toEqual({ check: 'slug_taken', value: '7' });
    expect(guardFailure({ ...error, message: 'something else' })).toEqual({ check: 'slug_taken', value: '7' });
  });

  it('another error is not taken for a guard, whatever its message says', async () => {
    const error = await db.transaction([{ text: `SELECT 'write_guard:stale:3'::int`, values: [] }]).catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('22P02');
    expect(guardFailure(error)).toBeNull();
    const violation = await db.transaction([{ text: `INSERT INTO "Event" (id) VALUES ('evt_open')`, values: [] }]).catch((e: unknown) => e);
    expect(guardFailure(violation)).toBeNull();
  });

  it('a check name that could break out of its SQL literal is refused', () => {
    expect(() => failWith("x'); DROP TABLE \"Event\"; --", '1')).toThrow(/lower case/);
  });
});

describe('runEventWrite', () => {
  const context = () => createSubgraphContext(db, { requestId: 'test', authorization: 'Bearer demo-token-app', deadline: Date.now() + 10_000 });

  it('plans again when another event it also changes moved on after the plan read it', async () => {
    const other = await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' } });
    const before = { open: await revisionOf('evt_open'), live: other.revision };
    const seen: number[] = [];
    const result = await runEventWrite(context(), {
      operation: 'updateParticipant',
      eventId: 'evt_open',
      ifMatch: `"${before.open}"`,
      request: { test: 'stale plan' },
      async plan(prisma, event) {
        const live = await prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' }, select: { id: true, organisationId: true, state: true, revision: true } });
        seen.push(live.revision);
        // The first plan goes stale: evt_live moves on between the plan's read and the transaction.
        if (seen.length === 1) await db.prisma.event.update({ where: { id: 'evt_live' }, data: { revision: { increment: 1 } } });
        return {
          resourceId: event.id,
          changed: true,
          // A marker the catalogue does not declare, read back below (this database is not checked against it).
          changes: [{ type: 'event.updated', resourceType: 'event', resourceId: event.id, payload: { test: 'stale plan' } as never }],
          statements: [],
          alsoChanged: [live satisfies EventState],
        };
      },
    });
    expect(seen).toEqual([before.live, before.live + 1]);
    expect(result).toEqual({ resourceId: 'evt_open', revision: before.open + 1, updated: true, replayed: false });
    expect(await revisionOf('evt_live')).toBe(before.live + 2);
    const logged = await db.prisma.changeLog.findMany({ where: { type: 'event.updated', payload: { path: ['test'], equals: 'stale plan' } }, orderBy: { sequence: 'asc' } });
    expect(logged.map((row) => [row.eventId, row.revision])).toEqual([
      ['evt_open', before.open + 1],
      ['evt_live', before.live + 2],
    ]);
  });

  it('a failed check leaves nothing behind: neither the statements nor the key', async () => {
    const revision = await revisionOf('evt_draft');
    const key = `stale-${Date.now()}`;
    const attempt = runEventWrite(context(), {
      operation: 'publishEvent',
      eventId: 'evt_draft',
      ifMatch: `"${revision}"`,
      idempotencyKey: key,
      request: { test: 'moved on' },
      async plan(_prisma, event) {
        // Another write commits after this plan read the event: If-Match no longer holds.
        await db.prisma.event.update({ where: { id: 'evt_draft' }, data: { revision: { increment: 1 } } });
        return { resourceId: event.id, changed: true, changes: [], statements: [{ text: PUBLISH_EVENT_SQL, values: [event.id] }] };
      },
    });
    await expect(attempt).rejects.toMatchObject({ extensions: { code: 'precondition_failed' } });
    expect((await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_draft' } })).state).toBe('draft');
    expect(await db.prisma.idempotencyRecord.count({ where: { key } })).toBe(0);
  });
});
