// The realtime gateway end to end with the graphql-ws client: credentials, every subscription, errors
// that leave the socket open, resuming with a cursor, and revocation closing sockets; the limits
// (sockets per credential, pings, slow consumers). Resuming without loss under 20 concurrent writers
// and two instances is realtime-resume-load.test.ts (.ci/run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import { startTestServer, underLoadLimits, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';
import { updateMaps } from '../../subgraphs/competitions/maps/update.ts';
import { createEventWithParticipants } from '../support/stage-fixtures.ts';
import { postgresServerUrl } from '../support/scratch-database.ts';
import pg from 'pg';

let server: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startTestServer({ rateLimits: underLoadLimits() });
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
  const messages: FormattedExecutionResult<Record<string, Record<string, unknown>>, unknown>[] = [];
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

  it('answers the handshake with x-request-id, the caller\'s when it fits the rule, as every response', async () => {
    const handshake = (requestId?: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/v1/gateway', 'graphql-transport-ws', { headers: requestId === undefined ? {} : { 'x-request-id': requestId } });
        ws.once('upgrade', (response) => resolve(response.headers['x-request-id'] as string | undefined));
        ws.once('open', () => ws.close());
        ws.once('error', reject);
      });
    expect(await handshake('socket-1.a')).toBe('socket-1.a');
    expect(await handshake('has space')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await handshake()).toMatch(/^req_[0-9a-f]{32}$/);
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

  // Subscription texts go through /graphql's admission (parsed once per text and shared): text the
  // database cannot store is refused there, and a text refused once is refused again.
  it('refuses unstorable text in a subscription as /graphql does, each time it is sent', async () => {
    const { client, closed } = connect('/api/v1/gateway', { apiKey: KEY });
    const literal = 'subscription { eventChanged(eventId: "evt_open\\u0000") { cursor } }';
    const variable = 'subscription ($id: ID!) { eventChanged(eventId: $id) { cursor } }';
    const refused = [collect(client, literal), collect(client, literal), collect(client, variable, { id: 'evt_open\u0000' })];
    const invalid = [collect(client, 'subscription { eventChanged { cursor } }'), collect(client, 'subscription { eventChanged { cursor } }')];
    await until(() => [...refused, ...invalid].every((s) => s.state.error), 'the errors');
    for (const { state } of refused) expect(JSON.stringify(state.error)).toContain('validation_failed');
    for (const { state } of invalid) expect(JSON.stringify(state.error)).toContain('eventId');
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 200))])).toBe('open');
  });

  // ws checks every text message before the gateway reads it: bytes that are not UTF-8 close the
  // socket with 1007 (RFC 6455 section 7.4.1), never decoded into U+FFFD.
  it('closes a socket whose text message is not UTF-8 with 1007', async () => {
    const { ws, closed } = await rawSocket(server.url);
    const subscribe = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { eventChanged(eventId: "evt_open") { cursor } }' } });
    const at = subscribe.indexOf('evt_open') + 'evt_open'.length;
    ws.send(Buffer.concat([Buffer.from(subscribe.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(subscribe.slice(at))]), { binary: false });
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000))])).toBe(1007);
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
    await updateMaps(server.db, { maps: [{ id: 'map_rt', name: 'Realtime' }] }, 'test');
    await until(() => match.messages.length >= 1 && playday.messages.length >= 1 && maps.messages.length >= 1, 'the changes');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(match.messages.map((m) => m.data!.matchChanged)).toEqual([{ matchId: 'mtc_live_a_140', match: { status: 'live', opponentA: { score: 4 } } }]);
    expect(playday.messages.map((m) => m.data!.playdayChanged)).toEqual([{ playdayId: 'pd_open_1', playday: { liveMatchId: 'mtc_open_1', overlayScoreA: 7 } }]);
    expect(maps.messages.map((m) => m.data!.mapsChanged)).toEqual([{ mapIds: ['map_rt'], maps: [{ id: 'map_rt', name: 'Realtime' }] }]);
  });
});

