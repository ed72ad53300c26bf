// Benchmark plumbing: a fresh PostgreSQL database with the demo world, server child processes, and
// autocannon runs whose results are compared side by side (ratios, never absolute thresholds).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase, postgresServerUrl } from '../support/scratch-database.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';

export const root = path.resolve(import.meta.dirname, '../..');

export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL ?? postgresServerUrl() ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const scratch = await createScratchDatabase(server, 'bench');
  const db = openDatabase({ url: scratch.url });
  await applyMigrations(db.adapterFactory);
  await loadDemoWorld(db);
  await db.close();
  return scratch;
}

/** The environment and node flags npm start runs the server with (package.json), so the benchmark measures the same process. */
export function startCommand(): { env: Record<string, string>; flags: string[] } {
  const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
  const match = /&& ((?:\w+=\S+ )*)(?:exec )?node ((?:--\S+ )*)node_modules\/\.cache\/esports-platform\/main\.mjs/.exec(start);
  if (!match) throw new Error(`Cannot read the node flags of npm start: ${start}`);
  const env = Object.fromEntries(match[1].trim().split(' ').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
  return { env, flags: match[2].trim().split(' ').filter(Boolean) };
}

/**
 * Quotas no benchmark reaches (a benchmark sends tens of thousands of requests a minute with one
 * token): the limiter counts every request and refuses none. The auth part measures what counting costs.
 */
export const UNREACHED_QUOTAS: Record<string, string> = {
  RATE_LIMIT_TOKEN: '1000000000/60',
  RATE_LIMIT_API_KEY: '1000000000/60',
  RATE_LIMIT_ANONYMOUS: '1000000000/60',
  RATE_LIMIT_CLIENT: '1000000000/60',
  RATE_LIMIT_AUTH_FAILURES: '1000000000/60',
};

export interface BenchServer {
  url: string;
  child: ChildProcess;
  rssMiB(): number;
  /** CPU time the process has used so far (user + system), in ms. */
  cpuMs(): number;
  /** The same, of it in the kernel (system), in ms. */
  systemCpuMs(): number;
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  /** BENCH_PROFILE=<dir> writes a V8 CPU profile of this server there when it stops. */
  profile?: boolean;
  /** Other node flags and environment than npm start's (the flags benchmark). */
  command?: { env: Record<string, string>; flags: string[] };
}

export function startBenchServer(kind: 'platform' | 'baseline', databaseUrl: string, env: Record<string, string> = {}, options: BenchServerOptions = {}): Promise<BenchServer> {
  const profileDir = options.profile ? process.env.BENCH_PROFILE : undefined;
  // The compiled bundle, as npm start runs it (npm run bench builds it first).
  const start = options.command ?? startCommand();
  const child = spawn(process.execPath, [...start.flags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'node_modules/.cache/esports-platform/bench-serve.mjs', kind], {
    cwd: root,
    env: { ...process.env, ...start.env, ...UNREACHED_QUOTAS, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => {
      resolve({
        url: chunk.toString().trim().split('\n')[0],
        child,
        cpuMs: () => {
          const { user, system } = processTicks(child.pid!);
          return ((user + system) * 1000) / 100;
        },
        systemCpuMs: () => (processTicks(child.pid!).system * 1000) / 100,
        rssMiB: () => {
          const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
          return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
        },
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            // A profiled server exits on SIGTERM, which writes its profile.
            child.kill(profileDir ? 'SIGTERM' : 'SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/** Fields 14 and 15 of /proc/<pid>/stat (after the command name in parentheses): clock ticks. */
function processTicks(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
}

export interface LoadSpec {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  amount?: number;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections ?? 32,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
    pipelining: 1,
  });
  return {
    name: spec.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    requests: result.requests.total,
  };
}

export function printTable(title: string, rows: LoadResult[], reference: LoadResult) {
  console.log(`\n${title}`);
  console.log('| target | req/s | vs ' + reference.name + ' | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / reference.rps).toFixed(2)} | ${row.p50} | ${row.p99} | ${row.non2xx} |`);
  }
}
