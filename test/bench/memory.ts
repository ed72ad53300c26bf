// Resident memory of the `npm start` process itself: right after start (migrations applied, demo world
// loaded) and after 100,000 mixed requests, on PostgreSQL and on the embedded PGlite.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase, postgresServerUrl } from '../support/scratch-database.ts';
import { startServerProcess } from '../support/processes.ts';
import { UNREACHED_QUOTAS } from './support.ts';

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const bearer = { authorization: 'Bearer demo-token-app' };
/** The mix: the hot reads of the interface, a GraphQL query and a refused request. */
const MIX = [
  { method: 'GET', path: '/api/v2/auth/context', headers: bearer },
  { method: 'GET', path: '/api/v2/organisations/org_demo/events', headers: bearer },
  { method: 'GET', path: '/api/v2/events/evt_done/statistics/players', headers: bearer },
  { method: 'GET', path: '/api/v2/esports/matches/esm_final', headers: { ...bearer, 'svc-installation-id': 'ins_demo_org' } },
  { method: 'GET', path: '/api/v2/users/usr_bob', headers: bearer },
  { method: 'POST', path: '/graphql', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ event(id: "evt_open") { id name stages { id } organisation { name } } }' }) },
  { method: 'GET', path: '/api/v2/users/%00', headers: bearer },
] as const;

export interface MemoryFigures {
  atStart: number;
  after: number;
  rps: number;
}

/**
 * Resident memory of a server right after start and after `requests` of the mix. By default the
 * server is `npm start` itself; `node` runs the compiled bundle with other flags (the flags benchmark).
 */
export async function residentMemory(env: Record<string, string>, requests: number, node?: string[]): Promise<MemoryFigures> {
  const command = node ? { command: process.execPath, args: [...node, 'node_modules/.cache/esports-platform/main.mjs'] } : { args: ['start', '--silent'] };
  const server = await startServerProcess({ ...command, env: { ...UNREACHED_QUOTAS, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }, ready: /GraphQL\s+(http:\/\/\S+)\/graphql/ });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const atStart = rssMiB(server.pid);
    const result = await autocannon({ url: server.base, connections: 32, amount: requests, requests: MIX.map((r) => ({ ...r, headers: { ...r.headers } })) });
    const failed = result.errors + result['5xx'];
    if (failed) throw new Error(`${failed} requests failed or answered 5xx`);
    return { atStart, after: rssMiB(server.pid), rps: result.requests.average };
  } finally {
    await server.stop();
  }
}

async function measure(label: string, env: Record<string, string>, requests: number) {
  const { atStart, after, rps } = await residentMemory(env, requests);
  console.log(`| ${label} | ${atStart.toFixed(0)} | ${after.toFixed(0)} | ${requests.toLocaleString('en')} | ${rps.toFixed(0)} | 0 |`);
}

export async function memoryBench() {
  console.log('\nResident memory of the npm start process (MiB), 32 connections, mixed requests');
  console.log('| database | after start | after the requests | requests | req/s | failed |');
  console.log('|---|---|---|---|---|---|');
  const serverUrl = process.env.BENCH_DATABASE_URL ?? postgresServerUrl() ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const scratch = await createScratchDatabase(serverUrl, 'bench_mem');
  try {
    await measure('PostgreSQL (target < 200)', { DATABASE_URL: scratch.url }, Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000));
  } finally {
    await scratch.drop();
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pglite-'));
  try {
    await measure('PGlite', { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') }, Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
