// Webhooks end to end: a real receiver verifies every delivery with the standardwebhooks package.
// WEBHOOKS_ALLOW_LOCAL=1 lets the platform post to the receiver on 127.0.0.1 over http; the retry
// schedule is shortened to 1 s.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { setting } from '../../platform/process/config.ts';

const DEFAULT_RETRY_SCHEDULE = setting('WEBHOOK_RETRY_SCHEDULE', {});

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  vi.stubEnv('WEBHOOK_RETRY_SCHEDULE', '1,1,1');
  vi.stubEnv('WEBHOOK_TIMEOUT_MS', '1500');
  receiver = await startReceiver();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  vi.unstubAllEnvs();
});

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const apps = '/api/v2/developer/apps/app_demo';

async function createEndpoint(body: Record<string, unknown>, token = 'demo-token-app') {
  return call(server.url, `${apps}/webhook-endpoints`, { method: 'POST', token, key: uniqueKey('whe'), body: { name: 'Test', ...body } });
}

async function createStage(eventId = 'evt_open') {
  const response = await call(server.url, `/api/v2/events/${eventId}/stages`, { method: 'POST', ifMatch: await revisionOf(eventId), key: uniqueKey(), body: { name: `Hooked ${uniqueKey()}`, format: 'swiss', bestOf: 1 } });
  expect(response.status).toBe(201);
  return response.body.data.resourceId as string;
}

describe("the demo world's deliveries", () => {
  it('carry the attempt log their attemptCount says: numbered, spaced by the retry schedule, the last one the delivery\'s answer', async () => {
    for (const [id, count, status, lastStatus] of [['dlv_succeeded', 1, 'succeeded', 200], ['dlv_dead', 8, 'dead-letter', 500], ['dlv_retrying', 2, 'failed', 503]] as const) {
      const delivery = (await call(server.url, `${apps}/webhook-deliveries/${id}`)).body.data;
      expect(delivery).toMatchObject({ attemptCount: count, status, responseStatus: lastStatus });
      const attempts = (await call(server.url, `${apps}/webhook-deliveries/${id}/attempts?limit=100`)).body.data as Array<{ number: number; startedAt: string; durationMs: number; responseStatus: number | null; errorCode: string | null }>;
      expect(attempts.map((attempt) => attempt.number)).toEqual(Array.from({ length: count }, (_, index) => index + 1));
      const last = attempts.at(-1)!;
      expect([last.responseStatus, last.errorCode]).toEqual([delivery.responseStatus, delivery.errorCode]);
      // Each attempt after the delivery was created, each retry the default schedule's delay after the one before.
      expect(Date.parse(attempts[0].startedAt)).toBeGreaterThan(Date.parse(delivery.createdAt));
      attempts.slice(1).forEach((attempt, index) => {
        expect((Date.parse(attempt.startedAt) - Date.parse(attempts[index].startedAt)) / 1000).toBe(DEFAULT_RETRY_SCHEDULE[index]);
      });
      expect(Date.parse(delivery.updatedAt)).toBe(Date.parse(last.startedAt) + last.durationMs);
      if (status === 'succeeded') expect(delivery.deliveredAt).toBe(delivery.updatedAt);
      for (const attempt of attempts) {
        expect(attempt.errorCode).toBe(attempt.responseStatus === null ? 'timeout' : attempt.responseStatus < 300 ? null : 'http_error');
      }
    }
  });
});