describe('standings', () => {
  it('standingsChanged streams a group’s table as each result moves it, filtered by stage and group, to a token and to a key, and resumes after a cursor', async () => {
    const { eventId } = await createEventWithParticipants(server, 6);
    const created = await write('POST', `/api/v2/events/${eventId}/stages`, { name: 'Groups', bestOf: 1, format: 'round_robin', groups: [{ name: 'A' }, { name: 'B' }] });
    const stageId = created.body.data.resourceId as string;
    expect((await write('POST', `/api/v2/events/${eventId}/stages/${stageId}/start`, undefined)).status).toBe(200);
    const stage = (await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
    const [a, b] = stage.seeding.groups as { groupId: string; participantIds: string[] }[];
    const matches = (await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100`)).body.data as { id: string; groupId: string }[];

    const selection = 'cursor type stageId groupId participantIds standings { participantId rank points played }';
    const token = connect('/graphql', { authorization: 'Bearer demo-token-app' });
    const key = connect('/api/v1/gateway', { apiKey: KEY });
    // After the feed's head as the start left it: without `after` a subscription starts where this
    // server's follower is, which on a busy machine can still be before the start's own standings.
    const { headPosition, encodeCursor } = await import('../../platform/domain/change-feed.ts');
    const afterStart = encodeCursor(await headPosition(server.db.sql));
    const groupA = collect(token.client, `subscription ($e: ID!, $s: ID!, $g: ID, $after: String) { standingsChanged(eventId: $e, stageId: $s, groupId: $g, after: $after) { ${selection} } }`, { e: eventId, s: stageId, g: a.groupId, after: afterStart });
    const whole = collect(key.client, `subscription ($e: ID!, $after: String) { standingsChanged(eventId: $e, after: $after) { ${selection} } }`, { e: eventId, after: afterStart });
    const unknownStage = collect(key.client, 'subscription ($e: ID!) { standingsChanged(eventId: $e, stageId: "stg_nope") { cursor } }', { e: eventId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const inA = matches.filter((m) => m.groupId === a.groupId);
    const inB = matches.filter((m) => m.groupId === b.groupId);
    expect((await write('PATCH', `/api/v2/events/${eventId}/matches/${inB[0].id}`, { status: 'completed', scoreA: 2, scoreB: 0 })).status).toBe(200);
    expect((await write('PATCH', `/api/v2/events/${eventId}/matches/${inA[0].id}`, { status: 'completed', scoreA: 2, scoreB: 1 })).status).toBe(200);
    expect((await write('PATCH', `/api/v2/events/${eventId}/matches/${inA[1].id}`, { status: 'completed', scoreA: 0, scoreB: 3 })).status).toBe(200);
    await until(() => groupA.messages.length >= 2 && whole.messages.length >= 3 && Boolean(unknownStage.state.error), 'the standings changes');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(JSON.stringify(unknownStage.state.error)).toContain('not_found');

    const received = groupA.messages.map((m) => m.data!.standingsChanged);
    expect(received.map((m) => m.groupId)).toEqual([a.groupId, a.groupId]);
    expect(whole.messages.map((m) => m.data!.standingsChanged.groupId)).toEqual([b.groupId, a.groupId, a.groupId]);
    // Each message carries the table as it is now: it is what the v2 read answers.
    const table = (await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}/standings?groupId=${a.groupId}`)).body.data.map(({ participantId, rank, points, played }: Record<string, unknown>) => ({ participantId, rank, points, played }));
    expect(received[1]).toMatchObject({ type: 'standings.updated', stageId, standings: table });
    expect((received[1].standings as { played: number }[]).reduce((sum, row) => sum + row.played, 0)).toBe(4);

    // Resuming after the first message: the second, and nothing before it.
    const resumed = collect(token.client, `subscription ($e: ID!, $after: String) { standingsChanged(eventId: $e, after: $after) { cursor groupId } }`, { e: eventId, after: received[0].cursor });
    await until(() => resumed.messages.length >= 1, 'the resumed change');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(resumed.messages.map((m) => m.data!.standingsChanged.cursor)).toEqual([received[1].cursor]);
  });
});

