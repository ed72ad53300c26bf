// Concurrent writes against the real server: one If-Match wins once; one Idempotency-Key has one
// effect. Runs on PGlite and, in CI, on PostgreSQL where the requests truly overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const stageCount = () => server.db.prisma.stage.count({ where: { eventId: 'evt_open' } });

describe('concurrency', () => {
  it('20 concurrent writes with the same If-Match: exactly one succeeds, the rest 412, revision +1 once', async () => {
    const revision = await revisionOf('evt_open');
    const stagesBefore = await stageCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(server.url, '/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key: uniqueKey('race'), body: { name: `Race ${i}`, format: 'swiss', bestOf: 1 } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(19);
    expect(await revisionOf('evt_open')).toBe(revision + 1);
    expect(await stageCount()).toBe(stagesBefore + 1);
    const changes = await server.db.prisma.changeLog.count({ where: { eventId: 'evt_open', revision: revision + 1 } });
    expect(changes).toBe(1);
  });

  it('20 concurrent requests with the same Idempotency-Key: one effect, the others replay it or answer 409 in use', async () => {
    const revision = await revisionOf('evt_open');
    const stagesBefore = await stageCount();
    const key = uniqueKey('same');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(server.url, '/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key, body: { name: 'Once', format: 'league', bestOf: 3 } }),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    const inUse = responses.filter((r) => r.status === 409);
    expect(created.length + inUse.length).toBe(20);
    for (const response of inUse) expect(response.body.error.details[0].issue).toBe('idempotency_key_in_use');
    expect(new Set(created.map((r) => r.body.data.resourceId)).size).toBe(1);
    expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await stageCount()).toBe(stagesBefore + 1);
    expect(await revisionOf('evt_open')).toBe(revision + 1);
  });

  it('concurrent writes to different events do not block each other\'s success', async () => {
    const [open, live] = await Promise.all([revisionOf('evt_open'), revisionOf('evt_live')]);
    const responses = await Promise.all([
      call(server.url, '/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: open, key: uniqueKey(), body: { name: 'O', format: 'swiss', bestOf: 1 } }),
      call(server.url, '/api/v2/events/evt_live/stages', { method: 'POST', ifMatch: live, key: uniqueKey(), body: { name: 'L', format: 'swiss', bestOf: 1 } }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([201, 201]);
  });
});
