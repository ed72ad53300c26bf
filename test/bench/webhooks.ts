// Webhook benchmarks: signed deliveries per second from one worker process (npm run worker, as
// compiled) to a local receiver; and stage creation with 25 endpoints subscribed against none, with
// the API alone (the write path) and with a worker fanning out and delivering beside it.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { writeLoad } from './competitions.ts';
import { root, startBenchServer, startCommand } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);
const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 5000);
const LOCAL = { WEBHOOKS_ALLOW_LOCAL: '1' };

function startWorker(databaseUrl: string) {
  const start = startCommand();
  const child = spawn(process.execPath, [...start.flags, 'node_modules/.cache/esports-platform/worker.mjs'], {
    cwd: root,
    env: { ...process.env, ...start.env, ...LOCAL, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return {
    ready: new Promise<void>((resolve) => child.stdout!.once('data', () => resolve())),
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

async function post(base: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { data: Record<string, unknown> };
}

async function addEndpoints(base: string, receiver: Receiver, count: number, tag: string) {
  for (let i = 0; i < count; i++) {
    await post(base, '/api/v2/developer/apps/app_demo/webhook-endpoints', { name: `Bench ${i}`, url: receiver.url, subscribedEvents: ['stage.created'] }, { 'idempotency-key': `bench-${tag}-${i}` });
  }
}

async function distinctReceived(receiver: Receiver, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const ids = new Set<string>();
  let seen = 0;
  while (ids.size < count && Date.now() < deadline) {
    for (; seen < receiver.received.length; seen++) ids.add(receiver.received[seen].headers['webhook-id']);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ids.size;
}

export async function webhookBench(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, "updatedAt")
     SELECT 'evt_h_' || n, 'org_demo', 'Hooked ' || n, 'hooked-' || n, 'cup', 'public', 'draft', 'pc', 'EUR', now() FROM generate_series(0, 199) AS n`,
  );
  // Only the endpoints made here receive anything (at most 25 per application).
  await client.query(`DELETE FROM "WebhookEndpoint"`);
  const receiver = await startReceiver();
  const api = await startBenchServer('platform', databaseUrl, { ...LOCAL, WEBHOOK_WORKER: 'off' });
  try {
    // Signed deliveries per second: DELIVERIES test deliveries queued, then one worker process starts.
    await addEndpoints(api.url, receiver, 1, 'rate');
    const [{ id: endpointId }] = (await client.query(`SELECT id FROM "WebhookEndpoint" WHERE status = 'active'`)).rows as { id: string }[];
    for (let i = 0; i < DELIVERIES; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => post(api.url, `/api/v2/developer/apps/app_demo/webhook-endpoints/${endpointId}/test`)));
    }
    const worker = startWorker(databaseUrl);
    await worker.ready;
    const started = performance.now();
    const delivered = await distinctReceived(receiver, DELIVERIES, 120_000);
    const elapsed = (performance.now() - started) / 1000;
    await worker.stop();
    await client.query(`DELETE FROM "WebhookEndpoint"`);
    console.log(`\nWebhook deliveries, one worker process (WEBHOOK_CONCURRENCY ${process.env.WEBHOOK_CONCURRENCY ?? 64}) to a local receiver`);
    console.log(`${delivered} of ${DELIVERIES} signed deliveries in ${elapsed.toFixed(1)} s = ${(delivered / elapsed).toFixed(0)} deliveries/s (target ≥ 500)`);

    // Stage creation, 24 writers: no endpoint subscribed, then 25.
    const duration = seconds() * 1000;
    await writeLoad('warm', api.url, 8, 0, 1000, 'evt_h_');
    const none = await writeLoad('API alone, no endpoint', api.url, 24, 10, duration, 'evt_h_');
    await addEndpoints(api.url, receiver, 25, 'fanout');
    const subscribed = await writeLoad('API alone, 25 endpoints', api.url, 24, 40, duration, 'evt_h_');
    const worker2 = startWorker(databaseUrl);
    await worker2.ready;
    const before = receiver.received.length;
    const withWorker = await writeLoad('API + worker fanning out and delivering, 25 endpoints', api.url, 24, 70, duration, 'evt_h_');
    const deliveredDuring = receiver.received.length - before;
    await worker2.stop();
    console.log('\nPOST /api/v2/events/{id}/stages, 24 writers, with webhook endpoints subscribed to stage.created');
    console.log('| target | writes/s | vs no endpoint | failures |');
    console.log('|---|---|---|---|');
    for (const run of [none, subscribed, withWorker]) console.log(`| ${run.name} | ${run.perSecond.toFixed(0)} | ${(run.perSecond / none.perSecond).toFixed(2)} | ${run.failures} |`);
    console.log(`fan-out cost to the write path (API alone) = ${((1 - subscribed.perSecond / none.perSecond) * 100).toFixed(1)}% (target ≤ 10%); with a worker on the same 2 cores = ${((1 - withWorker.perSecond / none.perSecond) * 100).toFixed(1)}% (${deliveredDuring} deliveries made meanwhile)`);
  } finally {
    await api.stop();
    await receiver.close();
    await client.end();
  }
}
