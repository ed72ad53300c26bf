// Realtime gateway benchmark: 1,000 subscribers (one socket each, an organisation key) on one event of
// one instance while a writer reports a match 50 times a second through a second instance (as at
// scale, where writes and sockets are served apart); the latency from each write to its delivery at
// every subscriber, and the gateway instance's resident memory per subscriber.
//
// The subscribers and the writer run in a process of their own (realtime-load.ts). They share the
// machine's two cores with the gateway, so by default each subscriber is a minimal graphql-transport-ws
// client on a plain socket (connection_init, subscribe, JSON-parsed messages): the load generator
// should not take the CPU it measures. BENCH_SUBSCRIBER_CLIENT=graphql-ws runs the graphql-ws client
// instead (the realtime tests use it throughout).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startBenchServer, type BenchServerOptions } from './support.ts';
import type { LoadConfig, LoadResult } from './realtime-load.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const FULL_CLIENT = process.env.BENCH_SUBSCRIBER_CLIENT === 'graphql-ws';

const WRITES_PER_SECOND = Number(process.env.BENCH_REALTIME_WRITES ?? 50);
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5) * 2;
const WARM_UP_MS = 2000;

/** The event and its match (once per database); answers the event's current revision. */
async function prepare(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const existing = await client.query(`SELECT revision FROM "Event" WHERE id = 'evt_rt'`);
    if (existing.rows.length) return Number(existing.rows[0].revision);
    await client.query(
      `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, "updatedAt")
       VALUES ('evt_rt', 'org_demo', 'Realtime', 'realtime', 'cup', 'public', 'live', 'pc', 'EUR', now())`,
    );
    await client.query(`INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position) VALUES ('stg_rt', 'evt_rt', 'Main', 'swiss', 1, 1)`);
    await client.query(
      `INSERT INTO "Participant" (id, "eventId", "teamId", status, "selectedGroupIds", "updatedAt")
       VALUES ('par_rt_a', 'evt_rt', 'team_alpha', 'approved', '{}', now()), ('par_rt_b', 'evt_rt', 'team_bravo', 'approved', '{}', now())`,
    );
    await client.query(
      `INSERT INTO "Match" (id, "eventId", "stageId", "participantAId", "participantBId", "bestOf", status, "updatedAt")
       VALUES ('mtc_rt', 'evt_rt', 'stg_rt', 'par_rt_a', 'par_rt_b', 1, 'live', now())`,
    );
    return 1;
  } finally {
    await client.end();
  }
}

export interface RealtimeFigures {
  writesPerSecond: number;
  /** Latencies from each write's answer to its delivery at every subscriber, ms. */
  p50: number;
  p99: number;
  gatewayMicrosecondsPerMessage: number;
  kibPerSubscriber: number;
}

