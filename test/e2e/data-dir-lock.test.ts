// The embedded database's directory has one process at a time (platform/db/data-dir-lock.ts).
// While npm start runs on a PGlite directory, every other command that opens it refuses in one
// sentence naming the server, exits 1 and changes nothing: the server goes on answering what it
// wrote, and the directory opens fine after it stops. npm start keeps the lock through the turn of
// its migration child; a lock left by a killed server, or naming a pid that now belongs to another
// program, is taken over. About PGlite alone, so it runs on a PGlite directory on both passes.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoServerLeft, isAlive, root, runToExit, saidLines, startServerProcess, waitUntilGone, type ServerProcess } from '../support/processes.ts';
import { call, uniqueKey } from '../support/api.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { LOCK_FILE, processStartOf, RENEWAL_MS } from '../../platform/db/data-dir-lock.ts';

let dir: string;
let dataDir: string;
let lockPath: string;
let env: Record<string, string>;
let server: ServerProcess | undefined;
/** Refusals seen while the first server was starting (its migration child's turn included). */
const duringStart: { code: number | null; said: string[] }[] = [];

const start = () =>
  startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, PORT: '0', LOG_LEVEL: 'silent' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
    timeoutMs: 180_000,
  });

const refusal = (pid: number, command = 'npm start') =>
  new RegExp(`^The embedded database in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by process ${pid} \\(${command}, since [0-9TZ:.-]+\\): PGlite lets one process open it at a time, so stop that process first or set PGLITE_DATA_DIR to another directory\\.$`);

