// The client's gateway subscriptions resume from their last cursor across reconnects. The subscriber
// reaches the server through a TCP proxy that cuts every connection now and then (neither end closes
// cleanly, as when a network drops), and once the server itself is replaced by another over the same
// database (the first closes its sockets with 1001). Meanwhile a writer reports a match, one change
// per write: every change arrives once, in order, none lost across the drops, and the same list the
// gateway replays afterwards to a fresh subscriber from the first cursor.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, GatewayError, graphql } from '@esports-platform/client';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/** A TCP proxy whose target can change and whose connections can be cut. */
async function startProxy(target: () => number) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const proxy = net.createServer((client) => {
    connections++;
    const upstream = net.connect(target(), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

const portOf = (server: TestServer) => Number(new URL(server.url).port);
const changes = graphql(`
  subscription ClientResume($after: String) {
    eventChanged(eventId: "evt_live", after: $after) { cursor type revision }
  }
`);

let db: TestDatabase;
let servers: TestServer[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  servers.push(await startTestServer({ db, webhookWorker: false }));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await db?.drop();
});

describe('gateway subscriptions', () => {
  it('resume from the last cursor across dropped connections and a server replaced: no change lost or twice', async () => {
    let current = servers[0];
    const proxy = await startProxy(() => portOf(current));
    const subscriber = createClient({ baseUrl: proxy.url, credentials: { apiKey: 'demo-org-key-0001' }, gateway: { webSocketImpl: WebSocket, reconnectDelayMs: () => 50 } });
    const subscription = subscriber.subscribe(changes, {});
    const received: { cursor: string; revision: number | null; type: string }[] = [];
    const consumed = (async () => {
      for await (const change of subscription) received.push(change);
    })();

    const writer = () => createClient({ baseUrl: current.url, credentials: { accessToken: 'demo-token-app' } });
    const match = { params: { path: { eventId: 'evt_live', matchId: 'mtc_live_b_101' } } };
    let etag = (await writer().get('/api/v2/events/{eventId}', { params: { path: { eventId: 'evt_live' } } })).etag;
    let score = 0;
    const write = async () => {
      const result = await writer().patch('/api/v2/events/{eventId}/matches/{matchId}', { ...match, ifMatch: etag, body: { scoreA: ++score } });
      etag = result.etag;
      return result.data.revision;
    };
    // The subscription starts from now: write until its first message shows it is live.
    while (received.length === 0) {
      await write();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const first = received[0];
    const WRITES = 60;
    let last = 0;
    for (let n = 1; n <= WRITES; n++) {
      last = await write();
      if (n % 12 === 0) proxy.cut();
      if (n === 30) {
        // Another server over the same database takes over; the first closes its sockets (1001).
        const next = await startTestServer({ db, webhookWorker: false });
        servers.push(next);
        current = next;
        await servers[0].close();
        servers = servers.slice(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const deadline = Date.now() + 20_000;
    while ((received.at(-1)?.revision ?? 0) < last && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    subscription.close();
    await consumed;
    await subscriber.close();

    expect(proxy.connections).toBeGreaterThanOrEqual(6);
    const revisions = received.map((change) => change.revision!);
    expect(revisions.at(-1)).toBe(last);
    expect(new Set(received.map((change) => change.cursor)).size).toBe(received.length);
    // One change per write, every one of them, in order.
    const afterFirst = revisions.slice(revisions.indexOf(first.revision!));
    expect(afterFirst).toEqual(Array.from({ length: last - first.revision! + 1 }, (_, i) => first.revision! + i));
    expect(subscription.cursor).toBe(received.at(-1)!.cursor);

    // What the gateway replays from the first cursor to a fresh subscriber is the same list.
    const replayer = createClient({ baseUrl: current.url, credentials: { apiKey: 'demo-org-key-0001' }, gateway: { webSocketImpl: WebSocket } });
    const replay: string[] = [];
    for await (const change of replayer.subscribe(changes, {}, { after: first.cursor })) {
      replay.push(change.cursor);
      if (replay.length === received.length - 1) break;
    }
    await replayer.close();
    expect(replay).toEqual(received.slice(1).map((change) => change.cursor));
    await proxy.close();
  }, 90_000);

  it('ends with a GatewayError when the gateway refuses the subscription for good, or the credential', async () => {
    const api = createClient({ baseUrl: servers[0].url, credentials: { apiKey: 'demo-org-key-0001' }, gateway: { webSocketImpl: WebSocket } });
    const other = api.subscribe(graphql('subscription ($after: String) { eventChanged(eventId: "evt_rival", after: $after) { cursor } }'), {});
    const refused = await other.next().catch((error) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused.code).toBe('not_found');
    const expired = await api.subscribe(changes, {}, { after: 'not-a-cursor' }).next().catch((error) => error);
    expect(expired).toMatchObject({ code: 'validation_failed' });
    await api.close();
    const stranger = createClient({ baseUrl: servers[0].url, credentials: { apiKey: 'not-a-key' }, gateway: { webSocketImpl: WebSocket } });
    const closed = await stranger.subscribe(changes, {}).next().catch((error) => error);
    expect(closed).toMatchObject({ code: 'closed', closeCode: 4403 });
    await stranger.close();
  });

  it('a stand-in gateway that refuses with an unusable retryAfter, or floods a loop that does not read: bounded waits, a bounded queue', async () => {
    // A graphql-transport-ws server of a few lines: the real gateway never sends these.
    const { WebSocketServer } = await import('ws');
    let subscribes = 0;
    let mode: 'refuse' | 'flood' = 'refuse';
    const stand = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'graphql-transport-ws' });
    stand.on('connection', (socket) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (message.type !== 'subscribe') return;
        subscribes++;
        if (mode === 'refuse') socket.send(JSON.stringify({ id: message.id, type: 'error', payload: [{ message: 'Slow down.', extensions: { code: 'rate_limited', retryAfter: 0 } }] }));
        else for (let i = 0; i < 50; i++) socket.send(JSON.stringify({ id: message.id, type: 'next', payload: { data: { eventChanged: { cursor: `c${i}` } } } }));
      });
    });
    await new Promise((resolve) => stand.once('listening', resolve));
    const base = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
    try {
      const api = createClient({ baseUrl: base, credentials: { apiKey: 'k' }, gateway: { webSocketImpl: WebSocket, maxQueued: 10 } });
      const refused = api.subscribe(changes, {});
      await new Promise((resolve) => setTimeout(resolve, 2500));
      // retryAfter 0 waits 1 s, then 2 s: not a loop.
      expect(subscribes).toBeLessThanOrEqual(3);
      refused.close();
      mode = 'flood';
      const flooded = api.subscribe(changes, {});
      await new Promise((resolve) => setTimeout(resolve, 500));
      const taken: string[] = [];
      const error = await (async () => {
        for await (const message of flooded) taken.push(message.cursor);
      })().catch((e) => e);
      expect(taken).toHaveLength(10);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error.code).toBe('consumer_too_slow');
      expect(flooded.cursor).toBe('c9');
      await api.close();
    } finally {
      await new Promise((resolve) => stand.close(resolve));
    }
  });
});
