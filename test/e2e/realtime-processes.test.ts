// Two server processes (npm start) on one PostgreSQL database: a write through one reaches the
// subscribers of the other, and the resume scenario holds while the subscriber reconnects to each in
// turn. PostgreSQL only: PGlite is one process's database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { postgresServerUrl, scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { UNDER_LOAD } from '../support/server.ts';
import { openDatabase, type Database } from '../../platform/db/database.ts';
import { encodeCursor, headPosition } from '../../platform/domain/change-feed.ts';
import { call } from '../support/api.ts';
import { resumeUnderWriters, RESUME_CHANGES } from '../support/realtime.ts';

const onPostgres = Boolean(postgresServerUrl());
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let db: Database;
const servers: ServerProcess[] = [];

const start = () =>
  startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, ...UNDER_LOAD, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });

beforeAll(async () => {
  if (!onPostgres) return;
  ({ env, cleanup } = await scratchEnvironment('t_rt_procs'));
  // One after the other: the first applies the migrations and loads the demo world.
  servers.push(await start());
  servers.push(await start());
  db = openDatabase({ url: env.DATABASE_URL });
}, 240_000);

afterAll(async () => {
  if (!onPostgres) return;
  await Promise.all(servers.map((server) => server.stop()));
  await db?.close();
  await cleanup();
  assertNoServerLeft();
});

const revision = async () => {
  const [row] = await db.sql<{ revision: number }>(`SELECT revision FROM "Event" WHERE id = 'evt_live'`, []);
  return row.revision;
};

describe.skipIf(!onPostgres)('two server processes on one database', () => {
  it('delivers a write made through one process to a subscriber of the other', async () => {
    const [a, b] = servers;
    const client = createClient({ url: b.base.replace(/^http/, 'ws') + '/api/v1/gateway', webSocketImpl: WebSocket, connectionParams: { apiKey: 'demo-org-key-0001' }, retryAttempts: 0 });
    try {
      const received = new Promise<{ type: string; revision: number; match: { id: string; opponentA: { score: number } } }>((resolve, reject) => {
        client.subscribe<{ matchChanged: { type: string; revision: number; match: { id: string; opponentA: { score: number } } } }>(
          { query: 'subscription { matchChanged(eventId: "evt_live", matchId: "mtc_live_b_101") { type revision match { id opponentA { score } } } }' },
          { next: ({ data }) => resolve(data!.matchChanged), error: reject, complete: () => undefined },
        );
      });
      // The subscription is live once the server has acknowledged it; give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const response = await call(a.base, '/api/v2/events/evt_live/matches/mtc_live_b_101', { method: 'PATCH', body: { scoreA: 7 }, ifMatch: await revision() });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const message = await received;
      expect(message).toEqual({ type: 'match.updated', revision: response.body.data.revision, match: { id: 'mtc_live_b_101', opponentA: { score: 7 } } });
    } finally {
      await client.dispose();
    }
  }, 60_000);

  it('20 writers through both, a subscriber reconnecting to each in turn with its last cursor: every change once, in order', async () => {
    const bases = servers.map((server) => server.base);
    const before = await revision();
    const { received, errors, reconnects } = await resumeUnderWriters({
      subscribeTo: bases,
      writeTo: bases,
      apiKey: 'demo-org-key-0001',
      after: encodeCursor(await headPosition(db.sql)),
      revisionOf: revision,
    });
    expect(errors).toEqual([]);
    expect(received).toEqual(Array.from({ length: RESUME_CHANGES }, (_, i) => before + 1 + i));
    expect(reconnects).toBeGreaterThan(3);
    const logged = await db.sql<{ revision: number }>(`SELECT revision FROM "ChangeLog" WHERE "eventId" = 'evt_live' AND revision > $1 ORDER BY sequence`, [before]);
    expect(logged.map((row) => row.revision)).toEqual(received);
  }, 300_000);
});
