// Overlay tokens end to end: issued once and stored hashed by a user who manages the broadcast, read
// one event through every v1 event route and the gateway, and nothing else (every other route and
// event is 404, no write takes them); expiry and revocation stop them on requests and close their
// sockets with 4403 within a second; rate limits count per token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestServer, underLoadLimits, type TestServer } from '../support/server.ts';
import { call, expectError } from '../support/api.ts';
import { routeTable } from '../../facade/routes/index.ts';
import { sha256 } from '../../platform/api/crypto.ts';
import { rateLimitConfig } from '../../facade/http/rate-limits.ts';

let server: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startTestServer({ webhookWorker: false, rateLimits: underLoadLimits() });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await server?.close();
});

const KEY = 'demo-org-key-0001';

async function issue(body: Record<string, unknown> = {}, token = 'demo-token-alice', base = server.url) {
  return call(base, '/api/v2/organisations/org_demo/overlay-tokens', { method: 'POST', token, body: { eventId: 'evt_live', label: 'Scoreboard', expiresIn: 3600, ...body } });
}

async function issued(body: Record<string, unknown> = {}, base = server.url): Promise<{ id: string; token: string }> {
  const response = await issue(body, 'demo-token-alice', base);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.data.overlayToken.id, token: response.body.data.token };
}

async function get(path: string, headers: Record<string, string>, base = server.url) {
  const response = await fetch(`${base}${path}`, { headers });
  const text = await response.text();
  // Every answer names its own request.
  return { status: response.status, body: text ? JSON.parse(text.replace(/"requestId":"req_\w+"/, '"requestId":"…"')) : null };
}

const wsUrl = (base: string) => base.replace(/^http/, 'ws') + '/api/v1/gateway';

function connect(connectionParams: Record<string, unknown>) {
  let onClosed!: (event: { code: number; at: number }) => void;
  const closed = new Promise<{ code: number; at: number }>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: wsUrl(server.url),
    webSocketImpl: WebSocket,
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    on: { closed: (event) => onClosed({ code: (event as { code: number }).code, at: Date.now() }) },
    onNonLazyError: () => undefined,
  });
  clients.push(client);
  return { client, closed };
}

