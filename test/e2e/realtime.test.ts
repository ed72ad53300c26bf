// The realtime gateway end to end with the graphql-ws client: credentials, every subscription, errors
// that leave the socket open, resuming with a cursor without loss under concurrent writers, and
// revocation closing sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';
import { updateMaps } from '../../subgraphs/competitions/maps-update.ts';

let server: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await server?.close();
});

const KEY = 'demo-org-key-0001';
const wsUrl = (path: string) => server.url.replace(/^http/, 'ws') + path;

interface Opened {
  client: Client;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(path: '/graphql' | '/api/v1/gateway', connectionParams: Record<string, unknown>): Opened {
  let onClosed!: (event: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: wsUrl(path),
    webSocketImpl: WebSocket,
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    on: { closed: (event) => onClosed({ code: (event as { code: number }).code, reason: String((event as { reason: unknown }).reason) }) },
    onNonLazyError: () => undefined,
  });
  clients.push(client);
  return { client, closed };
}

/** Collects a subscription's messages; `error` holds a subscription error. */
function collect(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const messages: ExecutionResult<Record<string, Record<string, unknown>>>[] = [];
  const state: { error?: unknown; complete: boolean } = { complete: false };
  const dispose = client.subscribe<Record<string, Record<string, unknown>>>(
    { query, variables },
    { next: (message) => void messages.push(message), error: (error) => (state.error = error), complete: () => (state.complete = true) },
  );
  return { messages, state, dispose };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
async function write(method: string, path: string, body: unknown) {
  const eventId = /\/events\/([^/]+)/.exec(path)![1];
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await call(server.url, path, { method, body, ifMatch: await revisionOf(eventId), key: `rt-${Math.random()}` });
    if (response.status !== 412) return response;
  }
  throw new Error('the event kept moving');
}

describe('connecting', () => {
  it('closes with 4403 on a missing, unknown or revoked credential, on both paths', async () => {
    for (const [path, params] of [
      ['/graphql', {}],
      ['/graphql', { authorization: 'Bearer nope' }],
      ['/api/v1/gateway', { apiKey: 'nope' }],
      ['/api/v1/gateway', { authorization: 'Bearer demo-token-app' }],
    ] as const) {
      const { closed } = connect(path, params);
      expect((await closed).code, `${path} ${JSON.stringify(params)}`).toBe(4403);
    }
  });
});

describe('subscriptions', () => {
  it('streams an event’s changes to a key, with cursor, type, occurredAt and the event selected through the graph', async () => {
    const { client } = connect('/api/v1/gateway', { apiKey: KEY });
    const sub = collect(client, 'subscription { eventChanged(eventId: "evt_open") { cursor type occurredAt revision resourceType resourceId e: event { id name rev: revision organisation { name } } } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await write('PATCH', '/api/v2/events/evt_open/matches/mtc_open_2', { streamUrl: 'https://twitch.example.test/rt' })).status).toBe(200);
    await until(() => sub.messages.length === 1, 'the change');
    const change = sub.messages[0].data!.eventChanged;
    expect(change).toMatchObject({ type: 'match.updated', resourceType: 'match', resourceId: 'mtc_open_2', e: { id: 'evt_open', name: 'Demo Open', organisation: { name: expect.any(String) } } });
    expect(change.cursor).toMatch(/^cf1\./);
    expect((change.e as { rev: number }).rev).toBe(change.revision);
    expect(new Date(change.occurredAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    sub.dispose();
  });

  it('answers an error for a subscription the caller may not see, and keeps the socket open', async () => {
    const { client, closed } = connect('/api/v1/gateway', { apiKey: KEY });
    const other = collect(client, 'subscription { eventChanged(eventId: "evt_rival") { cursor } }');
    const unknown = collect(client, 'subscription { matchChanged(eventId: "evt_open", matchId: "mtc_nope") { cursor } }');
    const badCursor = collect(client, 'subscription { eventChanged(eventId: "evt_open", after: "nope") { cursor } }');
    const notSubscription = collect(client, '{ __typename }');
    await until(() => [other, unknown, badCursor, notSubscription].every((s) => s.state.error), 'the errors');
    expect(JSON.stringify(other.state.error)).toContain('not_found');
    expect(JSON.stringify(badCursor.state.error)).toContain('invalid_cursor');
    // Still open: a valid subscription works on the same socket.
    const fine = collect(client, 'subscription { broadcastChanged(eventId: "evt_open") { cursor type broadcast { overlayTheme } } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await write('PUT', '/api/v2/events/evt_open/broadcast', { overlayTheme: 'rt-theme' })).status).toBe(200);
    await until(() => fine.messages.length === 1, 'the broadcast change');
    expect(fine.messages[0].data!.broadcastChanged).toMatchObject({ type: 'broadcast.updated', broadcast: { overlayTheme: 'rt-theme' } });
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 200))])).toBe('open');
  });

  it('filters matches, playdays and maps, with an access token on /graphql', async () => {
    const { client } = connect('/graphql', { authorization: 'Bearer demo-token-app' });
    const match = collect(client, 'subscription { matchChanged(eventId: "evt_live", matchId: "mtc_live_a_140") { matchId match { status opponentA { score } } } }');
    const playday = collect(client, 'subscription { playdayChanged(eventId: "evt_open") { playdayId playday { liveMatchId overlayScoreA } } }');
    const maps = collect(client, 'subscription { mapsChanged { mapIds maps { id name } } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await write('PATCH', '/api/v2/events/evt_live/matches/mtc_live_a_139', { scoreA: 1 });
    await write('PATCH', '/api/v2/events/evt_live/matches/mtc_live_a_140', { status: 'live', scoreA: 4 });
    await write('PATCH', '/api/v2/events/evt_open/playdays/pd_open_1', { overlayScoreA: 7 });
    await updateMaps(server.db.prisma, { maps: [{ id: 'map_rt', name: 'Realtime' }] }, 'test');
    await until(() => match.messages.length >= 1 && playday.messages.length >= 1 && maps.messages.length >= 1, 'the changes');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(match.messages.map((m) => m.data!.matchChanged)).toEqual([{ matchId: 'mtc_live_a_140', match: { status: 'live', opponentA: { score: 4 } } }]);
    expect(playday.messages.map((m) => m.data!.playdayChanged)).toEqual([{ playdayId: 'pd_open_1', playday: { liveMatchId: 'mtc_open_1', overlayScoreA: 7 } }]);
    expect(maps.messages.map((m) => m.data!.mapsChanged)).toEqual([{ mapIds: ['map_rt'], maps: [{ id: 'map_rt', name: 'Realtime' }] }]);
  });
});
