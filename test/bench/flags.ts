// The node flags of npm start, chosen by measurement: for each candidate (heap sizes, glibc
// malloc arenas, source maps), the event list's throughput and CPU per
// request with the server started with those flags, the realtime gateway with 1,000 subscribers and
// 50 writes a second on a server started with them, and the resident memory of the same server after
// 100,000 mixed requests (the memory benchmark's mix), twice. BENCH_ONLY=flags npm run bench.
import pg from 'pg';
import { residentMemory, type MemoryFigures } from './memory.ts';
import { realtimeRun, type RealtimeFigures } from './realtime.ts';
import { load, startBenchServer, startCommand } from './support.ts';
import { createScratchDatabase, postgresServerUrl } from '../support/scratch-database.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);

interface Candidate {
  name: string;
  env: Record<string, string>;
  flags: string[];
}

function candidates(): Candidate[] {
  const chosen = startCommand();
  const without = (flag: string) => chosen.flags.filter((f) => !f.startsWith(flag));
  const semi = (size: number) => [...without('--max-semi-space-size'), `--max-semi-space-size=${size}`];
  const old = (size: number) => [...without('--max-old-space-size'), `--max-old-space-size=${size}`];
  const noArenaLimit = Object.fromEntries(Object.entries(chosen.env).filter(([name]) => name !== 'MALLOC_ARENA_MAX'));
  return [
    { name: `npm start: ${[...Object.entries(chosen.env).map(([k, v]) => `${k}=${v}`), ...chosen.flags].join(' ')}`, ...chosen },
    { name: 'old space 192 MiB', env: chosen.env, flags: old(192) },
    { name: 'old space 256 MiB', env: chosen.env, flags: old(256) },
    { name: 'semi-space 4 MiB', env: chosen.env, flags: semi(4) },
    { name: 'semi-space 16 MiB', env: chosen.env, flags: semi(16) },
    { name: 'malloc arenas unlimited (no MALLOC_ARENA_MAX)', env: noArenaLimit, flags: chosen.flags },
    { name: '+ --enable-source-maps', env: chosen.env, flags: ['--enable-source-maps', ...chosen.flags] },
    { name: 'before (--enable-source-maps, old space 128, semi-space 4, unlimited arenas)', env: noArenaLimit, flags: ['--enable-source-maps', ...old(128).filter((f) => !f.startsWith('--max-semi-space-size')), '--max-semi-space-size=4'] },
  ];
}

async function addOrganisation(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO "Organisation" (id, name, slug) VALUES ('org_flags', 'Flags', 'flags')`);
    await client.query(`INSERT INTO "Installation" (id, "applicationId", "targetType", "targetId", status) VALUES ('ins_flags', 'app_demo', 'organisation', 'org_flags', 'active')`);
    await client.query(
      `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, region, "createdAt", "updatedAt")
       SELECT 'evt_flags_' || lpad(n::text, 3, '0'), 'org_flags', 'Event ' || n, 'event-' || n, 'cup', 'public', 'draft', 'pc', 'EUR', 'eu', timestamp '2026-01-01' + n * interval '1 second', now()
       FROM generate_series(1, 100) AS n`,
    );
  } finally {
    await client.end();
  }
}

async function eventList(databaseUrl: string, candidate: Candidate): Promise<{ rps: number; cpuPerRequest: number }> {
  const server = await startBenchServer('platform', databaseUrl, {}, { command: candidate });
  try {
    const url = `${server.url}/api/v2/organisations/org_flags/events`;
    await load({ name: 'warm-up', url, headers: TOKEN, seconds: 2 });
    const cpuBefore = server.cpuMs();
    const result = await load({ name: candidate.name, url, headers: TOKEN, seconds: seconds() });
    return { rps: result.rps, cpuPerRequest: ((server.cpuMs() - cpuBefore) * 1000) / result.requests };
  } finally {
    await server.stop();
  }
}

export async function flagsBench(databaseUrl: string) {
  await addOrganisation(databaseUrl);
  const serverUrl = process.env.BENCH_DATABASE_URL ?? postgresServerUrl() ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const requests = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000);
  const all = candidates();
  // The event list in interleaved rounds, the better round of each candidate kept (as elsewhere).
  const lists = new Map<Candidate, { rps: number; cpuPerRequest: number }>();
  for (let round = 0; round < 3; round++) {
    for (const candidate of round % 2 ? [...all].reverse() : all) {
      const result = await eventList(databaseUrl, candidate);
      const best = lists.get(candidate);
      if (!best || result.rps > best.rps) lists.set(candidate, result);
    }
  }
  // The gateway at 1,000 subscribers and 50 writes a second, once per candidate.
  const realtime = new Map<Candidate, RealtimeFigures>();
  for (const candidate of all) realtime.set(candidate, await realtimeRun(databaseUrl, candidate, false));
  console.log(`\nNode flags: event list (page of 20, 32 connections; the best of three interleaved rounds), realtime gateway (1,000 subscribers, 50 writes/s asked; latency from a write's answer to each delivery) and resident memory (MiB) after ${requests.toLocaleString('en')} mixed requests, PostgreSQL`);
  console.log('| flags | event list req/s | CPU µs per request | realtime writes/s | realtime p50 / p99 ms | gateway µs per message | MiB after start | MiB after the requests | mix req/s |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  // Resident memory varies by several MiB from one run to the next: two runs each, both shown.
  for (const candidate of all) {
    const list = lists.get(candidate)!;
    const runs: MemoryFigures[] = [];
    for (let run = 0; run < 2; run++) {
      const scratch = await createScratchDatabase(serverUrl, 'bench_flags');
      try {
        runs.push(await residentMemory({ ...candidate.env, DATABASE_URL: scratch.url }, requests, candidate.flags));
      } finally {
        await scratch.drop();
      }
    }
    const both = (pick: (m: MemoryFigures) => number) => runs.map((m) => pick(m).toFixed(0)).join(', ');
    const live = realtime.get(candidate)!;
    console.log(`| ${candidate.name} | ${list.rps.toFixed(0)} | ${list.cpuPerRequest.toFixed(0)} | ${live.writesPerSecond.toFixed(0)} | ${live.p50.toFixed(0)} / ${live.p99.toFixed(0)} | ${live.gatewayMicrosecondsPerMessage.toFixed(1)} | ${both((m) => m.atStart)} | ${both((m) => m.after)} | ${both((m) => m.rps)} |`);
  }
}
