// A PostgreSQL server of a test's own, to stop, kill and restart under a running platform: initdb
// into a temporary directory, pg_ctl on a free port of OWN_POSTGRES_PORTS (55410–55419 unless set)
// of 127.0.0.2. Not 127.0.0.1: those ports lie in Linux's range of ephemeral ports, and a client
// reconnecting from 127.0.0.1 to a stopped server on 127.0.0.1 may be given the server's port as its
// own and connect to itself (TCP simultaneous open), then read its own startup message as the answer.
// PostgreSQL refuses to run as root, so when the tests run as root (CI) its commands run as the
// `postgres` user. Removed by destroy().
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The directory holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/<n>/bin; null when there is none. */
export function postgresBinaries(): string | null {
  try {
    const found = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    if (found) return path.dirname(found);
  } catch {
    // not on PATH
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

const asRoot = process.getuid?.() === 0;
const HOST = '127.0.0.2';

/** Runs a PostgreSQL program (as the postgres user when we are root). */
async function pgProgram(bin: string, program: string, args: string[]): Promise<string> {
  const file = path.join(bin, program);
  const { stdout } = asRoot ? await run('su', ['postgres', '-c', [file, ...args].map(quote).join(' ')]) : await run(file, args);
  return stdout;
}
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

async function freePort(): Promise<number> {
  const [from, to] = (process.env.OWN_POSTGRES_PORTS ?? '55410-55419').split('-').map(Number);
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, HOST, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to} for a PostgreSQL of the test's own`);
}

export interface OwnPostgres {
  port: number;
  host: string;
  /** postgresql://postgres@127.0.0.2:<port>/<database> (a superuser). */
  url(database?: string): string;
  start(): Promise<void>;
  /** Whether its postmaster runs (pg_ctl status). */
  running(): Promise<boolean>;
  /** pg_ctl stop: smart waits for sessions to end (`wait: false` returns at once), fast ends them, immediate is a crash. */
  stop(mode: 'smart' | 'fast' | 'immediate', wait?: boolean): Promise<void>;
  /** SIGKILL to the postmaster, then waits until it and its backends are gone. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startOwnPostgres(bin: string): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'own-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = (() => {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      return { uid: id('-u'), gid: id('-g') };
    })();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  await pgProgram(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=${HOST} -c fsync=off -c max_connections=100`;
  const server: OwnPostgres = {
    port,
    host: HOST,
    url: (database = 'postgres') => `postgresql://postgres@${HOST}:${port}/${database}`,
    async start() {
      await pgProgram(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
    },
    async running() {
      return pgProgram(bin, 'pg_ctl', ['-D', data, 'status']).then(
        () => true,
        () => false,
      );
    },
    async stop(mode, wait = true) {
      await pgProgram(bin, 'pg_ctl', ['-D', data, '-m', mode, ...(wait ? ['-w'] : ['-W']), 'stop']);
    },
    async kill() {
      const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      // Its backends notice and exit; a new postmaster may start once none of them is left (each
      // runs in the data directory), and once the killed one is reaped: until then it is a zombie
      // that PostgreSQL's lock-file check takes for a running postmaster ("lock file
      // postmaster.pid already exists"), and an init that reaps lazily (some containers' PID 1)
      // leaves it for a second or more.
      const deadline = Date.now() + 10_000;
      while ((processesIn(data) > 0 || existsSync(`/proc/${pid}`)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    async destroy() {
      await server.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** How many processes have `directory` as their working directory (PostgreSQL's run in their data directory). */
function processesIn(directory: string): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === directory) count++;
    } catch {
      // gone, or not ours to look at
    }
  }
  return count;
}

/** Runs SQL on the server as the superuser. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