/** Adds a stage to evt_open through the server; answers the event's revision after it. */
async function addStage(base: string, name: string): Promise<{ revision: number }> {
  const event = await call(base, '/api/v2/events/evt_open');
  const created = await call(base, '/api/v2/events/evt_open/stages', {
    method: 'POST',
    ifMatch: event.body.data.revision,
    key: uniqueKey('lock'),
    body: { name, format: 'single_elimination', bestOf: 3, startsAt: '2026-12-01T18:00:00Z' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { revision: created.body.data.revision };
}

/** What a lock records of its directory: its device and inode. */
const directoryId = (dir: string) => {
  const stats = statSync(dir);
  return `${stats.dev}:${stats.ino}`;
};

const lockHolder = async () => JSON.parse(await readFile(lockPath, 'utf8')) as { pid: number; command: string; processStart: string | null; token: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lock-'));
  dataDir = path.join(dir, 'pglite');
  lockPath = path.join(dataDir, LOCK_FILE);
  env = { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir, SUBGRAPH_SECRET: 's'.repeat(40) };
  await runToExit('node', ['facade/tools/build.mjs', '--quiet'], {});
  // A new directory: npm start takes the lock, then hands the directory to its migration child for
  // initdb, the migrations and the demo world. Meanwhile another process tries to open it again and
  // again (migrate.mjs straight, the quickest): each must be refused, the child's turn included.
  const starting = start();
  let up = false;
  void starting.then(
    () => (up = true),
    () => (up = true),
  );
  while (!existsSync(lockPath) && !up) await new Promise((resolve) => setTimeout(resolve, 10));
  while (!up) {
    const attempt = await runToExit('node', ['node_modules/.cache/esports-platform/migrate.mjs'], env, { timeoutMs: 60_000 });
    duringStart.push({ code: attempt.code, said: saidLines(attempt.output) });
  }
  server = await starting;
}, 240_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  assertNoServerLeft();
});

describe('the PGlite directory lock', () => {
  it('holds from npm start\'s first moment through its migration child\'s turn: every attempt meanwhile was refused', async () => {
    expect(duringStart.length).toBeGreaterThanOrEqual(2);
    for (const attempt of duringStart) {
      expect(attempt.code, attempt.said.join('\n')).toBe(1);
      expect(attempt.said).toHaveLength(1);
      expect(attempt.said[0]).toMatch(refusal(server!.pid));
    }
    expect(server!.output()).toContain('demo world loaded');
    expect(await lockHolder()).toMatchObject({ pid: server!.pid, command: 'npm start' });
  });

  it('refuses every other command while npm start runs, in one sentence naming it, and changes nothing', async () => {
    const base = server!.base;
    const before = await addStage(base, 'Written before the others tried');

    const mapsFile = path.join(dir, 'maps.json');
    await writeFile(mapsFile, JSON.stringify({ maps: [{ id: 'map_vertigo', name: 'Vertigo' }] }));
    const npm = (...args: string[]) => ['npm', args] as const;
    const commands = [
      npm('start', '--silent'),
      npm('run', '--silent', 'db:migrate'),
      npm('run', '--silent', 'db:seed'),
      npm('run', '--silent', 'db:reset'),
      npm('run', '--silent', 'esports:import', '--', path.join(root, 'prisma/seed/esports-demo.json')),
      npm('run', '--silent', 'maps:import', '--', mapsFile),
      npm('run', '--silent', 'worker'),
      npm('run', '--silent', 'start:subgraph', '--', 'competitions'),
    ];
    // All at once, as a flood of them would come.
    const results = await Promise.all(commands.map(([command, args]) => runToExit(command, [...args], { ...env, PORT: '0' }, { timeoutMs: 120_000 })));
    results.forEach((result, index) => {
      const said = saidLines(result.output);
      expect(result.code, `${commands[index][1].join(' ')}:\n${result.output}`).toBe(1);
      expect(said, commands[index][1].join(' ')).toHaveLength(1);
      expect(said[0]).toMatch(refusal(server!.pid));
    });

    // The server answers as before and writes on; that nothing else wrote shows once it has stopped.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await call(base, '/api/v2/events/evt_open')).body.data.revision).toBe(before.revision);
    await addStage(base, 'Written after');
    expect((await call(base, '/api/v2/auth/context')).body.data.applicationId).toBe('app_demo');
    expect((await lockHolder()).pid).toBe(server!.pid);

    // The holder renews its lock (a process of another host sharing the volume sees it held).
    const renewedBefore = statSync(lockPath).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, RENEWAL_MS * 2 + 500));
    expect(statSync(lockPath).mtimeMs).toBeGreaterThan(renewedBefore);
  }, 240_000);

  it('is gone when the server stops, and the directory opens with everything the server wrote', async () => {
    await server!.stop();
    server = undefined;
    expect(existsSync(lockPath)).toBe(false);
    const db = openDatabase({ url: '', dataDir });
    try {
      // This process holds it while the database is open.
      expect((await lockHolder()).pid).toBe(process.pid);
      // Both stages the server added, and nothing of the refused commands: no reset, no import.
      const stages = await db.prisma.stage.findMany({ where: { eventId: 'evt_open', name: { startsWith: 'Written' } }, orderBy: { name: 'asc' } });
      expect(stages.map((stage) => stage.name)).toEqual(['Written after', 'Written before the others tried']);
      expect(await db.prisma.map.count({ where: { id: 'map_vertigo' } })).toBe(0);
    } finally {
      await db.close();
    }
    expect(existsSync(lockPath)).toBe(false);
  }, 60_000);

  it('takes over the lock of a server killed with SIGKILL', async () => {
    const killed = await start();
    process.kill(killed.pid, 'SIGKILL');
    expect(await waitUntilGone(killed.pid, 10_000)).toBe(true);
    await killed.stop().catch(() => undefined);
    expect((await lockHolder()).pid).toBe(killed.pid);
    server = await start();
    expect((await lockHolder()).pid).toBe(server.pid);
    expect((await call(server.base, '/api/v2/events/evt_open')).status).toBe(200);
    expect((await call(server.base, '/api/v2/auth/context')).body.data.applicationId).toBe('app_demo');
    await server.stop();
    server = undefined;
  }, 240_000);

  it('takes over a lock whose pid now belongs to another program, and respects one whose holder still runs', async () => {
    // A live process that is not the holder the lock names (its start time differs): the pid was reused.
    const realDir = realpathSync(dataDir);
    const here = hostname();
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      const pid = other.pid!;
      const lock = (processStart: string | null, where: { dir?: string; dirId?: string } = { dir: realDir, dirId: directoryId(realDir) }, host = here) =>
        writeFile(lockPath, JSON.stringify({ ...where, pid, command: 'npm start', startedAt: '2026-01-01T00:00:00.000Z', processStart, host, token: 'old' }));
      const migrate = () => runToExit('node', ['node_modules/.cache/esports-platform/migrate.mjs'], env, { timeoutMs: 120_000 });
      const refusedBy = async (pattern: RegExp) => {
        const refused = await migrate();
        expect(refused.code, refused.output).toBe(1);
        expect(saidLines(refused.output)).toEqual([expect.stringMatching(pattern)]);
      };
      const takenOver = async () => {
        const taken = await migrate();
        expect(taken.code, taken.output).toBe(0);
        expect(taken.output).toContain('is up to date');
        expect(await readdir(dataDir)).not.toContain(LOCK_FILE);
      };

      // Its real start time: that process is the holder, and it is alive.
      expect(processStartOf(pid)).not.toBeNull();
      await lock(processStartOf(pid));
      await refusedBy(new RegExp(`in use by process ${pid} \\(npm start, since 2026-01-01T00:00:00.000Z\\)`));
      expect(isAlive(pid)).toBe(true);

      // The same directory under another path (renamed since, or a bind mount): its device and inode tell.
      await lock(processStartOf(pid), { dir: '/where/it/was/before/pglite', dirId: directoryId(realDir) });
      await refusedBy(new RegExp(`in use by process ${pid} \\(npm start`));

      // Another start time: the pid was reused, the lock is stale.
      await lock('proc:1');
      await takenOver();

      // The live holder's lock, but of another directory: copied along with its files, it locks nothing here.
      await lock(processStartOf(pid), { dir: '/somewhere/else/pglite', dirId: '1:2' });
      await takenOver();
      // An earlier version's lock, with the path alone.
      await lock(processStartOf(pid), { dir: '/somewhere/else/pglite' });
      await takenOver();

      // Another host's (a container sharing the volume): its pid means nothing here, its renewal does.
      await lock(null, undefined, 'elsewhere');
      await refusedBy(new RegExp(`in use by process ${pid} on elsewhere \\(npm start, since 2026-01-01T00:00:00.000Z\\) \\(another host's lock holds while it is renewed: 30 s after its process stops, it is taken over\\)`));
      const old = new Date(Date.now() - 31_000);
      await utimes(lockPath, old, old);
      await takenOver();

      // A pid that runs no process at all (a lock of an earlier version, without its directory).
      other.kill('SIGKILL');
      expect(await waitUntilGone(pid, 5_000)).toBe(true);
      await writeFile(lockPath, JSON.stringify({ pid, command: 'npm start', startedAt: '2026-01-01T00:00:00.000Z', processStart: null, host: here, token: 'old' }));
      await takenOver();
    } finally {
      other.kill('SIGKILL');
    }
  }, 240_000);

  it('never reads a lock path that is not a small file, takes over garbage, and clears what a killed process left', async () => {
    const migrate = () => runToExit('node', ['node_modules/.cache/esports-platform/migrate.mjs'], env, { timeoutMs: 120_000 });
    // A directory or a named pipe where the lock goes: refused at once, saying what it is (a pipe would block a read for ever).
    await mkdir(lockPath);
    let result = await migrate();
    expect(result.code, result.output).toBe(1);
    expect(saidLines(result.output)).toEqual([`Could not lock the embedded database in ${realpathSync(dataDir)}: ${realpathSync(dataDir)}/${LOCK_FILE} is not a lock file (it is a directory); remove it if no process uses the directory.`]);
    await rm(lockPath, { recursive: true });
    await runToExit('mkfifo', [lockPath], {});
    result = await migrate();
    expect(result.code, result.output).toBe(1);
    expect(saidLines(result.output)[0]).toContain('is not a lock file (it is a named pipe)');
    await rm(lockPath);

    // 20 MB of garbage, dated an hour ahead: not read, not waited for, taken over.
    await writeFile(lockPath, Buffer.alloc(20 * 1024 * 1024, 'x'));
    const ahead = new Date(Date.now() + 3_600_000);
    await utimes(lockPath, ahead, ahead);
    // A takeover guard a live process has held for longer than a takeover ever takes, and a temporary
    // file of a process killed while creating its lock.
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      await writeFile(`${lockPath}.takeover`, JSON.stringify({ pid: sleeper.pid, processStart: processStartOf(sleeper.pid!) }));
      const old = new Date(Date.now() - 11_000);
      await utimes(`${lockPath}.takeover`, old, old);
      await writeFile(`${lockPath}.${2 ** 22 + 3}.0badf00d.tmp`, '{}');
      const started = Date.now();
      result = await migrate();
      expect(result.code, result.output).toBe(0);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect((await readdir(dataDir)).filter((name) => name.startsWith(LOCK_FILE))).toEqual([]);
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 240_000);
});

