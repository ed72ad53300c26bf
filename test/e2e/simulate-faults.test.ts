// npm run simulate through the faults of a real deployment: it plays evt_cup (--setup) against a
// server started by npm start on a PostgreSQL of the test's own, and while it plays the database is
// stopped (pg_ctl stop -m fast) and restarted, then killed (SIGKILL to the postmaster) and restarted,
// then the server itself is killed (SIGKILL) and started again on the same port. The simulator,
// which finds the server through PORT as a user's would, must say what it waits for, finish the
// tournament, create nothing twice, and never report a live match's score lower than before.
//
// Only where initdb is installed (own-postgres.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/db/database.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';
import { adminQuery, postgresBinaries, startOwnPostgres, type OwnPostgres } from '../support/own-postgres.ts';
import { assertNoServerLeft, root, startServerProcess, waitUntilGone, type ServerProcess } from '../support/processes.ts';

const bin = postgresBinaries();

let own: OwnPostgres;
let url: string;
let server: ServerProcess;
let port: string;
let simulator: ChildProcess | undefined;
let db: Database | undefined;

const startServer = (listen: string) =>
  startServerProcess({
    args: ['start', '--silent'],
    env: { DATABASE_URL: url, PORT: listen, HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });

beforeAll(async () => {
  if (!bin) return;
  own = await startOwnPostgres(bin);
  await adminQuery(own.url(), 'CREATE ROLE app LOGIN');
  await adminQuery(own.url(), 'CREATE DATABASE simulate OWNER app');
  url = `postgresql://app@${own.host}:${own.port}/simulate`;
  const seeding = openDatabase({ url });
  try {
    await applyMigrations(seeding.adapterFactory);
    await loadDemoWorld(seeding);
  } finally {
    await seeding.close();
  }
  server = await startServer('0');
  port = new URL(server.base).port;
}, 240_000);

afterAll(async () => {
  if (simulator?.exitCode === null) process.kill(-simulator.pid!, 'SIGKILL');
  await db?.close().catch(() => undefined);
  await server?.stop().catch(() => undefined);
  await own?.destroy();
  assertNoServerLeft();
}, 60_000);

describe.skipIf(!bin)('npm run simulate through outages', () => {
  it('finishes evt_cup while the database is stopped and killed and the server killed and restarted, saying what it waits for', async () => {
    let output = '';
    let exit: number | null | undefined;
    // Its own process group, so that afterAll can end npm, tsx and node together if it hangs.
    simulator = spawn('npm', ['run', '--silent', 'simulate', '--', 'evt_cup', '--setup', '--pace', '30', '--seed', '5'], {
      cwd: root,
      env: { ...process.env, PORT: port },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    simulator.stdout!.on('data', (chunk) => (output += chunk));
    simulator.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => simulator!.on('exit', (code) => resolve((exit = code))));

    const count = (pattern: RegExp) => output.split('\n').filter((line) => pattern.test(line)).length;
    const reports = () => count(/\d–\d/);
    async function until(check: () => boolean, what: string, timeoutMs = 60_000) {
      const started = Date.now();
      while (!check()) {
        if (exit !== undefined) throw new Error(`the simulator exited (${exit}) while the test waited for ${what}:\n${output}`);
        if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    // The database stopped cleanly, for long enough that the simulator waits out some Retry-Afters.
    await until(() => reports() >= 5, 'a few scores');
    let waits = count(/answered 503/);
    await own.stop('fast');
    await until(() => count(/answered 503/) > waits, 'the simulator to meet a 503');
    await pause(3_000);
    await own.start();

    // The database crashed.
    let seen = reports();
    await until(() => reports() >= seen + 5, 'scores after the database came back');
    waits = count(/answered 503/);
    await own.kill();
    await until(() => count(/answered 503/) > waits, 'the simulator to meet a 503 after the crash');
    await pause(1_000);
    await own.start();

    // The server crashed mid-run, and comes back on the same port.
    seen = reports();
    await until(() => reports() >= seen + 5, 'scores after the second restart');
    process.kill(server.pid, 'SIGKILL');
    expect(await waitUntilGone(server.pid, 10_000)).toBe(true);
    await until(() => /cannot be reached/.test(output), 'the simulator to find the server gone');
    await pause(1_000);
    server = await startServer(port);

    expect(await Promise.race([exited, pause(240_000).then(() => 'still running')]), output).toBe(0);
    expect(output).toContain('evt_cup: every stage is completed');
    // What it waited for, in a line each: the database's 503 with its Retry-After, and the server gone.
    expect(output).toMatch(/the server answered 503 \(database unavailable\): retrying \S+ \S+ in 2 s/);
    expect(output).toMatch(/the server cannot be reached \(\S+\): retrying \S+ \S+ in [\d.]+ s/);
    expect(output).toMatch(/the server answers again/);

    db = openDatabase({ url });
    const event = await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_cup' }, include: { stages: { orderBy: { position: 'asc' } } } });
    expect(event.state).toBe('completed');
    // Created once each, though creations were retried.
    expect(event.stages.map((s) => [s.format, s.status])).toEqual([
      ['swiss', 'completed'],
      ['double_elimination', 'completed'],
    ]);
    // Every live match's reports go up, never back, until it completes (corrections come after).
    const changes = await db.prisma.changeLog.findMany({ where: { eventId: 'evt_cup', type: 'match.updated' }, orderBy: [{ revision: 'asc' }, { sequence: 'asc' }] });
    const last = new Map<string, { a: number; b: number; completed: boolean }>();
    let checked = 0;
    for (const change of changes) {
      const payload = change.payload as { matchId: string; status: string; scoreA: number | null; scoreB: number | null; reportedMatchId: string };
      if (payload.reportedMatchId !== payload.matchId) continue;
      const before = last.get(payload.matchId);
      if (before?.completed) continue;
      const now = { a: payload.scoreA ?? 0, b: payload.scoreB ?? 0, completed: payload.status === 'completed' };
      if (before) {
        expect(now.a, `${payload.matchId} at revision ${change.revision}`).toBeGreaterThanOrEqual(before.a);
        expect(now.b, `${payload.matchId} at revision ${change.revision}`).toBeGreaterThanOrEqual(before.b);
        checked++;
      }
      last.set(payload.matchId, now);
    }
    expect(checked).toBeGreaterThan(100);
    // Maps were not added twice: one per map won.
    const matches = await db.prisma.match.findMany({ where: { eventId: 'evt_cup', status: 'completed', isFreeWin: false }, include: { maps: true } });
    expect(matches.length).toBeGreaterThanOrEqual(54);
    for (const match of matches) expect(match.maps.length, match.id).toBe((match.scoreA ?? 0) + (match.scoreB ?? 0));
  }, 480_000);
});
