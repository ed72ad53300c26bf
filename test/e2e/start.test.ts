// npm start on an empty database: migrations, demo world, one port, URLs and credentials printed.
// A second start on the same data keeps it and loads nothing twice. npm start is the server process:
// SIGTERM to npm reaches it, requests in flight are answered, and it is gone within 10 s. Start-up
// failures are one sentence, never a stack trace.
import { spawn } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { postgresServerUrl, scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, root, startServerProcess } from '../support/processes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let env: Record<string, string> = {};
let cleanup = async () => undefined as void;
const server = postgresServerUrl();

beforeAll(async () => {
  ({ env, cleanup } = await scratchEnvironment('t_start'));
});
afterAll(async () => {
  await cleanup();
  assertNoServerLeft();
});

const start = (extraEnv: Record<string, string> = {}) =>
  startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...extraEnv },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });

/** Runs npm start to its end (for start-up failures): exit code and everything it printed. */
function runToExit(extraEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm start', () => {
  it('creates the database, loads the demo world, serves the API and prints where to look', async () => {
    const first = await start();
    try {
      expect(first.output()).toContain('demo world loaded');
      for (const text of ['/api/v2', '/graphql', '/oauth/token', '/api/openapi.json', '/docs', '/healthz', 'demo-token-app', 'app_demo:demo-app-secret', 'demo-org-key-0001', 'demo-password']) {
        expect(first.output()).toContain(text);
      }
      expect(first.output()).not.toMatch(/shared\//);
      // The banner's first links answer: the index (a page for browsers) and the REST base.
      expect(first.output()).toContain(`Start here   ${first.base}/`);
      for (const where of ['/', '/api/v2']) expect((await fetch(`${first.base}${where}`)).status, where).toBe(200);
      const response = await fetch(`${first.base}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } });
      expect(response.status).toBe(200);
      expect((await response.json()).data.applicationId).toBe('app_demo');
      expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await start({ LOG_LEVEL: 'info' });
    try {
      expect(second.output()).not.toContain('demo world loaded');
      expect(second.output()).not.toContain('applied');
      const response = await fetch(`${second.base}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-alice' } });
      expect((await response.json()).data.actor).toEqual({ type: 'user', userId: 'usr_alice' });
      // Structured JSON logs carry the request id.
      await fetch(`${second.base}/api/v2/auth/context`, { headers: { 'x-request-id': 'start-log-1' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const line = second.output().split('\n').find((l) => l.includes('"requestId":"start-log-1"'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ requestId: 'start-log-1', method: 'GET', route: '/api/v2/auth/context', status: 401 });
    } finally {
      await second.stop();
    }
  }, 240_000);

  it('prints no demo credentials for a database without the demo world (SEED_DEMO_WORLD=0)', async () => {
    const bare = await scratchEnvironment('t_start_bare');
    const running = await start({ ...bare.env, SEED_DEMO_WORLD: '0' });
    try {
      expect(running.output()).not.toContain('demo world loaded');
      for (const text of ['demo-token-app', 'demo-app-secret', 'demo-org-key-0001', 'demo-password']) expect(running.output(), text).not.toContain(text);
      expect(running.output()).toContain(`${running.base}/oauth/token`);
      expect((await (await fetch(`${running.base}/api/v2`)).json()).data.demoWorld).toBeNull();
    } finally {
      await running.stop();
      await bare.cleanup();
    }
  }, 180_000);

  it('refuses an in-memory database (PGLITE_DATA_DIR=memory://) in one sentence, naming what to do instead', async () => {
    const { code, output } = await runToExit({ DATABASE_URL: '', PGLITE_DATA_DIR: 'memory://' });
    expect(code).not.toBe(0);
    expect(output).toContain('PGLITE_DATA_DIR=memory:// is not a directory');
    expect(output).not.toMatch(/\n\s+at /);
    expect(output.trim().split('\n').filter((line) => line.trim() && !line.startsWith('npm ')).length).toBe(1);
  }, 60_000);

  it('is the server process: SIGTERM to npm drains the request in flight and exits within 10 s', async () => {
    // As deployed (NODE_ENV is not test), so that nothing but the platform reacts to the signal.
    const running = await start({ NODE_ENV: 'production' });
    const { port } = new URL(running.base);
    // A request whose body is still arriving when the signal comes.
    // The client half-closes its side once the body is out, and the answer waits on I/O (the token).
    const body = JSON.stringify({ query: '{ __typename }' });
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.write(`POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token-app\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = running.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.end(body.slice(5));
    const { exitMs } = await stopped;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"__typename":"Query"');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(exitMs).toBeLessThan(10_000);
  }, 180_000);

  it('says in one line what is wrong when PostgreSQL cannot be reached, without a stack trace', async () => {
    // Port 1 on loopback: nothing listens there.
    const { code, output } = await runToExit({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/esports' });
    expect(code).toBe(1);
    expect(output).toContain('Cannot reach PostgreSQL at 127.0.0.1:1');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output.trim().split('\n').filter((line) => line.trim() && !line.startsWith('npm ')).length).toBe(1);
  }, 120_000);

  // On the PostgreSQL pass only: a database named in DATABASE_URL that does not exist yet is created.
  it.each(server ? [server] : [])('creates a PostgreSQL database that does not exist yet', async (serverUrl) => {
    const url = new URL(serverUrl);
    const name = `t_created_${process.pid}_${Date.now()}`;
    url.pathname = `/${name}`;
    const running = await start({ DATABASE_URL: url.toString() });
    try {
      expect(running.output()).toContain('demo world loaded');
      expect((await fetch(`${running.base}/readyz`)).status).toBe(200);
    } finally {
      await running.stop();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 180_000);
});