describe('the lock under contention', () => {
  // Processes that only take the lock and say so, all started at once. A holder holds until every
  // contender has said what it got (its stdin closes then): on a loaded machine the last may start
  // seconds after the first, and must still find the lock held.
  const contenders = async (directory: string, count: number) => {
    const script = `
      import { holdDataDir } from './platform/db/data-dir-lock.ts';
      try {
        holdDataDir(process.argv[1]);
        console.log('held ' + process.pid);
        process.stdin.resume();
        process.stdin.on('end', () => process.exit(0));
      } catch (error) {
        console.log('refused ' + error.message);
        process.exit(1);
      }
    `;
    const children = Array.from({ length: count }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, directory], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const outcomes = children.map((child) => {
      let output = '';
      child.stdout.on('data', (data) => (output += data));
      child.stderr.on('data', (data) => (output += data));
      const said = new Promise<void>((resolve) => {
        child.stdout.on('data', () => output.includes('\n') && resolve());
        child.once('exit', () => resolve());
      });
      const exited = new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
      return { said, exited, output: () => output };
    });
    const timer = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), 60_000);
    try {
      await Promise.all(outcomes.map((outcome) => outcome.said));
      for (const child of children) child.stdin.end();
      const codes = await Promise.all(outcomes.map((outcome) => outcome.exited));
      return outcomes.map((outcome, index) => ({ code: codes[index], output: outcome.output() }));
    } finally {
      clearTimeout(timer);
    }
  };

  it.each([
    ['no lock', false, false],
    ['a stale lock', true, false],
    ['a stale lock and the takeover guard of a process that died taking it over', true, true],
  ] as const)('with %s, of eight processes at once exactly one holds the directory and the others name it', async (_name, stale, deadGuard) => {
    const directory = await mkdtemp(path.join(tmpdir(), 'contended-'));
    try {
      if (stale) await writeFile(path.join(directory, LOCK_FILE), JSON.stringify({ dir: realpathSync(directory), pid: 2 ** 22 + 1, command: 'npm start', startedAt: '2026-01-01T00:00:00.000Z', processStart: null, host: hostname(), token: 'old' }));
      // Judged by whether the process it names runs, not by its age: this one is a second old.
      if (deadGuard) await writeFile(path.join(directory, `${LOCK_FILE}.takeover`), JSON.stringify({ pid: 2 ** 22 + 2, processStart: null }));
      const results = await contenders(directory, 8);
      const held = results.filter((result) => result.output.startsWith('held '));
      expect(held, results.map((result) => result.output).join('')).toHaveLength(1);
      const holder = Number(held[0].output.split(' ')[1]);
      expect(held[0].code).toBe(0);
      for (const result of results.filter((other) => other !== held[0])) {
        expect(result.code).toBe(1);
        expect(result.output).toContain(`is in use by process ${holder} (node `);
      }
      // Gone with its holder; no temporary or takeover file left behind.
      expect(await readdir(directory)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
