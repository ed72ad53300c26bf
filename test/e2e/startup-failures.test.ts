// A process that cannot start says why in one sentence and exits 1, whatever the cause: a port in use
// or refused, a PORT or HOST that cannot be listened on, a setting it does not accept, a missing or
// weak SUBGRAPH_SECRET, a database that cannot be reached or lacks migrations. None of them hangs (the process guard does not swallow
// start-up failures) and none prints a stack trace.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, root, runScript, runToExit, saidLines } from '../support/processes.ts';

let env: Record<string, string> = {};
let cleanup = async () => undefined as void;
let blocker: net.Server;
let busyPort: number;
let scratchDir: string;
const secret = { SUBGRAPH_SECRET: 'k'.repeat(48) };
const unreachable = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/esports' };

beforeAll(async () => {
  ({ env, cleanup } = await scratchEnvironment('t_startfail'));
  scratchDir = await mkdtemp(path.join(tmpdir(), 'startfail-'));
  // A migrated database without the demo world, so that npm start (SEED_DEMO_WORLD=0) has nothing to prepare.
  const migrated = await runScript('db:migrate', [], env);
  expect(migrated.code, migrated.output).toBe(0);
  await runToExit('node', ['facade/tools/build.mjs', '--quiet'], {});
  // The busy port: held by this test on the address the servers listen on by default.
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  busyPort = (blocker.address() as net.AddressInfo).port;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => blocker?.close(resolve));
  await cleanup();
  await rm(scratchDir, { recursive: true, force: true });
  assertNoServerLeft();
});

type Command = 'start' | 'start:subgraph' | 'worker';
const npmArgs = (command: Command) => (command === 'start' ? ['start', '--silent'] : ['run', '--silent', command, ...(command === 'start:subgraph' ? ['--', 'developer'] : [])]);

/** Runs the command to its end: it must exit 1 within a minute, having said exactly one line that matches. */
async function refuses(command: Command, extraEnv: Record<string, string>, expected: RegExp) {
  const result = await runToExit('npm', npmArgs(command), { ...env, SEED_DEMO_WORLD: '0', LOG_LEVEL: 'info', ...extraEnv }, { timeoutMs: 90_000 });
  const said = saidLines(result.output);
  expect(result.code, `npm ${npmArgs(command).join(' ')} with ${JSON.stringify(extraEnv)} (killed when null):\n${result.output}`).toBe(1);
  expect(said, result.output).toHaveLength(1);
  expect(said[0]).toMatch(expected);
  expect(result.output).not.toMatch(/^\s+at /m);
  expect(result.ms).toBeLessThan(60_000);
}

