// Realtime gateway benchmark: 1,000 subscribers (one socket each, an organisation key) on one event of
// one instance while a writer reports a match 50 times a second through a second instance (as at
// scale, where writes and sockets are served apart); the latency from each write to its delivery at
// every subscriber, and the gateway instance's resident memory per subscriber.
//
// The subscribers share the machine's two cores with the gateway, so by default each is a minimal
// graphql-transport-ws client on ws (connection_init, subscribe, JSON-parsed messages): the load
// generator should not take the CPU it measures. BENCH_SUBSCRIBER_CLIENT=graphql-ws runs the graphql-ws
// client instead (the realtime tests use it throughout).
import pg from 'pg';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startBenchServer, type BenchServerOptions } from './support.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const FULL_CLIENT = process.env.BENCH_SUBSCRIBER_CLIENT === 'graphql-ws';

interface Subscriber {
  ready: Promise<void>;
  dispose(): Promise<void>;
}

/** The protocol and nothing more: init, subscribe, and each `next` message handed on. */
function minimalSubscriber(url: string, apiKey: string, query: string, onNext: (payload: { data: { eventChanged: { revision: number } } }) => void, onError: () => void): Subscriber {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const ready = new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { apiKey } })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; payload?: unknown };
      if (message.type === 'next') onNext(message.payload as Parameters<typeof onNext>[0]);
      else if (message.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        resolve();
      } else if (message.type === 'ping') ws.send('{"type":"pong"}');
      else if (message.type === 'error') onError();
    });
  });
  return {
    ready,
    dispose: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close(1000);
      }),
  };
}

function fullSubscriber(url: string, apiKey: string, query: string, onNext: (payload: { data: { eventChanged: { revision: number } } }) => void, onError: () => void): Subscriber {
  const client: Client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0, lazy: false });
  const ready = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  client.subscribe<{ eventChanged: { revision: number } }>({ query }, { next: (payload) => onNext(payload as Parameters<typeof onNext>[0]), error: onError, complete: () => undefined });
  return { ready, dispose: () => client.dispose() as Promise<void> };
}
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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

export interface RealtimeFigures {
  writesPerSecond: number;
  /** Latencies from each write's answer to its delivery at every subscriber, ms. */
  p50: number;
  p99: number;
  gatewayMicrosecondsPerMessage: number;
  kibPerSubscriber: number;
}

export async function realtimeBench(databaseUrl: string) {
  await realtimeRun(databaseUrl, undefined, true);
}

