// Resuming with a cursor without loss under concurrent writers: 20 writers on one event through two
// instances on one database, and a subscriber reconnecting at random moments to either. Some 10,000
// requests: in .ci/run (the `ci` project of test/vitest.config.ts), not in npm test; the rest of the
// realtime gateway is realtime.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, underLoadLimits, type TestServer } from '../support/server.ts';
import { resumeUnderWriters, RESUME_CHANGES } from '../support/realtime.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: underLoadLimits() });
});
afterAll(async () => {
  await server?.close();
});

const KEY = 'demo-org-key-0001';
const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;

describe('resuming', () => {
  // 20 writers on one event's revision: each write that lands sends the other 19 back to re-read it,
  // so the 500 changes take some 10,000 requests (two and a half minutes on two busy cores).
  it('20 writers, 500 changes, a client reconnecting at random moments to either of two instances with its last cursor: every change once, in order', async () => {
    // A second instance on the same database: its own hub follows the same feed.
    const other = await startTestServer({ db: server.db, webhookWorker: false, rateLimits: underLoadLimits() });
    const bases = [server.url, other.url];
    try {
      const { headPosition, encodeCursor } = await import('../../platform/domain/change-feed.ts');
      const start = await revisionOf('evt_live');
      const { received, errors, reconnects } = await resumeUnderWriters({
        subscribeTo: bases,
        writeTo: bases,
        apiKey: KEY,
        after: encodeCursor(await headPosition(server.db.sql)),
        revisionOf: () => revisionOf('evt_live'),
      });
      expect(errors).toEqual([]);
      expect(received).toEqual(Array.from({ length: RESUME_CHANGES }, (_, i) => start + 1 + i));
      expect(reconnects).toBeGreaterThan(3);
      const logged = await server.db.prisma.changeLog.findMany({ where: { eventId: 'evt_live', revision: { gt: start } }, orderBy: { sequence: 'asc' }, select: { revision: true } });
      expect(logged.map((row) => row.revision)).toEqual(received);
    } finally {
      await other.close();
    }
  }, 300_000);

});