describe('a server that cannot listen', () => {
  it.each(['start', 'start:subgraph'] as const)('npm %s on a port in use exits 1 naming PORT and HOST (it used to hang)', async (command) => {
    await refuses(command, { ...secret, PORT: String(busyPort) }, new RegExp(`^Cannot listen on HOST=127\\.0\\.0\\.1 PORT=${busyPort} \\(EADDRINUSE\\): the port is in use by another process; stop it or set PORT to a free port\\.$`));
  });

  it.each([
    ['start', ['abc', '65536', '1.5']],
    ['start:subgraph', ['-1', '0x10', '4000x']],
  ] as const)('npm %s refuses a PORT that is not a port, before opening anything', async (command, ports) => {
    // At once: none of them gets as far as the database.
    await Promise.all(ports.map((port) => refuses(command, { ...secret, PORT: port }, new RegExp(`^PORT must be a whole number from 0 to 65535 \\(0 picks a free port\\); it is "${port.replace('.', '\\.')}"\\.$`))));
  }, 120_000);

  it('npm start names a HOST that is not an address of this machine, and one that does not resolve', async () => {
    await refuses('start', { PORT: '0', HOST: '203.0.113.7' }, /^Cannot listen on HOST=203\.0\.113\.7 PORT=0 \(EADDRNOTAVAIL\): the address is not one of this machine’s; set HOST to one of its addresses, 127\.0\.0\.1 \(the default\) or 0\.0\.0\.0\.$/);
    await refuses('start', { PORT: '0', HOST: 'no-such-host.invalid' }, /^Cannot listen on HOST=no-such-host\.invalid PORT=0 \((ENOTFOUND|EAI_AGAIN)\): the host name (does not resolve|could not be resolved now); set HOST to an address of this machine\.$/);
  }, 120_000);

  it('npm start says a privileged port needs privileges (EACCES), run as an unprivileged user', async () => {
    // As root every port is allowed: the server runs as nobody then, on a database nobody may write.
    const asRoot = process.getuid?.() === 0;
    if (env.PGLITE_DATA_DIR) {
      await chmod(path.dirname(env.PGLITE_DATA_DIR), 0o777);
      for (const entry of await readdir(path.dirname(env.PGLITE_DATA_DIR), { recursive: true })) await chmod(path.join(path.dirname(env.PGLITE_DATA_DIR), entry), 0o777);
    }
    const result = await runToExit(process.execPath, ['node_modules/.cache/esports-platform/main.mjs'], { ...env, SEED_DEMO_WORLD: '0', PORT: '80', HOST: '127.0.0.1', HOME: scratchDir }, { timeoutMs: 90_000, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    expect(result.code, result.output).toBe(1);
    expect(saidLines(result.output)).toEqual(['Cannot listen on HOST=127.0.0.1 PORT=80 (EACCES): permission denied (ports below 1024 need privileges); set PORT to 1024 or above.']);
  }, 120_000);
});

describe('a setting that cannot be read', () => {
  it.each(['start', 'start:subgraph', 'worker'] as const)('npm %s refuses it with one sentence naming the variable, before opening the database', async (command) => {
    // The database is unreachable: a process that got as far as opening it would say so instead.
    await refuses(command, { ...secret, ...unreachable, PORT: '0', GATEWAY_MESSAGE_LIMIT: 'lots' }, /^GATEWAY_MESSAGE_LIMIT must be <messages>\/<seconds>, e\.g\. 100\/10; it is "lots"\.$/);
    await refuses(command, { ...secret, ...unreachable, PORT: '0', WEBHOOK_WORKER: 'no' }, /^WEBHOOK_WORKER must be on or off; it is "no"\.$/);
  }, 120_000);
});

describe('a distributed topology without its shared secret', () => {
  it('npm run start:subgraph refuses to start without SUBGRAPH_SECRET, or with a weak one', async () => {
    await refuses('start:subgraph', { PORT: '0', SUBGRAPH_SECRET: '' }, /^SUBGRAPH_SECRET is not set, and the developer subgraph needs it: set it to a random value of at least 32 visible ASCII characters .*openssl rand -hex 32.*\.$/);
    await refuses('start:subgraph', { PORT: '0', SUBGRAPH_SECRET: 'x'.repeat(31) }, /^SUBGRAPH_SECRET must be at least 32 visible ASCII characters .*; it is 31 characters long\.$/);
    await refuses('start:subgraph', { PORT: '0', SUBGRAPH_SECRET: `${'x'.repeat(31)} y` }, /^SUBGRAPH_SECRET must be at least 32 visible ASCII characters .*; it is 33 characters long\.$/);
  }, 120_000);

  it('npm start refuses SUBGRAPH_URLS without an address for every subgraph (the supergraph holds placeholders)', async () => {
    await refuses('start', { ...secret, PORT: '0', SUBGRAPH_URLS: 'competitions=http://127.0.0.1:9/graphql' }, /^SUBGRAPH_URLS names no address for the esports and developer subgraphs: npm start needs one for each of competitions, esports, developer\.$/);
  }, 120_000);

  it('npm start with SUBGRAPH_URLS refuses to start without SUBGRAPH_SECRET', async () => {
    await refuses('start', { PORT: '0', SUBGRAPH_URLS: 'competitions=http://127.0.0.1:9/graphql', SUBGRAPH_SECRET: '' }, /^SUBGRAPH_SECRET is not set, and a gateway with SUBGRAPH_URLS needs it: /);
  });
});

describe('a database that refuses at start', () => {
  it.each(['start:subgraph', 'worker'] as const)('npm run %s exits 1 when PostgreSQL cannot be reached', async (command) => {
    await refuses(command, { ...secret, ...unreachable, PORT: '0' }, /^Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\): is the server running, and is DATABASE_URL right\?$/);
  });

  it.each(['start:subgraph', 'worker'] as const)('npm run %s exits 1 on a database without the migrations', async (command) => {
    // One new PGlite directory for both (its initdb is the slow part), so PGlite on either pass.
    const empty = { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(scratchDir, 'empty') };
    await refuses(command, { ...secret, ...empty, PORT: '0' }, /^PGlite \(.*\) lacks \d+ of the committed migrations \(\d+_init, …\): run npm run db:migrate \(or npm start\) against it first\.$/);
  });
});

describe('the process guard during start-up', () => {
  it('turns an error that escapes before the process has started into one sentence and exit 1; after, the process carries on', async () => {
    const script = (finished: boolean, fault: string) => `
      import pino from 'pino';
      import { installProcessGuards, startupFinished } from './platform/process/process-guards.ts';
      installProcessGuards(pino({ level: 'silent' }));
      ${finished ? 'startupFinished();' : ''}
      ${fault}
      setTimeout(() => { console.log('still alive'); process.exit(0); }, 300);
    `;
    const run = (finished: boolean, fault: string) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(finished, fault)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('exit', (code) => resolve({ code, output }));
      });
    const thrown = "setTimeout(() => { throw new Error('listen EADDRINUSE, say\\nsecond line'); }, 10);";
    const rejected = "Promise.reject(new Error('nobody awaited this'));";
    expect(await run(false, thrown)).toEqual({ code: 1, output: 'Could not start: listen EADDRINUSE, say\n' });
    expect(await run(false, rejected)).toEqual({ code: 1, output: 'Could not start: nobody awaited this\n' });
    expect(await run(true, thrown)).toEqual({ code: 0, output: 'still alive\n' });
    expect(await run(true, rejected)).toEqual({ code: 0, output: 'still alive\n' });
  }, 60_000);
});