/** One run; the gateway server with npm start's flags, or the flags benchmark's candidate. */
export async function realtimeRun(databaseUrl: string, command: BenchServerOptions['command'], print: boolean): Promise<RealtimeFigures> {
  const initialRevision = await prepare(databaseUrl);
  // Webhooks are delivered by a worker process of their own, as at scale: the worker's transactions
  // would otherwise share this process and hold the feed back while they run.
  const server = await startBenchServer('platform', databaseUrl, { WEBHOOK_WORKER: 'off' }, { profile: print, command });
  const writer = await startBenchServer('platform', databaseUrl, { WEBHOOK_WORKER: 'off' });
  const clients: Subscriber[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssBefore = server.rssMiB();
    // revision → when its write was sent and answered; each delivery is measured against both.
    const sent = new Map<number, { sentAt: number; answeredAt?: number }>();
    const fromSend: number[] = [];
    const fromAnswer: number[] = [];
    // Arrivals in typed arrays, allocated up front: half a million objects would put major garbage
    // collections of this process, and their pauses, into the latencies it measures.
    const capacity = SUBSCRIBERS * (Math.ceil(WRITES_PER_SECOND * (seconds() + WARM_UP_MS / 1000)) + 10);
    const arrivedRevision = new Int32Array(capacity);
    const arrivedAt = new Float64Array(capacity);
    let arrivals = 0;
    let received = 0;
    let errors = 0;
    const ready: Promise<void>[] = [];
    const query = 'subscription { eventChanged(eventId: "evt_rt") { cursor type revision occurredAt event { name revision } } }';
    const url = server.url.replace(/^http/, 'ws') + '/api/v1/gateway';
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const subscriber = (FULL_CLIENT ? fullSubscriber : minimalSubscriber)(
        url,
        'demo-org-key-0001',
        query,
        ({ data }) => {
          received++;
          if (arrivals < capacity) {
            arrivedRevision[arrivals] = data.eventChanged.revision;
            arrivedAt[arrivals++] = performance.now();
          }
        },
        () => errors++,
      );
      clients.push(subscriber);
      ready.push(subscriber.ready);
      // Open sockets in small bursts, as real overlays would arrive.
      if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(ready);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssSubscribed = server.rssMiB();

    // One writer, a write every 20 ms, each with the revision the last one answered.
    let revision = initialRevision;
    let total = 0;
    const writeFor = async (ms: number, record: boolean) => {
      let count = 0;
      const until = performance.now() + ms;
      let next = performance.now();
      while (performance.now() < until) {
        const sentAt = performance.now();
        const response = await fetch(`${writer.url}/api/v2/events/evt_rt/matches/mtc_rt`, {
          method: 'PATCH',
          headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json', 'if-match': `"${revision}"` },
          body: JSON.stringify({ scoreA: total + 1 }),
        });
        const body = (await response.json()) as { data?: { revision: number } };
        if (response.status !== 200 || !body.data) throw new Error(`write answered ${response.status}: ${JSON.stringify(body)}`);
        revision = body.data.revision;
        if (record) sent.set(revision, { sentAt, answeredAt: performance.now() });
        count++;
        total++;
        next += 1000 / WRITES_PER_SECOND;
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return count;
    };
    const allDelivered = async () => {
      const deadline = performance.now() + 30_000;
      while (received < total * SUBSCRIBERS && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    // A warm-up at the same rate, not measured (as every other part warms up): the first changes after
    // the subscriptions are made compile and prepare their resource query, which a running gateway has
    // long done.
    await writeFor(WARM_UP_MS, false);
    await allDelivered();

    const cpuAtStart = { server: server.cpuMs(), writer: writer.cpuMs(), subscribers: process.cpuUsage() };
    const receivedAtStart = received;
    const startedAt = performance.now();
    const writes = await writeFor(seconds() * 1000, true);
    await allDelivered();
    const expected = total * SUBSCRIBERS;
    const elapsedMs = performance.now() - startedAt;
    const subscribersCpu = process.cpuUsage(cpuAtStart.subscribers);
    const cpu = {
      gateway: server.cpuMs() - cpuAtStart.server,
      writer: writer.cpuMs() - cpuAtStart.writer,
      subscribers: (subscribersCpu.user + subscribersCpu.system) / 1000,
    };
    // Per write: when its first and its last subscriber had it; the difference is the fan-out.
    const byWrite = new Map<number, { first: number; last: number }>();
    for (let i = 0; i < arrivals; i++) {
      const [r, at] = [arrivedRevision[i], arrivedAt[i]];
      const write = sent.get(r);
      if (!write) continue;
      fromSend.push(at - write.sentAt);
      fromAnswer.push(Math.max(0, at - write.answeredAt!));
      const entry = byWrite.get(r);
      if (!entry) byWrite.set(r, { first: at, last: at });
      else {
        entry.first = Math.min(entry.first, at);
        entry.last = Math.max(entry.last, at);
      }
    }
    const firstAfterAnswer = [...byWrite].map(([r, { first }]) => Math.max(0, first - sent.get(r)!.answeredAt!));
    const fanOut = [...byWrite.values()].map(({ first, last }) => last - first);
    fromSend.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    firstAfterAnswer.sort((a, b) => a - b);
    fanOut.sort((a, b) => a - b);
    if (received !== expected) throw new Error(`${expected - received} messages were not delivered`);
    const perMessage = (ms: number) => (ms * 1000) / Math.max(1, received - receivedAtStart);
    const kibPerSubscriber = ((rssSubscribed - rssBefore) * 1024) / SUBSCRIBERS;
    if (print) {
      const row = (label: string, values: number[]) =>
        console.log(`| ${label} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${values[values.length - 1].toFixed(1)} |`);
      console.log(`\nRealtime gateway: ${SUBSCRIBERS} subscribers (one socket each, ${FULL_CLIENT ? 'the graphql-ws client' : 'minimal graphql-transport-ws clients'}) on one event, ${writes} writes in ${seconds()} s (${(writes / seconds()).toFixed(0)}/s) after ${total - writes} not measured in a warm-up of ${WARM_UP_MS / 1000} s`);
      console.log(`delivered ${received} of ${expected} messages, ${errors} subscription errors`);
      console.log('| latency to delivery at the subscriber | p50 ms | p99 ms | max ms |');
      console.log('|---|---|---|---|');
      row("from the write's request (upper bound of commit → delivery)", fromSend);
      row("from the write's answer (lower bound)", fromAnswer);
      row('first subscriber of a write, from its answer', firstAfterAnswer);
      row('fan-out: first to last subscriber of a write', fanOut);
      const share = (ms: number) => `${((ms / elapsedMs) * 100).toFixed(0)} % of a core, ${perMessage(ms).toFixed(1)} µs per message`;
      console.log(`CPU while writing and delivering: gateway ${share(cpu.gateway)}; subscribers' process ${share(cpu.subscribers)}; writer ${share(cpu.writer)}`);
      console.log(`server resident memory: ${rssBefore.toFixed(0)} MiB before, ${rssSubscribed.toFixed(0)} MiB with ${SUBSCRIBERS} subscribers: ${kibPerSubscriber.toFixed(1)} KiB per subscriber`);
    }
    return {
      writesPerSecond: writes / seconds(),
      p50: percentile(fromAnswer, 50),
      p99: percentile(fromAnswer, 99),
      gatewayMicrosecondsPerMessage: perMessage(cpu.gateway),
      kibPerSubscriber,
    };
  } finally {
    await Promise.all(clients.map((subscriber) => subscriber.dispose()));
    await server.stop();
    await writer.stop();
  }
}