describe('resuming', () => {
  it('refuses a cursor past retention with an explicit error', async () => {
    const { headPosition, encodeCursor } = await import('../../platform/domain/change-feed.ts');
    const old = encodeCursor({ xid: '1', sequence: '1' });
    const head = await headPosition(server.db.sql);
    await server.db.sql(
      `INSERT INTO "ChangeFeedPosition" (name, xid, sequence, "updatedAt") VALUES ('retention', $1::xid8, 2, now())
       ON CONFLICT (name) DO UPDATE SET xid = EXCLUDED.xid, sequence = EXCLUDED.sequence`,
      [String(BigInt(head.xid) > 2n ? 2 : 1)],
    );
    try {
      const { client } = connect('/api/v1/gateway', { apiKey: KEY });
      const sub = collect(client, 'subscription ($after: String) { eventChanged(eventId: "evt_open", after: $after) { cursor } }', { after: old });
      await until(() => Boolean(sub.state.error), 'the error');
      expect(JSON.stringify(sub.state.error)).toContain('cursor_expired');
    } finally {
      await server.db.sql(`DELETE FROM "ChangeFeedPosition" WHERE name = 'retention'`, []);
    }
  });
});

describe('lifecycle', () => {
  it('closes the sockets of a revoked key within a second, with 4403', async () => {
    const created = await call(server.url, '/api/v2/organisations/org_demo/api-keys', { method: 'POST', token: 'demo-token-alice', body: { name: 'overlay' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { client, closed } = connect("/api/v1/gateway", { apiKey: created.body.data.key });
    collect(client, 'subscription { eventChanged(eventId: "evt_open") { cursor } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const revoked = Date.now();
    expect((await call(server.url, `/api/v2/organisations/org_demo/api-keys/${created.body.data.apiKey.id}`, { method: 'DELETE', token: 'demo-token-alice' })).status).toBeLessThan(300);
    const event = await closed;
    expect(event.code).toBe(4403);
    expect(Date.now() - revoked).toBeLessThan(1000);
  });

  // A change's read takes the credential as the 500 ms check last found it: after a few checks, a
  // token socket's messages still carry the resource, read with the authority the check answered.
  // Both sockets send the same text, so they share its parsed document: each kind must still get
  // its own resource query (a key's goes through apiKey { … }).
  it('keeps delivering to token and key sockets after their credentials have been checked again', async () => {
    const token = connect('/graphql', { authorization: 'Bearer demo-token-app' });
    const key = connect('/api/v1/gateway', { apiKey: KEY });
    const query = 'subscription { playdayChanged(eventId: "evt_open", playdayId: "pd_open_1") { playday { overlayScoreB } } }';
    const [viaToken, viaKey] = [collect(token.client, query), collect(key.client, query)];
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await write('PATCH', '/api/v2/events/evt_open/playdays/pd_open_1', { overlayScoreB: 11 })).status).toBe(200);
    await until(() => viaToken.messages.length === 1 && viaKey.messages.length === 1, 'the change on both sockets');
    for (const { messages, state } of [viaToken, viaKey]) {
      expect(state.error).toBeUndefined();
      expect(messages[0].data!.playdayChanged).toEqual({ playday: { overlayScoreB: 11 } });
    }
  });

  it('closes the sockets of a revoked access token within a second, with 4403', async () => {
    const basic = { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}` };
    const issued = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: basic, body: 'grant_type=client_credentials' });
    expect(issued.status).toBe(200);
    const { access_token: token } = (await issued.json()) as { access_token: string };
    const { client, closed } = connect('/graphql', { authorization: `Bearer ${token}` });
    const sub = collect(client, 'subscription { eventChanged(eventId: "evt_open") { cursor } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sub.state.error).toBeUndefined();
    const revoked = Date.now();
    const answer = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: basic, body: `token=${encodeURIComponent(token)}` });
    expect(answer.status).toBe(200);
    const event = await closed;
    expect(event.code).toBe(4403);
    expect(Date.now() - revoked).toBeLessThan(1000);
  });

  // After a restart under load, sockets acknowledged while a check was waiting for the database were
  // judged by it although their credentials had not been part of it, and closed with 4403. Holding
  // the overlay-token table holds the check in that window while a key's socket connects. PGlite has
  // one session: a held table there would hold the key's handshake too.
  it.skipIf(!postgresServerUrl())('does not close a socket that connected while a credential check was running', async () => {
    const issued = await call(server.url, '/api/v2/organisations/org_demo/overlay-tokens', { method: 'POST', token: 'demo-token-alice', body: { eventId: 'evt_open', label: 'Sweep window', expiresIn: 3600 } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const overlay = await rawSocket(server.url, { overlayToken: issued.body.data.token });
    const holder = new pg.Client({ connectionString: server.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "OverlayToken" IN ACCESS EXCLUSIVE MODE');
      // A check (every 500 ms) starts with the overlay socket alone and waits on the table.
      await new Promise((resolve) => setTimeout(resolve, 800));
      const late = await rawSocket(server.url);
      await holder.query('COMMIT');
      // The held check ends, and the next one judges the late socket too.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect([overlay.ws.readyState, late.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
      late.ws.close();
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      overlay.ws.close();
    }
  });

  it('limits subscriptions per socket with an error for the one too many', async () => {
    const { client } = connect('/api/v1/gateway', { apiKey: KEY });
    const subs = Array.from({ length: 51 }, () => collect(client, 'subscription { mapsChanged { cursor } }'));
    await until(() => subs.some((s) => s.state.error), 'the refusal');
    expect(JSON.stringify(subs.find((s) => s.state.error)!.state.error)).toContain('too_many_subscriptions');
    expect(subs.filter((s) => s.state.error)).toHaveLength(1);
  });
});

/** Starts a second instance on this file's database with these gateway settings (read when it starts). */
async function instanceWith(settings: Record<string, string>): Promise<TestServer> {
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  try {
    return await startTestServer({ db: server.db, webhookWorker: false, rateLimits: underLoadLimits() });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** A bare graphql-transport-ws client on a ws socket, for what the graphql-ws client does for you. */
async function rawSocket(base: string, params: Record<string, string> = { apiKey: KEY }, options: { autoPong?: boolean } = {}) {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/v1/gateway', 'graphql-transport-ws', { autoPong: options.autoPong ?? true });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const acked = new Promise<string>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)).type)));
  ws.send(JSON.stringify({ type: 'connection_init', payload: params }));
  expect(await acked).toBe('connection_ack');
  return { ws, closed };
}

describe('abuse', () => {
  it('closes a socket over the per-credential limit with 4029, and lets the others be', async () => {
    const limited = await instanceWith({ GATEWAY_MAX_SOCKETS_PER_CREDENTIAL: '2' });
    try {
      const first = await rawSocket(limited.url);
      const second = await rawSocket(limited.url);
      const { client, closed } = (() => {
        const opened = createClient({ url: limited.url.replace(/^http/, 'ws') + '/api/v1/gateway', webSocketImpl: WebSocket, connectionParams: { apiKey: KEY }, lazy: false, retryAttempts: 0, onNonLazyError: () => undefined });
        return { client: opened, closed: new Promise<number>((resolve) => opened.on('closed', (event) => resolve((event as { code: number }).code))) };
      })();
      clients.push(client);
      expect(await closed).toBe(4029);
      expect([first.ws.readyState, second.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
      // A socket closed frees its place.
      first.ws.close();
      await first.closed;
      const third = await rawSocket(limited.url);
      expect(third.ws.readyState).toBe(WebSocket.OPEN);
      second.ws.close();
      third.ws.close();
    } finally {
      await limited.close();
    }
  });

  it('refuses variables nested too deep with an error for that subscription, and keeps the socket open', async () => {
    const { ws } = await rawSocket(server.url);
    const answers: Record<string, unknown>[] = [];
    ws.on('message', (data) => answers.push(JSON.parse(String(data))));
    // 30,000 arrays deep: measuring them recursively ran out of stack and closed the socket with 4500.
    const variables = `{"deep":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    ws.send(`{"id":"deep","type":"subscribe","payload":{"query":"subscription { mapsChanged { cursor } }","variables":${variables}}}`);
    ws.send(JSON.stringify({ id: 'after', type: 'subscribe', payload: { query: 'subscription { mapsChanged { cursor } }' } }));
    await until(() => answers.length > 0, 'the refusal');
    expect(answers[0]).toMatchObject({ id: 'deep', type: 'error', payload: [{ extensions: { code: 'validation_failed', details: [{ field: expect.stringMatching(/^deep(\.0)+$/), issue: 'nested more than 32 levels deep' }] } }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('runs at most GATEWAY_MAX_DISTINCT_SUBSCRIPTIONS_PER_CREDENTIAL distinct subscriptions of a key; alike ones share a place, and an ended one gives its place back', async () => {
    const limited = await instanceWith({ GATEWAY_MAX_DISTINCT_SUBSCRIPTIONS_PER_CREDENTIAL: '3' });
    try {
      const [one, two] = [await rawSocket(limited.url), await rawSocket(limited.url)];
      const errors = new Map<string, unknown>();
      for (const socket of [one, two]) socket.ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'error') errors.set(message.id, message.payload[0].extensions);
      });
      // Distinct by their selection (text, or variables alike, make a signature of their own).
      const FIELDS = { 1: 'cursor', 2: 'type', 3: 'occurredAt', 4: 'revision' } as const;
      const subscribe = (socket: typeof one, id: string, which: keyof typeof FIELDS) =>
        socket.ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query: `subscription ($e: ID!) { eventChanged(eventId: $e) { ${FIELDS[which]} } }`, variables: { e: 'evt_open' } } }));
      // Three distinct, on two sockets; then an alike one, which shares its place.
      subscribe(one, 'a', 1);
      subscribe(one, 'b', 2);
      subscribe(two, 'c', 3);
      subscribe(two, 'a-again', 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      subscribe(two, 'd', 4);
      await until(() => errors.has('d'), 'the refusal of a fourth distinct subscription');
      expect(errors.get('d')).toMatchObject({ code: 'too_many_subscriptions', details: [{ issue: 'distinct_limit' }] });
      expect([...errors.keys()]).toEqual(['d']);
      // Ending the only subscription of one signature frees its place; ending one of two alike does not.
      one.ws.send(JSON.stringify({ id: 'a', type: 'complete' }));
      subscribe(two, 'e', 4);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(errors.has('e')).toBe(true);
      one.ws.send(JSON.stringify({ id: 'b', type: 'complete' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      subscribe(two, 'f', 4);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(errors.has('f')).toBe(false);
      one.ws.close();
      two.ws.close();
    } finally {
      await limited.close();
    }
  });

  it('counts credentials that are not found as failed sign-ins of the address: past its quota it is refused with 1013 before the database is asked, a right key included', async () => {
    const limited = await instanceWith({ RATE_LIMIT_AUTH_FAILURES: '3/600' });
    try {
      const attempt = (params: Record<string, string>) =>
        new Promise<{ code: number; reason: string }>((resolve) => {
          // From an address of its own: the quota it spends is no other test's.
          const ws = new WebSocket(limited.url.replace(/^http/, 'ws') + '/api/v1/gateway', 'graphql-transport-ws', { localAddress: '127.0.0.3' });
          ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: params })));
          ws.on('message', (data) => JSON.parse(String(data)).type === 'connection_ack' && ws.close(1000));
          ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }));
        });
      // A right key spends nothing.
      expect((await attempt({ apiKey: KEY })).code).toBe(1000);
      for (let i = 0; i < 3; i++) expect((await attempt({ apiKey: `unknown-key-${i}` })).code).toBe(4403);
      const refused = await attempt({ overlayToken: 'ovl_unknown' });
      expect(refused.code).toBe(1013);
      expect(refused.reason).toMatch(/not found from this address: retry in \d+ s/);
      expect((await attempt({ apiKey: KEY })).code).toBe(1013);
    } finally {
      await limited.close();
    }
  });

  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    const pinging = await instanceWith({ GATEWAY_PING_MS: '150' });
    try {
      const silent = await rawSocket(pinging.url, { apiKey: KEY }, { autoPong: false });
      const answering = await rawSocket(pinging.url);
      const code = await Promise.race([silent.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 3000))]);
      expect(code).toBe(1006);
      expect(answering.ws.readyState).toBe(WebSocket.OPEN);
      answering.ws.close();
    } finally {
      await pinging.close();
    }
  });

  it('closes a subscriber that stops reading with 4008 once its backlog passes the limit; it resumes from its cursor', async () => {
    // No ping while it stalls: a paused reader answers no ping either, and on a busy machine the
    // writes outlast two ping intervals, when the socket would be dropped (1006) instead of closed.
    const bounded = await instanceWith({ GATEWAY_MAX_QUEUED: '5', GATEWAY_PING_MS: '3600000' });
    try {
      // Large messages within the operation limits (two pages of a hundred matches with their maps,
      // about 60 KB) fill the kernel's and the socket's buffers after a hundred changes or so; from
      // then on the backlog grows by one per write.
      const writes = 300;
      const fragment = 'fragment M on MatchPage { data { id status bestOf opponentA { score } opponentB { score } maps { mapId scoreA scoreB } scheduledAt updatedAt } }';
      const { ws, closed } = await rawSocket(bounded.url);
      const taken: { cursor: string; revision: number }[] = [];
      ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'next') taken.push(message.payload.data.eventChanged);
        if (message.type === 'error') taken.push({ cursor: 'error', revision: -1 });
      });
      ws.send(
        JSON.stringify({
          id: 's',
          type: 'subscribe',
          payload: { query: `subscription { eventChanged(eventId: "evt_live") { cursor revision event { a: matchPage(limit: 100) { ...M } b: matchPage(limit: 100, cursor: null) { ...M } } } } ${fragment}` },
        }),
      );
      // Started once it delivers a change (on a busy machine its start may take longer than any
      // fixed wait, and the writes would then all queue behind it): one write, its message, then none.
      expect((await write('PATCH', '/api/v2/events/evt_live/matches/mtc_live_b_120', { scoreB: 999 })).status).toBe(200);
      await until(() => taken.length === 1, 'the subscription to start');
      taken.length = 0;
      // The overlay stalls: it reads nothing while the changes are written.
      ws.pause();
      const before = await revisionOf('evt_live');
      for (let n = 0; n < writes; n++) expect((await write('PATCH', '/api/v2/events/evt_live/matches/mtc_live_b_120', { scoreB: n })).status).toBe(200);
      // When it reads again, it finds what was sent before its backlog overflowed, then the close.
      ws.resume();
      expect(await closed).toBe(4008);
      expect(taken.length).toBeGreaterThan(0);
      expect(taken.length).toBeLessThan(writes);
      // It comes back with the last cursor it took and receives every change it had missed.
      const { client } = connect('/api/v1/gateway', { apiKey: KEY });
      const resumed = collect(client, 'subscription ($after: String) { eventChanged(eventId: "evt_live", after: $after) { cursor revision } }', { after: taken[taken.length - 1].cursor });
      await until(() => taken.length + resumed.messages.length >= writes, 'the missed changes');
      const revisions = [...taken.map((t) => t.revision), ...resumed.messages.map((m) => m.data!.eventChanged.revision as number)];
      expect(revisions).toEqual(Array.from({ length: writes }, (_, i) => before + 1 + i));
    } finally {
      await bounded.close();
    }
  }, 120_000);
});
