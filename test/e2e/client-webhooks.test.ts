// verifyWebhook against what the platform's webhook worker really signs: a receiver made with the
// client creates its endpoint through the client, a change is delivered to it over HTTP, and the
// delivery verifies with the endpoint's secret — and, after a rotation (two signatures), with the new
// secret, the old one, or both held; a body altered in transit, a wrong secret or a stale timestamp
// does not. WEBHOOKS_ALLOW_LOCAL=1 lets the platform post to the receiver on 127.0.0.1 over http.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createClient, verifyWebhook, WebhookVerificationError } from '@esports-platform/client';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  vi.stubEnv('WEBHOOK_RETRY_SCHEDULE', '1,1,1');
  receiver = await startReceiver();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  vi.unstubAllEnvs();
});

describe('verifyWebhook', () => {
  it('verifies real deliveries, before and after a secret rotation; refuses altered ones', async () => {
    const api = createClient({ baseUrl: server.url, credentials: { accessToken: 'demo-token-app' } });
    const app = { params: { path: { appId: 'app_demo' } } };
    // Only this endpoint receives: the demo world's others are disabled.
    for await (const endpoint of api.items('/api/v2/developer/apps/{appId}/webhook-endpoints', app)) {
      if (endpoint.status !== 'active') continue;
      const read = await api.get('/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}', { params: { path: { appId: 'app_demo', endpointId: endpoint.id } } });
      await api.patch('/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}', { params: { path: { appId: 'app_demo', endpointId: endpoint.id } }, ifMatch: read, body: { status: 'disabled' } });
    }
    const created = await api.post('/api/v2/developer/apps/{appId}/webhook-endpoints', { ...app, body: { name: 'Client receiver', url: receiver.url, subscribedEvents: ['stage.created'] } });
    const { endpoint, secret } = created.data;
    const endpointPath = { params: { path: { appId: 'app_demo', endpointId: endpoint.id } } };

    const createStage = async (name: string) => {
      const event = await api.get('/api/v2/events/{eventId}', { params: { path: { eventId: 'evt_open' } } });
      return (await api.post('/api/v2/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' } }, ifMatch: event, body: { name, format: 'swiss', bestOf: 1 } })).data.resourceId;
    };
    const stageId = await createStage('Hooked by the client');
    const [delivery] = await receiver.waitFor(1);
    const verified = verifyWebhook(delivery.body, delivery.headers, secret);
    expect(verified).toMatchObject({ type: 'stage.created', webhookId: delivery.headers['webhook-id'], data: { eventId: 'evt_open', resourceType: 'stage', resourceId: stageId } });
    expect(verified.webhookId).toMatch(/^dlv_/);
    // The Fetch API's Headers work as well as Node's header object.
    expect(verifyWebhook(Buffer.from(delivery.body), new Headers(delivery.headers), secret).type).toBe('stage.created');

    // Altered, signed with another secret, or replayed long after: refused.
    expect(() => verifyWebhook(delivery.body.replace('Hooked', 'Hacked'), delivery.headers, secret)).toThrow(WebhookVerificationError);
    const stranger = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
    expect(() => verifyWebhook(delivery.body, delivery.headers, stranger)).toThrow(WebhookVerificationError);
    const old = Math.floor(Date.now() / 1000) - 600;
    const stale = new Webhook(secret).sign(delivery.headers['webhook-id'], new Date(old * 1000), delivery.body);
    expect(() => verifyWebhook(delivery.body, { ...delivery.headers, 'webhook-timestamp': String(old), 'webhook-signature': stale }, secret)).toThrow(/timestamp/i);

    // A rotation: deliveries carry two signatures for a day; either secret verifies, and a receiver may hold both.
    const rotated = await api.post('/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}/rotate-secret', endpointPath);
    const next = rotated.data.secret;
    expect(next).not.toBe(secret);
    await createStage('Hooked after the rotation');
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(second.body, second.headers, next).type).toBe('stage.created');
    expect(verifyWebhook(second.body, second.headers, secret).type).toBe('stage.created');
    expect(verifyWebhook(second.body, second.headers, [stranger, next]).type).toBe('stage.created');
    expect(() => verifyWebhook(second.body, second.headers, [stranger])).toThrow(WebhookVerificationError);
  });
});
