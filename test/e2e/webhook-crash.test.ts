// At-least-once under a crash: a worker process (npm run worker) is killed with SIGKILL while it
// delivers 1,000 webhooks to a local receiver; a second worker started after it delivers the rest.
// Every delivery arrives at least once, a duplicate carries the same webhook-id and body, no
// delivery stays claimed, and the attempt log misses no attempt: the killed worker's unfinished ones
// show as interrupted. PostgreSQL only: PGlite is one process's database.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { postgresServerUrl } from '../support/scratch-database.ts';
import { isAlive, root, waitUntilGone } from '../support/processes.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { WebhookWorker } from '../../subgraphs/workers/webhook-worker.ts';

const DELIVERIES = 1000;
let server: TestServer;
let receiver: Receiver;
const workers: number[] = [];

function startWorker(databaseUrl: string): Promise<{ child: ChildProcess; pid: number }> {
  const child = spawn('npm', ['run', 'worker'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, WEBHOOKS_ALLOW_LOCAL: '1', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '3000', WEBHOOK_CONCURRENCY: '16', WEBHOOK_ENDPOINT_CONCURRENCY: '16', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const pid = /Worker process (\d+)/.exec(output);
      if (pid) {
        clearTimeout(timer);
        workers.push(Number(pid[1]));
        resolve({ child, pid: Number(pid[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm run worker exited with ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  if (!postgresServerUrl()) return;
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  receiver = await startReceiver();
  server = await startTestServer({ webhookWorker: false });
});
afterAll(async () => {
  for (const pid of workers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await server?.close();
  await receiver?.close();
  vi.unstubAllEnvs();
});

describe.skipIf(!postgresServerUrl())('webhook worker crash', () => {
  it('SIGKILL during 1,000 deliveries: after a restart each arrives at least once, duplicates with the same webhook-id, none left claimed, no attempt missing from the log', async () => {
    const created = await call(server.url, '/api/v2/developer/apps/app_demo/webhook-endpoints', {
      method: 'POST',
      key: uniqueKey('crash'),
      body: { name: 'Crash', url: receiver.url, subscribedEvents: ['stage.created'] },
    });
    expect(created.status).toBe(201);
    const { endpoint, secret } = created.body.data;
    // 1,000 test deliveries, queued through the API while no worker runs.
    for (let i = 0; i < DELIVERIES; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => call(server.url, `/api/v2/developer/apps/app_demo/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' })));
      expect(batch.every((response) => response.status === 201)).toBe(true);
    }
    const expected = new Set(
      (await server.db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, select: { id: true } })).map((row) => row.id),
    );
    expect(expected.size).toBe(DELIVERIES);

    // Answered after 20 ms: at the kill, requests the receiver has had are waiting for their answer.
    receiver.answer = () => ({ status: 200, delayMs: 20 });
    const first = await startWorker(server.db.url!);
    await receiver.waitFor(200, 60_000);
    process.kill(first.pid, 'SIGKILL');
    expect(await waitUntilGone(first.pid, 5_000)).toBe(true);
    const atCrash = receiver.received.length;
    expect(atCrash).toBeLessThan(DELIVERIES);

    const second = await startWorker(server.db.url!);
    const deadline = Date.now() + 90_000;
    const ids = () => new Set(receiver.received.map((request) => request.headers['webhook-id']));
    while (ids().size < DELIVERIES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...expected].filter((id) => !ids().has(id))).toEqual([]);

    // Duplicates are the same delivery: same id, same body, each verified.
    const bodies = new Map<string, string>();
    for (const request of receiver.received) {
      new Webhook(secret).verify(request.body, request.headers);
      const id = request.headers['webhook-id'];
      if (bodies.has(id)) expect(request.body).toBe(bodies.get(id));
      else bodies.set(id, request.body);
    }

    // Every delivery ends succeeded and unclaimed once the new worker has recorded it.
    let open = -1;
    for (let i = 0; i < 100 && open !== 0; i++) {
      open = await server.db.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id, OR: [{ status: { not: 'succeeded' } }, { claimedUntil: { not: null } }] } });
      if (open) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(open).toBe(0);

    // The log has an attempt for every request the receiver had (a duplicate is a second attempt),
    // numbered 1..attemptCount without gaps; the killed worker's unfinished ones are interrupted.
    const attempts = await server.db.prisma.webhookAttempt.findMany({ where: { delivery: { endpointId: endpoint.id } }, orderBy: [{ deliveryId: 'asc' }, { number: 'asc' }] });
    const deliveries = new Map((await server.db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } })).map((row) => [row.id, row]));
    const logged = new Map<string, number[]>();
    for (const attempt of attempts) logged.set(attempt.deliveryId, [...(logged.get(attempt.deliveryId) ?? []), attempt.number]);
    const receipts = new Map<string, number>();
    for (const request of receiver.received) receipts.set(request.headers['webhook-id'], (receipts.get(request.headers['webhook-id']) ?? 0) + 1);
    const missing = [...receipts].filter(([id, count]) => id.startsWith('dlv_') && deliveries.has(id) && (logged.get(id)?.length ?? 0) < count);
    expect(missing).toEqual([]);
    for (const [id, numbers] of logged) {
      expect(numbers, id).toEqual(numbers.map((_, i) => i + 1));
      expect(deliveries.get(id)!.attemptCount, id).toBe(numbers.length);
    }
    expect(attempts.filter((attempt) => attempt.errorCode === 'in_progress')).toEqual([]);
    const interrupted = attempts.filter((attempt) => attempt.errorCode === 'interrupted');
    expect(interrupted.length).toBeGreaterThan(0);
    const shown = await call(server.url, `/api/v2/developer/apps/app_demo/webhook-deliveries/${interrupted[0].deliveryId}/attempts`);
    expect(shown.body.data[interrupted[0].number - 1]).toMatchObject({ number: interrupted[0].number, errorCode: 'interrupted', responseStatus: null, durationMs: 0 });
    const duplicates = [...receipts.values()].filter((count) => count > 1).length;

    process.kill(second.pid, 'SIGTERM');
    expect(await waitUntilGone(second.pid, 10_000)).toBe(true);
    console.info(
      `webhook crash test: ${atCrash} received before SIGKILL, ${receiver.received.length} in all for ${DELIVERIES} deliveries (${duplicates} twice); ${attempts.length} attempts logged, ${interrupted.length} interrupted`,
    );
    // Two worker starts (npm run worker builds first) and 1,000 deliveries: about 25 s alone, more
    // beside other test files; its own waits (60 s, 90 s) bound it.
  }, 180_000);

  it('three workers on one database never make the same attempt twice', async () => {
    const created = await call(server.url, '/api/v2/developer/apps/app_demo/webhook-endpoints', {
      method: 'POST',
      key: uniqueKey('three'),
      body: { name: 'Three', url: receiver.url, subscribedEvents: ['stage.created'] },
    });
    const { endpoint } = created.body.data;
    for (let i = 0; i < 300; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => call(server.url, `/api/v2/developer/apps/app_demo/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' })));
    }
    receiver.answer = () => ({ status: 200 });
    const before = receiver.received.length;
    const databases = [0, 1, 2].map(() => openDatabase({ url: server.db.url!, poolSize: 4 }));
    const running = databases.map((db) => new WebhookWorker(db, { concurrency: 8 }));
    try {
      await Promise.all(running.map((worker) => worker.start()));
      await receiver.waitFor(before + 300, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids = receiver.received.slice(before).map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(300);
      expect(new Set(ids).size).toBe(300);
      const attempts = await server.db.prisma.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } });
      expect(attempts).toBe(300);
    } finally {
      await Promise.all(running.map((worker) => worker.stop()));
      await Promise.all(databases.map((db) => db.close()));
    }
  });
});
