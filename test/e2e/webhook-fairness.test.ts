// One slow receiver must not starve the others (issue 25 item 5). A receiver that accepts
// connections and never answers, beside a healthy one, both subscribed to every change: the healthy
// one's deliveries keep arriving within 2 s of their change, because a claim takes endpoints in turns
// and at most WEBHOOK_ENDPOINT_CONCURRENCY attempts (4 here, to scale with the worker's 8 slots) are in
// flight to one endpoint, 1 while it is failing. Worker slots are few here (8) and the time limit short (3 s), so that without the bound
// the hanging endpoint would hold every slot within a few changes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { WebhookWorker } from '../../subgraphs/workers/webhook-worker.ts';

const apps = '/api/v2/developer/apps/app_demo';
let server: TestServer;
let healthy: Receiver;
let hanging: Receiver;
let slow: Receiver;

beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  vi.stubEnv('WEBHOOK_TIMEOUT_MS', '3000');
  vi.stubEnv('WEBHOOK_CONCURRENCY', '8');
  vi.stubEnv('WEBHOOK_ENDPOINT_CONCURRENCY', '4');
  // Failed attempts come back after 1 s: the hanging endpoint always has due deliveries.
  vi.stubEnv('WEBHOOK_RETRY_SCHEDULE', '1,1,1,1,1,1,1,1');
  [healthy, hanging, slow] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
  hanging.answer = () => ({ status: 0, hang: true });
  slow.answer = () => ({ status: 200, delayMs: 300 });
  server = await startTestServer();
  // Only this file's endpoints receive.
  await server.db.prisma.webhookEndpoint.updateMany({ data: { status: 'disabled', disabledReason: 'manual' } });
});
afterAll(async () => {
  // Receivers first: closing the hanging one ends the worker's open attempts at once, rather than
  // the server's shutdown waiting out their time limit.
  await Promise.all([healthy, hanging, slow].map((receiver) => receiver?.close()));
  await server?.close();
  vi.unstubAllEnvs();
});

async function endpoint(url: string, subscribedEvents = ['stage.created']) {
  const created = await call(server.url, `${apps}/webhook-endpoints`, { method: 'POST', key: uniqueKey('fair'), body: { name: 'Fairness', url, subscribedEvents } });
  expect(created.status).toBe(201);
  return created.body.data.endpoint as { id: string; revision: number };
}

const CHANGES = 40;

describe('webhook fairness', () => {
  it('a receiver that never answers does not delay a healthy one: every change reaches it within 2 s', async () => {
    const slowOne = await endpoint(hanging.url);
    await endpoint(healthy.url);
    for (let i = 0; i < CHANGES; i++) {
      const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).revision;
      const created = await call(server.url, '/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key: uniqueKey(), body: { name: `Fair ${i} ${uniqueKey()}`, format: 'swiss', bestOf: 1 } });
      expect(created.status).toBe(201);
      // Spread over ~8 s, so that the hanging endpoint's attempts time out and come back meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await healthy.waitFor(CHANGES, 20_000);
    // Change time (the body's timestamp: when the change was written) to receipt.
    const latencies = healthy.received.map((request) => request.at - Date.parse((JSON.parse(request.body) as { timestamp: string }).timestamp));
    const worst = Math.max(...latencies);
    console.info(`webhook fairness: healthy receiver latency max ${worst} ms, median ${latencies.sort((a, b) => a - b)[latencies.length >> 1]} ms over ${latencies.length} deliveries; the hanging receiver had at most ${hanging.maxOpen} open at once`);
    expect(new Set(healthy.received.map((request) => request.headers['webhook-id'])).size).toBe(CHANGES);
    expect(worst).toBeLessThan(2000);

    // The hanging endpoint never held more than 4 slots, and once its first attempts had failed it
    // got one at a time.
    expect(hanging.received.length).toBeGreaterThan(4);
    expect(hanging.maxOpen).toBeLessThanOrEqual(4);
    expect(hanging.received.slice(4).every((request) => request.open === 1)).toBe(true);
    const failing = await server.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: slowOne.id } });
    expect(failing.failingSince).not.toBeNull();
    // Its waiting deliveries hold no lease: only the one being attempted does.
    const leased = await server.db.prisma.webhookDelivery.count({ where: { endpointId: slowOne.id, claimedUntil: { gt: new Date() } } });
    expect(leased).toBeLessThanOrEqual(1);
    const attempts = await server.db.prisma.webhookAttempt.findMany({ where: { delivery: { endpointId: slowOne.id } } });
    expect(attempts.filter((attempt) => attempt.errorCode === 'timeout').length).toBeGreaterThan(0);
    await server.db.prisma.webhookEndpoint.update({ where: { id: slowOne.id }, data: { status: 'disabled', disabledReason: 'manual' } });
  });

  it('holds the per-endpoint bound across workers: four workers never have more than 4 attempts open to one receiver', async () => {
    const target = await endpoint(slow.url, ['webhook.test']);
    for (let i = 0; i < CHANGES; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => call(server.url, `${apps}/webhook-endpoints/${target.id}/test`, { method: 'POST' })));
      expect(batch.every((response) => response.status === 201)).toBe(true);
    }
    // Three more workers beside the server's, each with 8 slots: 32 slots in all for one endpoint.
    const databases = server.db.url ? [0, 1, 2].map(() => openDatabase({ url: server.db.url!, poolSize: 4 })) : [];
    const workers = [0, 1, 2].map((i) => new WebhookWorker(databases[i] ?? server.db, { concurrency: 8 }));
    try {
      await Promise.all(workers.map((worker) => worker.start()));
      await slow.waitFor(CHANGES, 30_000);
      const ids = slow.received.map((request) => request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(CHANGES);
      // Reached, not exceeded: the bound is what limits here, not the slots.
      expect(slow.maxOpen).toBe(4);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(databases.map((db) => db.close()));
    }
  });
});