describe('webhooks', () => {
  it('creates an endpoint, fans a change out to it, and signs the delivery so that standardwebhooks verifies it', async () => {
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const created = await createEndpoint({ url: receiver.url, subscribedEvents: ['stage.created'] });
    expect(created.status).toBe(201);
    const { endpoint, secret } = created.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ applicationId: 'app_demo', status: 'active', subscribedEvents: ['stage.created'], revision: 1 });

    const before = receiver.received.length;
    const stageId = await createStage();
    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    const payload = new Webhook(secret).verify(request.body, request.headers) as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe('stage.created');
    expect(payload.data).toMatchObject({ organisationId: 'org_demo', eventId: 'evt_open', resourceType: 'stage', resourceId: stageId });

    // The delivery log has it, succeeded, with one attempt.
    const id = request.headers['webhook-id'];
    let delivery;
    for (let i = 0; i < 40; i++) {
      delivery = (await call(server.url, `${apps}/webhook-deliveries/${id}`)).body.data;
      if (delivery.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivery).toMatchObject({ id, endpointId: endpoint.id, eventType: 'stage.created', status: 'succeeded', attemptCount: 1, responseStatus: 200, installationId: 'ins_demo_org' });
    const attempts = await call(server.url, `${apps}/webhook-deliveries/${id}/attempts`);
    expect(attempts.body.data).toHaveLength(1);
    expect(attempts.body.data[0]).toMatchObject({ number: 1, responseStatus: 200, errorCode: null, responseBody: 'ok' });
  });

  /** The delivery once it has reached one of `statuses`. */
  async function settled(id: string, statuses: string[], timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const delivery = (await call(server.url, `${apps}/webhook-deliveries/${id}`)).body.data;
      if (statuses.includes(delivery.status) || Date.now() > deadline) return delivery;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A fresh endpoint for stage.created only; every other endpoint of app_demo is disabled first. */
  async function soleEndpoint(url = receiver.url) {
    const list = await call(server.url, `${apps}/webhook-endpoints?limit=100`);
    for (const endpoint of list.body.data) {
      if (endpoint.status === 'active') {
        const patched = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}`, { method: 'PATCH', ifMatch: endpoint.revision, body: { status: 'disabled' } });
        expect(patched.status).toBe(200);
      }
    }
    const created = await createEndpoint({ url, subscribedEvents: ['stage.created'] });
    expect(created.status).toBe(201);
    return created.body.data as { endpoint: { id: string; revision: number }; secret: string };
  }

  it('retries a failing receiver on the schedule with the same webhook-id, then succeeds', async () => {
    const { secret } = await soleEndpoint();
    let calls = 0;
    receiver.answer = () => (++calls <= 2 ? { status: 500, body: 'not yet' } : { status: 200, body: 'ok' });
    const before = receiver.received.length;
    await createStage();
    const requests = (await receiver.waitFor(before + 3)).slice(before, before + 3);
    const ids = new Set(requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of requests) new Webhook(secret).verify(request.body, request.headers);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(700); // 1 s ± 20 %
    const delivery = await settled([...ids][0], ['succeeded']);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 3, responseStatus: 200, errorCode: null });
    const attempts = (await call(server.url, `${apps}/webhook-deliveries/${delivery.id}/attempts`)).body.data;
    expect(attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 500, 200]);
    expect(attempts[0]).toMatchObject({ errorCode: 'http_error', responseBody: 'not yet' });
  });

  it('honours Retry-After on 429, dead-letters after the last attempt, and disables the endpoint on 410', async () => {
    await soleEndpoint();
    receiver.answer = (_request, index) => (index % 2 === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 });
    let before = receiver.received.length;
    await createStage();
    const [first, second] = (await receiver.waitFor(before + 2)).slice(before);
    expect(second.at - first.at).toBeGreaterThanOrEqual(2900);

    receiver.answer = () => ({ status: 503, body: 'down' });
    before = receiver.received.length;
    await createStage();
    const failing = (await receiver.waitFor(before + 1)).slice(before)[0].headers['webhook-id'];
    const dead = await settled(failing, ['dead-letter']);
    expect(dead).toMatchObject({ status: 'dead-letter', attemptCount: 4, responseStatus: 503, errorCode: 'http_error' });

    const { endpoint } = await soleEndpoint();
    receiver.answer = () => ({ status: 410, body: 'gone' });
    before = receiver.received.length;
    await createStage();
    const gone = (await receiver.waitFor(before + 1)).slice(before)[0].headers['webhook-id'];
    expect(await settled(gone, ['dead-letter'])).toMatchObject({ status: 'dead-letter', responseStatus: 410, attemptCount: 1 });
    const after = (await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}`)).body.data;
    expect(after).toMatchObject({ status: 'disabled', disabledReason: 'gone', revision: endpoint.revision + 1 });
  });

  it('disables an endpoint that has failed for 5 days, and a success clears the failing clock', async () => {
    const { endpoint } = await soleEndpoint();
    receiver.answer = () => ({ status: 500 });
    await server.db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: new Date(Date.now() - 6 * 86_400_000) } });
    const before = receiver.received.length;
    await createStage();
    const id = (await receiver.waitFor(before + 1)).slice(before)[0].headers['webhook-id'];
    await settled(id, ['failed', 'dead-letter']);
    let after;
    for (let i = 0; i < 40 && after?.status !== 'disabled'; i++) {
      after = (await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}`)).body.data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    // Turned back on, a success clears failingSince.
    receiver.answer = () => ({ status: 200 });
    const enabled = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}`, { method: 'PATCH', ifMatch: after.revision, body: { status: 'active' } });
    expect(enabled.body.data).toMatchObject({ status: 'active', disabledReason: null });
    expect((await server.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).toBeNull();
  });

  it('records a timeout', async () => {
    await soleEndpoint();
    receiver.answer = () => ({ status: 200, delayMs: 4000 });
    const before = receiver.received.length;
    await createStage();
    const id = (await receiver.waitFor(before + 1)).slice(before)[0].headers['webhook-id'];
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const attempts = (await call(server.url, `${apps}/webhook-deliveries/${id}/attempts`)).body.data;
    expect(attempts[0]).toMatchObject({ number: 1, errorCode: 'timeout', responseStatus: null });
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(1400);
  });

  it('refuses SSRF targets at creation, and a name that resolves to loopback at delivery', async () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '0');
    try {
      for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.0.0.1/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'https://[::ffff:127.0.0.1]/x', 'https://224.0.0.1/x', 'not a url',
        'https://localhost./x', 'https://hooks.localhost./x', 'https://[::127.0.0.1]/x', 'https://[::ffff:7f00:1]/x', 'https://0.0.0.0/x', 'https://2130706433/x', 'https://0x7f.1/x']) {
        const response = await createEndpoint({ url, subscribedEvents: ['stage.created'] });
        expect(response.status, url).toBe(400);
        expect(response.body.error.details[0].field).toBe('url');
      }
      // A change of URL is checked the same way.
      const current = (await call(server.url, `${apps}/webhook-endpoints/whe_demo`)).body.data;
      const patched = await call(server.url, `${apps}/webhook-endpoints/whe_demo`, { method: 'PATCH', ifMatch: current.revision, body: { url: 'https://localhost./x' } });
      expect(patched.status).toBe(400);
      expect(patched.body.error.details[0].field).toBe('url');
    } finally {
      vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
    }
    // Private and link-local stay refused even when local targets are allowed.
    for (const url of ['https://10.0.0.1/x', 'https://192.168.1.1/x', 'https://169.254.169.254/x']) {
      expect((await createEndpoint({ url, subscribedEvents: ['stage.created'] })).status, url).toBe(400);
    }
    // Saved while loopback was allowed; at delivery it no longer is: the resolved address is checked.
    const { endpoint } = await soleEndpoint(receiver.url.replace('127.0.0.1', 'localhost'));
    const before = receiver.received.length;
    vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '0');
    try {
      await createStage();
      let delivery;
      for (let i = 0; i < 100 && !delivery?.attemptCount; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        delivery = (await call(server.url, `${apps}/webhook-deliveries?endpointId=${endpoint.id}`)).body.data[0];
      }
      expect(delivery).toMatchObject({ errorCode: 'blocked_address', responseStatus: null });
      expect(receiver.received.length).toBe(before);
    } finally {
      vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
    }
  });

  it('rotation: for the overlap both the old and the new secret verify a delivery', async () => {
    receiver.answer = () => ({ status: 200 });
    const { endpoint, secret: old } = await soleEndpoint();
    const rotated = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret;
    expect(fresh).not.toBe(old);
    const before = receiver.received.length;
    const test = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' });
    expect(test.status).toBe(201);
    expect(test.body.data).toMatchObject({ eventType: 'webhook.test', status: 'pending', endpointId: endpoint.id });
    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(request.body, request.headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(fresh).verify(request.body, request.headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => new Webhook(`whsec_${Buffer.from('someone else').toString('base64')}`).verify(request.body, request.headers)).toThrow();
    // Reads never show a secret.
    const read = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}`);
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    expect(read.headers.get('etag')).toBe(`"${rotated.body.data.endpoint.revision}"`);
  });

  it('redelivers a terminal delivery once per key; other statuses are a conflict', async () => {
    const key = uniqueKey('redeliver');
    const first = await call(server.url, `${apps}/webhook-deliveries/dlv_succeeded/redeliver`, { method: 'POST', key });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ redeliveryOf: 'dlv_succeeded', status: 'pending', attemptCount: 0, endpointId: 'whe_demo', eventType: 'event.published' });
    expect(first.body.data.id).not.toBe('dlv_succeeded');
    const again = await call(server.url, `${apps}/webhook-deliveries/dlv_succeeded/redeliver`, { method: 'POST', key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await call(server.url, `${apps}/webhook-deliveries/dlv_succeeded`)).body.data).toMatchObject({ status: 'succeeded', redeliveryOf: null });
    expect((await call(server.url, `${apps}/webhook-deliveries/dlv_dead/redeliver`, { method: 'POST', key: uniqueKey() })).status).toBe(201);
    const conflict = await call(server.url, `${apps}/webhook-deliveries/dlv_retrying/redeliver`, { method: 'POST', key: uniqueKey() });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('conflict');
    expect((await call(server.url, `${apps}/webhook-deliveries/dlv_succeeded/redeliver`, { method: 'POST' })).status).toBe(400);
    expect((await call(server.url, `${apps}/webhook-deliveries/dlv_nope/redeliver`, { method: 'POST', key: uniqueKey() })).status).toBe(404);
  });

  it('recover re-queues failed and dead-letter deliveries since a time', async () => {
    const recovered = await call(server.url, `${apps}/webhook-endpoints/whe_demo/recover`, { method: 'POST', body: { since: '2000-01-01T00:00:00Z' } });
    expect(recovered.status).toBe(200);
    expect(recovered.body.data.endpointId).toBe('whe_demo');
    expect(recovered.body.data.requeued).toBeGreaterThanOrEqual(1);
    expect((await call(server.url, `${apps}/webhook-endpoints/whe_demo/recover`, { method: 'POST', body: { since: 'yesterday' } })).status).toBe(400);
  });

  it('validates: event types, Idempotency-Key, If-Match, the 25-endpoint limit', async () => {
    const unknown = await createEndpoint({ url: 'https://hooks.example.com/x', subscribedEvents: ['stage.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].field).toContain('subscribedEvents');
    const noKey = await call(server.url, `${apps}/webhook-endpoints`, { method: 'POST', body: { name: 'x', url: 'https://hooks.example.com/x', subscribedEvents: ['stage.created'] } });
    expect(noKey.status).toBe(400);
    const noIfMatch = await call(server.url, `${apps}/webhook-endpoints/whe_demo`, { method: 'PATCH', body: { name: 'Renamed' } });
    expect(noIfMatch.status).toBe(428);
    const stale = await call(server.url, `${apps}/webhook-endpoints/whe_demo`, { method: 'PATCH', ifMatch: 999, body: { name: 'Renamed' } });
    expect(stale.status).toBe(412);
    const current = (await call(server.url, `${apps}/webhook-endpoints/whe_demo`)).body.data;
    const renamed = await call(server.url, `${apps}/webhook-endpoints/whe_demo`, { method: 'PATCH', ifMatch: current.revision, body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', revision: current.revision + 1 });

    // app_noesports starts with none: of 40 concurrent creations exactly 25 are accepted (each waits
    // for the application's lock, then counts what the others committed), the rest are refused.
    const create = (n: number) =>
      call(server.url, '/api/v2/developer/apps/app_noesports/webhook-endpoints', { method: 'POST', token: 'demo-token-noesports', key: uniqueKey(`limit${n}`), body: { name: `E${n}`, url: `https://hooks.example.com/${n}`, subscribedEvents: ['stage.created'] } });
    const noesports = '/api/v2/developer/apps/app_noesports/webhook-endpoints';
    // Three rounds: the race the limit once lost showed in about one run of three.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => create(round * 100 + n)));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(25);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(refused.map((answer) => [answer.status, answer.body.error.details[0].issue])).toEqual(Array(15).fill([400, 'limit_exceeded']));
      const listed = await call(server.url, `${noesports}?limit=100`, { token: 'demo-token-noesports' });
      expect(listed.body.data).toHaveLength(25);
      if (round < 2) {
        for (const endpoint of listed.body.data as { id: string }[]) {
          expect((await call(server.url, `${noesports}/${endpoint.id}`, { method: 'DELETE', token: 'demo-token-noesports' })).status).toBe(200);
        }
      }
    }
    const over = await create(1000);
    expect(over.status).toBe(400);
    expect(over.body.error.details[0].issue).toBe('limit_exceeded');
  });

  it('authorises every route: another application is 404, a user who does not manage the owner is 403', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `${apps}/webhook-endpoints`],
      ['GET', `${apps}/webhook-endpoints/whe_demo`],
      ['PATCH', `${apps}/webhook-endpoints/whe_demo`, { name: 'x' }],
      ['DELETE', `${apps}/webhook-endpoints/whe_demo`],
      ['POST', `${apps}/webhook-endpoints/whe_demo/rotate-secret`],
      ['POST', `${apps}/webhook-endpoints/whe_demo/test`],
      ['POST', `${apps}/webhook-endpoints/whe_demo/recover`, { since: '2020-01-01T00:00:00Z' }],
      ['GET', `${apps}/webhook-deliveries`],
      ['GET', `${apps}/webhook-deliveries/dlv_succeeded`],
      ['GET', `${apps}/webhook-deliveries/dlv_succeeded/attempts`],
      ['POST', `${apps}/webhook-deliveries/dlv_succeeded/redeliver`],
      ['POST', `${apps}/webhook-endpoints`, { name: 'x', url: 'https://hooks.example.com/x', subscribedEvents: ['stage.created'] }],
    ];
    for (const [method, path, body] of routes) {
      const other = await call(server.url, path, { method, token: 'demo-token-noesports', key: uniqueKey(), ifMatch: method === 'PATCH' ? 1 : undefined, body });
      expect(other.status, `${method} ${path}`).toBe(404);
      const dave = await call(server.url, path, { method, token: 'demo-token-dave', key: uniqueKey(), ifMatch: method === 'PATCH' ? 1 : undefined, body });
      expect(dave.status, `${method} ${path}`).toBe(403);
      expect((await call(server.url, path, { method, token: null, key: uniqueKey(), ifMatch: method === 'PATCH' ? 1 : undefined, body })).status).toBe(401);
    }
    // alice administers org_demo, which owns app_demo.
    expect((await call(server.url, `${apps}/webhook-endpoints`, { token: 'demo-token-alice' })).status).toBe(200);
    const catalogue = await call(server.url, '/api/v2/developer/webhook-event-types', { token: null });
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.data.map((type: { name: string }) => type.name)).toEqual(expect.arrayContaining(['stage.created', 'event.published', 'webhook.test']));
  });

  it('the same operations on /graphql: catalogue, endpoints and deliveries of the application, creation', async () => {
    const graphql = async (query: string, variables: Record<string, unknown> = {}, token = 'demo-token-app') => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: Record<string, any>; errors?: Array<{ extensions: { code: string } }> };
    };
    const read = await graphql(`{ webhookEventTypes { name payloadSchema } application(id: "app_demo") { webhookEndpoints(limit: 100) { data { id status } } webhookDeliveries(limit: 5) { data { id status } meta { hasMore } } webhookDelivery(id: "dlv_succeeded") { id status redeliveryOf attempts { data { number } } } } }`);
    expect(read.errors).toBeUndefined();
    expect(read.data!.webhookEventTypes.find((type: { name: string }) => type.name === 'stage.created').payloadSchema.properties.type).toEqual({ const: 'stage.created' });
    expect(read.data!.application.webhookEndpoints.data.length).toBeGreaterThan(0);
    expect(read.data!.application.webhookDeliveries.data).toHaveLength(5);
    expect(read.data!.application.webhookDelivery).toMatchObject({ id: 'dlv_succeeded', status: 'succeeded', redeliveryOf: null });
    const created = await graphql(
      `mutation ($input: CreateWebhookEndpointInput!, $key: String!) { createWebhookEndpoint(appId: "app_demo", input: $input, idempotencyKey: $key) { secret endpoint { id status } } }`,
      { input: { name: 'GraphQL', url: 'https://hooks.example.com/graphql', subscribedEvents: ['event.published'] }, key: uniqueKey('gql') },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createWebhookEndpoint.secret).toMatch(/^whsec_/);
    const refused = await graphql(`{ application(id: "app_demo") { webhookEndpoints { data { id } } } }`, {}, 'demo-token-noesports');
    expect(refused.errors?.[0].extensions.code).toBe('not_found');
  });
});