function collect(client: Client, query: string) {
  const messages: unknown[] = [];
  const state: { error?: unknown } = {};
  client.subscribe({ query }, { next: (message) => void messages.push(message), error: (error) => (state.error = error), complete: () => undefined });
  return { messages, state };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A path of the route for the event, with the first id the API key reads for each other parameter. */
async function pathFor(path: string, eventId: string): Promise<string> {
  const lists: Record<string, string> = { stageId: 'stages', groupId: 'groups', roundId: 'rounds', participantId: 'participants', matchId: 'matches', invitationId: 'invitations', playdayId: 'playdays' };
  let filled = path.replace('{eventId}', eventId);
  for (const [param, list] of Object.entries(lists)) {
    if (!filled.includes(`{${param}}`)) continue;
    const page = await get(`/api/v1/events/${eventId}/${list}?limit=1`, { 'x-api-key': KEY });
    filled = filled.replace(`{${param}}`, page.body.data[0]?.id ?? `${param}_none`);
  }
  return filled;
}

describe('issuing, listing and revoking', () => {
  it('answers the token once, stores it hashed, lists it without it, and revokes it', async () => {
    const before = Date.now();
    const response = await issue({ label: 'Main stage scoreboard', expiresIn: 7200 });
    expect(response.status).toBe(201);
    const { overlayToken, token } = response.body.data;
    expect(token).toMatch(/^ovl_[A-Za-z0-9_-]{43}$/);
    expect(overlayToken).toMatchObject({ organisationId: 'org_demo', eventId: 'evt_live', label: 'Main stage scoreboard', prefix: token.slice(0, 12), lastUsedAt: null, revokedAt: null });
    expect(new Date(overlayToken.expiresAt).getTime()).toBeGreaterThanOrEqual(before + 7_200_000 - 1000);
    expect(new Date(overlayToken.expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 7_200_000 + 1000);
    const row = await server.db.prisma.overlayToken.findUniqueOrThrow({ where: { id: overlayToken.id } });
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const list = await call(server.url, '/api/v2/organisations/org_demo/overlay-tokens?limit=100', { token: 'demo-token-alice' });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((t: { id: string }) => t.id === overlayToken.id);
    expect(listed).toEqual(overlayToken);
    expect(JSON.stringify(list.body)).not.toContain(token);

    expect((await get('/api/v1/events/evt_live', { 'x-overlay-token': token })).status).toBe(200);
    const revoked = await call(server.url, `/api/v2/organisations/org_demo/overlay-tokens/${overlayToken.id}`, { method: 'DELETE', token: 'demo-token-alice' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    const gone = await get('/api/v1/events/evt_live', { 'x-overlay-token': token });
    expect(gone.status).toBe(401);
    expect(gone.body.error.code).toBe('invalid_token');
    // Revoking again changes nothing.
    const again = await call(server.url, `/api/v2/organisations/org_demo/overlay-tokens/${overlayToken.id}`, { method: 'DELETE', token: 'demo-token-alice' });
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it('refuses bad input naming the field, other organisations, and callers without broadcast:manage', async () => {
    for (const [body, field] of [
      [{ expiresIn: 30 * 86_400 + 1 }, 'expiresIn'],
      [{ expiresIn: 59 }, 'expiresIn'],
      [{ expiresIn: 'soon' }, 'expiresIn'],
      [{ label: ' ' }, 'label'],
      [{ eventId: 'evt_rival' }, 'eventId'],
      [{ eventId: 'evt_nope' }, 'eventId'],
      [{ scope: 'all' }, 'scope'],
    ] as const) {
      expectError(await issue(body), 400, 'validation_failed', field);
    }
    expectError(await issue({}, 'demo-token-readonly'), 403, 'forbidden', 'missing_scope');
    expectError(await issue({}, 'demo-token-dave'), 403, 'forbidden', 'missing_permission');
    expectError(await call(server.url, '/api/v2/organisations/org_nope/overlay-tokens', { method: 'POST', token: 'demo-token-alice', body: { eventId: 'evt_live', label: 'x', expiresIn: 60 } }), 404, 'not_found');
    // An organisation the application is not installed on reads as one that does not exist.
    expect((await call(server.url, '/api/v2/organisations/org_rival/overlay-tokens', { token: 'demo-token-alice' })).status).toBe(404);
    // Alice has no access to org_rival: its events, real or not, and its tokens get one answer.
    const rivalAnswers = await Promise.all(
      ['evt_rival', 'evt_live', 'evt_nope'].map((eventId) => call(server.url, '/api/v2/organisations/org_rival/overlay-tokens', { method: 'POST', token: 'demo-token-alice', body: { eventId, label: 'x', expiresIn: 60 } })),
    );
    for (const answer of rivalAnswers) expect(answer.body.error).toEqual({ ...rivalAnswers[0].body.error, requestId: answer.body.error.requestId });
    expect(rivalAnswers[0].status).toBe(403);
    const { id } = await issued();
    // A token of org_demo is not found through another organisation.
    expectError(await call(server.url, `/api/v2/organisations/org_rival/overlay-tokens/${id}`, { method: 'DELETE', token: 'demo-token-dave' }), 403, 'forbidden');
    expect((await call(server.url, `/api/v2/organisations/org_demo/overlay-tokens/ovt_nope`, { method: 'DELETE', token: 'demo-token-alice' })).status).toBe(404);
  });
});

describe('what an overlay token reads', () => {
  const v1 = routeTable.filter((row) => row.path.startsWith('/api/v1/') && row.method === 'get');

  it('every v1 route of its event answers as the API key does; another event, and every route outside an event, is 404', async () => {
    const { token } = await issued();
    const overlayRoutes = v1.filter((row) => row.overlay && row.path.startsWith('/api/v1/events/{eventId}'));
    // The event itself, and its stages, groups, rounds, participants, matches, standings, invitations, broadcast and playdays.
    expect(overlayRoutes).toHaveLength(17);
    // And the token's own record, which names its event (an overlay's address carries nothing else).
    expect(v1.filter((row) => row.overlay && !overlayRoutes.includes(row)).map((row) => row.operationId)).toEqual(['v1GetOverlayToken']);
    const own = await get('/api/v1/overlay-token', { 'x-overlay-token': token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ eventId: 'evt_live', label: 'Scoreboard', revokedAt: null });
    expect(JSON.stringify(own.body)).not.toContain(token);
    const keyAsks = await get('/api/v1/overlay-token', { 'x-api-key': KEY });
    expect(keyAsks.status).toBe(404);
    expect(keyAsks.body.error.code).toBe('not_found');
    for (const row of overlayRoutes) {
      const own = await pathFor(row.path, 'evt_live');
      const viaToken = await get(own, { 'x-overlay-token': token });
      const viaKey = await get(own, { 'x-api-key': KEY });
      expect(viaToken, `${row.operationId} ${own}`).toEqual(viaKey);
      const other = await pathFor(row.path, 'evt_open');
      const refused = await get(other, { 'x-overlay-token': token });
      expect(refused.status, `${row.operationId} ${other}`).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
      expect((await get(row.path.replace('{eventId}', 'evt_rival').replace(/\{\w+\}/g, 'x_nope'), { 'x-overlay-token': token })).status).toBe(404);
    }
    // Whether the token is valid or not, with or without an Authorization header: one answer.
    for (const headers of [{}, { authorization: 'Bearer junk' }, { authorization: 'Bearer demo-token-app' }] as Record<string, string>[]) {
      for (const overlay of [token, 'ovl_bogus']) expect((await get('/api/v1/organisation', { 'x-overlay-token': overlay, ...headers })).status).toBe(404);
    }
    const outside = v1.filter((row) => !row.overlay);
    expect(outside.map((row) => row.operationId).sort()).toEqual(['v1GetOrganisation', 'v1GetUser', 'v1ListEvents', 'v1ListMaps']);
    for (const row of outside) {
      const path = row.path.replace('{userId}', 'usr_bob');
      expect((await get(path, { 'x-api-key': KEY })).status, row.operationId).toBe(200);
      const refused = await get(path, { 'x-overlay-token': token });
      expect(refused.status, row.operationId).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
    }
  });

  it('no write and no v2 route takes it: 404, and nothing is written', async () => {
    const { token } = await issued();
    const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' } })).revision;
    const writes: [string, string, unknown][] = [
      ['PATCH', '/api/v2/events/evt_live/matches/mtc_live_a_149', { scoreA: 9 }],
      ['PUT', '/api/v2/events/evt_live/broadcast', { channels: [] }],
      ['POST', '/api/v2/organisations/org_demo/overlay-tokens', { eventId: 'evt_live', label: 'x', expiresIn: 60 }],
      ['GET', '/api/v2/events/evt_live', undefined],
      ['GET', '/api/v2/organisations/org_demo/overlay-tokens', undefined],
    ];
    for (const [method, path, body] of writes) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'x-overlay-token': token, 'if-match': `"${revision}"`, 'idempotency-key': `ovl-${Math.random()}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' } })).revision).toBe(revision);
  });

  it('an expired token is 401 on its own event, like an unknown one', async () => {
    const { id, token } = await issued();
    expect((await get('/api/v1/events/evt_live/stages', { 'x-overlay-token': token })).status).toBe(200);
    await server.db.prisma.overlayToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const t of [token, 'ovl_nope', 'x'.repeat(300)]) {
      const response = await get('/api/v1/events/evt_live/stages', { 'x-overlay-token': t });
      expect(response.status, t.slice(0, 10)).toBe(401);
      expect(response.body.error.code).toBe('invalid_token');
    }
  });
});

describe('an event holds at most 100 tokens that work', () => {
  it('answers 409 overlay_token_limit at the 101st, and issues again once one is revoked', async () => {
    const working = await server.db.prisma.overlayToken.count({ where: { eventId: 'evt_done', revokedAt: null, expiresAt: { gt: new Date() } } });
    await server.db.prisma.overlayToken.createMany({
      data: Array.from({ length: 100 - working }, (_, i) => ({ id: `ovt_cap_${i}`, organisationId: 'org_demo', eventId: 'evt_done', label: 'cap', prefix: 'ovl_cap', tokenHash: sha256(`cap-${i}`), expiresAt: new Date(Date.now() + 3_600_000) })),
    });
    expectError(await issue({ eventId: 'evt_done' }), 409, 'conflict', 'overlay_token_limit');
    // Other events are not affected.
    expect((await issue({ eventId: 'evt_live' })).status).toBe(201);
    expect((await call(server.url, '/api/v2/organisations/org_demo/overlay-tokens/ovt_cap_0', { method: 'DELETE', token: 'demo-token-alice' })).status).toBe(200);
    expect((await issue({ eventId: 'evt_done' })).status).toBe(201);
  });
});

describe('the gateway with an overlay token', () => {
  it("streams its event's changes; another event and the maps are not found; the socket stays open", async () => {
    const { token } = await issued();
    const { client, closed } = connect({ overlayToken: token });
    const own = collect(client, 'subscription { matchChanged(eventId: "evt_live") { cursor type matchId match { id } } }');
    const other = collect(client, 'subscription { eventChanged(eventId: "evt_open") { cursor } }');
    const maps = collect(client, 'subscription { mapsChanged { cursor } }');
    await until(() => other.state.error !== undefined && maps.state.error !== undefined, 'the refusals');
    for (const refused of [other, maps]) expect((refused.state.error as { extensions?: { code?: string } }[])[0].extensions?.code).toBe('not_found');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let attempt = 0; attempt < 20; attempt++) {
      const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' } })).revision;
      const response = await call(server.url, '/api/v2/events/evt_live/matches/mtc_live_a_150', { method: 'PATCH', body: { streamUrl: `https://twitch.example.test/${attempt}` }, ifMatch: revision });
      if (response.status !== 412) {
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        break;
      }
    }
    await until(() => own.messages.length > 0 || own.state.error !== undefined, 'the change');
    expect(own.state.error).toBeUndefined();
    expect(own.messages[0]).toMatchObject({ data: { matchChanged: { type: 'match.updated', matchId: 'mtc_live_a_150', match: { id: 'mtc_live_a_150' } } } });
    const state = await Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('open'), 200))]);
    expect(state).toBe('open');
  });

  it('revocation and expiry close its open sockets with 4403 within a second; a wrong token is refused at once', async () => {
    const revoked = await issued();
    const expiring = await issued();
    const a = connect({ overlayToken: revoked.token });
    const b = connect({ overlayToken: expiring.token });
    const subA = collect(a.client, 'subscription { eventChanged(eventId: "evt_live") { cursor } }');
    const subB = collect(b.client, 'subscription { eventChanged(eventId: "evt_live") { cursor } }');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(subA.state.error ?? subB.state.error).toBeUndefined();
    const at = Date.now();
    expect((await call(server.url, `/api/v2/organisations/org_demo/overlay-tokens/${revoked.id}`, { method: 'DELETE', token: 'demo-token-alice' })).status).toBe(200);
    const closedA = await a.closed;
    expect(closedA.code).toBe(4403);
    expect(closedA.at - at).toBeLessThan(1_000);
    const expiresAt = Date.now();
    await server.db.prisma.overlayToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(expiresAt) } });
    const closedB = await b.closed;
    expect(closedB.code).toBe(4403);
    expect(closedB.at - expiresAt).toBeLessThan(1_000);
    for (const params of [{ overlayToken: revoked.token }, { overlayToken: 'ovl_nope' }, { overlayToken: 42 }]) {
      expect((await connect(params).closed).code, JSON.stringify(params)).toBe(4403);
    }
  });
});