export async function realtimeBench(databaseUrl: string) {
  try {
    await realtimeRun(databaseUrl, undefined, true);
  } catch (error) {
    // The other parts still run; the benchmark exits non-zero.
    console.log(`\nRealtime gateway: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

/** One run; the gateway server with npm start's flags, or the flags benchmark's candidate. */
export async function realtimeRun(databaseUrl: string, command: BenchServerOptions['command'], print: boolean): Promise<RealtimeFigures> {
  const initialRevision = await prepare(databaseUrl);
  // Webhooks are delivered by a worker process of their own, as at scale: the worker's transactions
  // would otherwise share this process and hold the feed back while they run.
  // One key fans out to every subscriber: the gateway is given room for them, as a deployment that
  // serves a broadcast's viewers through one key must be (its defaults allow 100 sockets a credential).
  const room = {
    GATEWAY_MAX_SOCKETS_PER_CREDENTIAL: String(SUBSCRIBERS),
    GATEWAY_MAX_PENDING_SUBSCRIBES: String(SUBSCRIBERS),
    GATEWAY_MAX_UNINITIALISED_SOCKETS_PER_ADDRESS: String(SUBSCRIBERS),
    GATEWAY_SOCKETS_PER_ADDRESS_MB: String(Math.max(8, Math.ceil((SUBSCRIBERS * 8) / 1024) + 1)),
    GATEWAY_SOCKETS_MB: String(Math.max(16, Math.ceil((SUBSCRIBERS * 8) / 1024) + 1)),
  };
  const server = await startBenchServer('platform', databaseUrl, { WEBHOOK_WORKER: 'off', ...room }, { profile: print, command });
  const writer = await startBenchServer('platform', databaseUrl, { WEBHOOK_WORKER: 'off' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssBefore = server.rssMiB();
    const config: LoadConfig = {
      gatewayUrl: server.url,
      writerUrl: writer.url,
      subscribers: SUBSCRIBERS,
      writesPerSecond: WRITES_PER_SECOND,
      seconds: seconds(),
      warmUpMs: WARM_UP_MS,
      fullClient: FULL_CLIENT,
      initialRevision,
    };
    let rssSubscribed = 0;
    let cpuAtStart = { server: 0, serverSystem: 0, writer: 0 };
    let cpuAtEnd = { ...cpuAtStart };
    const sample = () => ({ server: server.cpuMs(), serverSystem: server.systemCpuMs(), writer: writer.cpuMs() });
    const result = await new Promise<LoadResult>((resolve, reject) => {
      const load = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'realtime-load.ts'), JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let answer: LoadResult | undefined;
      createInterface({ input: load.stdout! }).on('line', (line) => {
        if (line === 'subscribed') rssSubscribed = server.rssMiB();
        else if (line === 'measuring') cpuAtStart = sample();
        else if (line === 'measured') cpuAtEnd = sample();
        else if (line.startsWith('result ')) answer = JSON.parse(line.slice('result '.length)) as LoadResult;
      });
      load.once('exit', (code) => (answer && code === 0 ? resolve(answer) : reject(new Error(`the realtime load exited with ${code}`))));
    });
    const { writes, total, received, expected, errors, elapsedMs } = result;
    if (received !== expected) {
      const closes = Object.entries(result.closedByServer).map(([code, n]) => `${n} with ${code}`);
      throw new Error(
        `${expected - received} of ${expected} messages were not delivered within 30 s of the last write (${result.writes} writes measured, ${errors} subscription errors; ` +
          `sockets closed by the gateway: ${closes.join(', ') || 'none'})`,
      );
    }
    const cpu = {
      gateway: cpuAtEnd.server - cpuAtStart.server,
      gatewaySystem: cpuAtEnd.serverSystem - cpuAtStart.serverSystem,
      writer: cpuAtEnd.writer - cpuAtStart.writer,
      subscribers: result.cpu.user + result.cpu.system,
      subscribersSystem: result.cpu.system,
    };
    const measured = writes * SUBSCRIBERS;
    const perMessage = (ms: number) => (ms * 1000) / Math.max(1, measured);
    const kibPerSubscriber = ((rssSubscribed - rssBefore) * 1024) / SUBSCRIBERS;
    if (print) {
      const row = (label: string, [p50, p99, max]: number[]) => console.log(`| ${label} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${max.toFixed(1)} |`);
      console.log(`\nRealtime gateway: ${SUBSCRIBERS} subscribers (one socket each, ${FULL_CLIENT ? 'the graphql-ws client' : 'minimal graphql-transport-ws clients'}, in a process of their own with the writer) on one event, ${writes} writes in ${seconds()} s (${(writes / seconds()).toFixed(0)}/s) after ${total - writes} not measured in a warm-up of ${WARM_UP_MS / 1000} s`);
      console.log(`delivered ${received} of ${expected} messages, ${errors} subscription errors`);
      console.log('| latency to delivery at the subscriber | p50 ms | p99 ms | max ms |');
      console.log('|---|---|---|---|');
      row("from the write's request (upper bound of commit → delivery)", result.fromSend);
      row("from the write's answer (lower bound)", result.fromAnswer);
      row('first subscriber of a write, from its answer', result.firstAfterAnswer);
      row('fan-out: first to last subscriber of a write', result.fanOut);
      const share = (ms: number) => `${((ms / elapsedMs) * 100).toFixed(0)} % of a core, ${perMessage(ms).toFixed(1)} µs per message`;
      const kernel = (system: number, all: number) => `, ${((system / all) * 100).toFixed(0)} % of it in the kernel`;
      console.log(
        `CPU while writing and delivering: gateway ${share(cpu.gateway)}${kernel(cpu.gatewaySystem, cpu.gateway)}; ` +
          `subscribers' and writer's process ${share(cpu.subscribers)}${kernel(cpu.subscribersSystem, cpu.subscribers)}; writer server ${share(cpu.writer)}`,
      );
      console.log(`server resident memory: ${rssBefore.toFixed(0)} MiB before, ${rssSubscribed.toFixed(0)} MiB with ${SUBSCRIBERS} subscribers: ${kibPerSubscriber.toFixed(1)} KiB per subscriber`);
    }
    return {
      writesPerSecond: writes / seconds(),
      p50: result.fromAnswer[0],
      p99: result.fromAnswer[1],
      gatewayMicrosecondsPerMessage: perMessage(cpu.gateway),
      kibPerSubscriber,
    };
  } finally {
    await server.stop();
    await writer.stop();
  }
}
