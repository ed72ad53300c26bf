// Nothing is exposed by default: npm start and npm run start:subgraph listen on 127.0.0.1 unless HOST
// says otherwise, and a server holding the demo world (whose credentials are published) that HOST
// opens to other machines says so in its startup output. A subgraph answers only with the secret.
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, runScript, startServerProcess, type ServerProcess } from '../support/processes.ts';

let env: Record<string, string> = {};
let cleanup = async () => undefined as void;
const secret = 'e'.repeat(64);

beforeAll(async () => {
  ({ env, cleanup } = await scratchEnvironment('t_exposure'));
  // The demo world, as npm start would load it.
  const seeded = await runScript('db:seed', [], env);
  expect(seeded.code, seeded.output).toBe(0);
}, 180_000);
afterAll(async () => {
  await cleanup();
  assertNoServerLeft();
});

/** Addresses of this machine other than 127.0.0.1: its network interfaces' IPv4 ones, and 127.0.0.2 (loopback, but not the address bound). */
const otherAddresses = () => [
  ...Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry!.address),
  '127.0.0.2',
];

const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

const WARNING = /^Warning: HOST=0\.0\.0\.0 lets other machines reach this server, and its database holds the demo world, whose tokens, client secrets, API keys and password are published \(docs\/demo-world\.md\): anyone who reaches it can use them; listen on 127\.0\.0\.1 \(leave HOST unset\) or use a database without the demo world \(SEED_DEMO_WORLD=0 on a new one\)\.$/m;

/** Waits (at most 10 s) until the server's output matches: stderr may arrive after the banner on stdout. */
async function waitForOutput(server: ServerProcess, pattern: RegExp): Promise<void> {
  const until = Date.now() + 10_000;
  while (!pattern.test(server.output()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(server.output()).toMatch(pattern);
}

async function withServer<T>(running: Promise<ServerProcess>, work: (server: ServerProcess, port: number) => Promise<T>): Promise<T> {
  const server = await running;
  try {
    return await work(server, Number(new URL(server.base).port));
  } finally {
    await server.stop();
  }
}

describe('npm start', () => {
  const start = (extra: Record<string, string>) =>
    startServerProcess({ args: ['start', '--silent'], env: { ...env, PORT: '0', HOST: '', LOG_LEVEL: 'silent', ...extra }, ready: /GraphQL\s+(http:\/\/\S+)\/graphql/ });

  it('listens on 127.0.0.1 by default and says so; the quick start URL (localhost) works', async () => {
    await withServer(start({}), async (server, port) => {
      expect(server.base).toBe(`http://localhost:${port}`);
      expect(server.output()).toContain(`Listening on 127.0.0.1:${port}, this machine only (set HOST, e.g. HOST=0.0.0.0, to accept other machines).`);
      const response = await fetch(`${server.base}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } });
      expect(response.status).toBe(200);
      expect(await connects('127.0.0.1', port)).toBe(true);
      for (const address of otherAddresses()) expect(await connects(address, port), address).toBe(false);
      expect(server.output()).not.toMatch(/Warning/);
    });
  }, 180_000);

  it('listens where HOST says, and warns when that opens the demo world to other machines', async () => {
    await withServer(start({ HOST: '0.0.0.0' }), async (server, port) => {
      expect(server.output()).toContain(`Listening on 0.0.0.0:${port} (HOST): other machines can reach it.`);
      await waitForOutput(server, WARNING);
      for (const address of otherAddresses()) expect(await connects(address, port), address).toBe(true);
    });
  }, 180_000);

  it('does not warn for a database without the demo world', async () => {
    const bare = await scratchEnvironment('t_exposure_bare');
    try {
      await withServer(
        startServerProcess({ args: ['start', '--silent'], env: { ...bare.env, PORT: '0', HOST: '0.0.0.0', SEED_DEMO_WORLD: '0', LOG_LEVEL: 'silent' }, ready: /GraphQL\s+(http:\/\/\S+)\/graphql/ }),
        async (server) => {
          // The warning would be written with the banner, decided before it: a second is ample for stderr.
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          expect(server.output()).toContain('(HOST): other machines can reach it.');
          expect(server.output()).not.toMatch(/Warning/);
        },
      );
    } finally {
      await bare.cleanup();
    }
  }, 180_000);
});

describe('npm run start:subgraph', () => {
  const startSubgraph = (extra: Record<string, string>) =>
    startServerProcess({
      args: ['run', '--silent', 'start:subgraph', '--', 'competitions'],
      env: { ...env, PORT: '0', HOST: '', LOG_LEVEL: 'silent', SUBGRAPH_SECRET: secret, ...extra },
      ready: /serves (http:\/\/\S+)\/graphql/,
      timeoutMs: 90_000,
    });

  it('listens on 127.0.0.1 by default; with HOST=0.0.0.0 and the demo world it warns', async () => {
    await withServer(startSubgraph({}), async (server, port) => {
      expect(server.base).toBe(`http://127.0.0.1:${port}`);
      for (const address of otherAddresses()) expect(await connects(address, port), address).toBe(false);
      expect(server.output()).not.toMatch(/Warning/);
    });
    await withServer(startSubgraph({ HOST: '0.0.0.0' }), async (server) => {
      await waitForOutput(server, WARNING);
    });
  }, 180_000);
});