describe('rate limits', () => {
  it('count per token: one token past its quota leaves another token and the API key alone', async () => {
    const limited = await startTestServer({ db: server.db, webhookWorker: false, rateLimits: { ...rateLimitConfig(), apiKey: { name: 'api_key', quota: 5, windowSeconds: 60 } } });
    try {
      const first = await issued({}, limited.url);
      const second = await issued({}, limited.url);
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await get('/api/v1/events/evt_live', { 'x-overlay-token': first.token }, limited.url)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // Refused on a route it may not read, it still pays: a token past its quota is refused there too.
      expect((await get('/api/v2/auth/context', { 'x-overlay-token': first.token }, limited.url)).status).toBe(429);
      expect((await get('/api/v1/events/evt_live', { 'x-overlay-token': second.token }, limited.url)).status).toBe(200);
      // A key of its own: with a shared store (PostgreSQL) the demo key's count holds this file's other reads.
      await server.db.prisma.organisationApiKey.create({ data: { id: 'key_overlay_rate', organisationId: 'org_demo', keyHash: sha256('overlay-rate-key'), prefix: 'overlay-' } });
      expect((await get('/api/v1/events/evt_live', { 'x-api-key': 'overlay-rate-key' }, limited.url)).status).toBe(200);
      // An Authorization header beside it does not move the cost elsewhere: the token pays on v1 routes.
      const third = await issued({}, limited.url);
      const policies = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${limited.url}/api/v1/events/evt_live`, { headers: { 'x-overlay-token': third.token, authorization: i % 2 ? 'Bearer junk' : 'Bearer demo-token-app' } });
        policies.push([response.status, response.headers.get('ratelimit-policy')?.split(';')[0]]);
      }
      expect(policies).toEqual([...Array(5).fill([200, '"api_key"']), [429, '"api_key"']]);
      // Junk overlay tokens on routes they may not read are 404s that the address pays for.
      const junk = await fetch(`${limited.url}/api/v2/auth/context`, { headers: { 'x-overlay-token': 'junk' } });
      expect(junk.status).toBe(404);
      expect(junk.headers.get('ratelimit-policy')).toMatch(/^"anonymous"/);
    } finally {
      await limited.close();
    }
  });
});
