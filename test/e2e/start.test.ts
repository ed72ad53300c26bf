// npm start on an empty database: migrations, demo world, one port, URLs and credentials printed.
// A second start on the same data keeps it and loads nothing twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase, postgresServerUrl } from '../support/scratch-database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let env: Record<string, string> = {};
let cleanup = async () => undefined as void;

beforeAll(async () => {
  const server = postgresServerUrl();
  if (server) {
    const scratch = await createScratchDatabase(server, 't_start');
    env = { DATABASE_URL: scratch.url };
    cleanup = scratch.drop;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'esports-start-'));
    env = { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup());

function start(extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string; base: string }> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(output);
      if (match && output.includes('Try:')) {
        clearTimeout(timer);
        setTimeout(() => resolve({ child, output: () => output, base: match[1] }), 100);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    // npm forwards SIGTERM to the server it started.
    child.kill('SIGTERM');
  });

describe('npm start', () => {
  it('creates the database, loads the demo world, serves the API and prints where to look', async () => {
    const first = await start();
    try {
      expect(first.output()).toContain('demo world loaded');
      for (const text of ['/api/v2', '/graphql', '/oauth/token', '/api/openapi.json', '/docs', '/healthz', 'demo-token-app', 'app_demo:demo-app-secret', 'demo-org-key-0001', 'demo-password']) {
        expect(first.output()).toContain(text);
      }
      const response = await fetch(`${first.base}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } });
      expect(response.status).toBe(200);
      expect((await response.json()).data.applicationId).toBe('app_demo');
      expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    } finally {
      await stop(first.child);
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
      await stop(second.child);
    }
  }, 240_000);
});
