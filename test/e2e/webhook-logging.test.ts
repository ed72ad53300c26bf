// The worker logs every delivery attempt at info: the delivery, the endpoint, the URL's host, the
// attempt's number, the receiver's status (or why none came), how long it took and what became of
// the delivery. Never the payload, the signature, the secret, or the URL's path and query (a
// receiver may put a token there). Captured from the server's own pino logger.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, uniqueKey } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const apps = '/api/v2/developer/apps/app_demo';
const lines: string[] = [];
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  // A failed attempt comes back after 1 s, and the third is the last.
  vi.stubEnv('WEBHOOK_RETRY_SCHEDULE', '1,1');
  receiver = await startReceiver('/hook');
  const capture = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  server = await startTestServer({ logger: pino({ level: 'info' }, capture) });
  // Only this file's endpoint receives.
  await server.db.prisma.webhookEndpoint.updateMany({ data: { status: 'disabled', disabledReason: 'manual' } });
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
  vi.unstubAllEnvs();
});

const attemptsOf = (deliveryId: string) =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'webhook delivery attempt' && entry.deliveryId === deliveryId);

async function waitFor<T>(read: () => T[], count: number): Promise<T[]> {
  const deadline = Date.now() + 15_000;
  while (read().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return read();
}

describe('webhook delivery log', () => {
  it('logs each attempt at info with endpoint, host, status and duration, and nothing secret', async () => {
    const url = `${receiver.url}?token=receiver-s3cret`;
    const created = await call(server.url, `${apps}/webhook-endpoints`, { method: 'POST', key: uniqueKey('log'), body: { name: 'Logged', url, subscribedEvents: ['stage.created'] } });
    expect(created.status).toBe(201);
    const { endpoint, secret } = created.body.data as { endpoint: { id: string }; secret: string };
    // A failure first (a 500 with a body), then a refusal, then a success.
    receiver.answer = (_request, index) => (index === 0 ? { status: 500, body: 'receiver-internal-detail' } : index === 1 ? { status: 503, body: 'busy' } : { status: 204 });
    const queued = await call(server.url, `${apps}/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' });
    expect(queued.status).toBe(201);
    const deliveryId = queued.body.data.id as string;

    const attempts = await waitFor(() => attemptsOf(deliveryId), 3);
    expect(attempts).toHaveLength(3);
    const host = new URL(receiver.url).host;
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, 'failed'],
      [2, 503, 'failed'],
      [3, 204, 'succeeded'],
    ]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ level: 30, endpointId: endpoint.id, host, deliveryId });
      expect(typeof attempt.durationMs).toBe('number');
    }
    expect(attempts[0]).toMatchObject({ errorCode: 'http_error', nextAttemptInSeconds: expect.any(Number) });
    expect(attempts[2]).toMatchObject({ errorCode: null, nextAttemptInSeconds: null });

    // The stored attempt log says the same.
    const stored = await call(server.url, `${apps}/webhook-deliveries/${deliveryId}/attempts`);
    expect(stored.body.data.map((a: { number: number; responseStatus: number }) => [a.number, a.responseStatus])).toEqual([
      [1, 500],
      [2, 503],
      [3, 204],
    ]);

    const logged = lines.filter((line) => line.includes(deliveryId) || line.includes(endpoint.id)).join('\n');
    for (const secretText of [secret, 'receiver-s3cret', 'receiver-internal-detail', 'webhook-signature', receiver.received[0].headers['webhook-signature'], '"webhook.test"']) {
      expect(logged, secretText).not.toContain(secretText);
    }
  }, 30_000);

  it('logs an attempt that got no answer with its error code and a null status', async () => {
    const created = await call(server.url, `${apps}/webhook-endpoints`, { method: 'POST', key: uniqueKey('log'), body: { name: 'Nobody home', url: 'http://127.0.0.1:9/hook', subscribedEvents: ['stage.created'] } });
    expect(created.status).toBe(201);
    const queued = await call(server.url, `${apps}/webhook-endpoints/${created.body.data.endpoint.id}/test`, { method: 'POST' });
    const [first] = await waitFor(() => attemptsOf(queued.body.data.id), 1);
    expect(first).toMatchObject({ attempt: 1, status: null, errorCode: 'connection_refused', outcome: 'failed', host: '127.0.0.1:9' });
  }, 30_000);
});
