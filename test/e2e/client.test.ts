// The TypeScript client (client/) against the real server: typed reads with their ETag, every page of
// a list with `for await`, the API's error body as an ApiError, writes with If-Match from a read and an
// Idempotency-Key generated once and sent again on a retry (the first answer lost after the commit),
// typed GraphQL documents, and each credential: access token, client credentials, API key, overlay token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiError, createClient, graphql, GraphQLResponseError } from '@esports-platform/client';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ webhookWorker: false });
});
afterAll(() => server?.close());

const app = () => createClient({ baseUrl: server.url, credentials: { accessToken: 'demo-token-app' } });
const orgKey = () => createClient({ baseUrl: server.url, credentials: { apiKey: 'demo-org-key-0001' } });

describe('reads', () => {
  it('answers the typed resource with its ETag, and 304 to a current If-None-Match', async () => {
    const api = orgKey();
    const event = await api.get('/api/v1/events/{eventId}', { params: { path: { eventId: 'evt_open' } } });
    expect(event.status).toBe(200);
    expect(event.data.id).toBe('evt_open');
    expect(event.data.organisationId).toBe('org_demo');
    expect(event.etag).toBe(`"${event.data.revision}"`);
    expect(event.requestId).toMatch(/^req_/);
    expect(event.rateLimit).toMatchObject({ policy: 'api_key' });
    const again = await api.getIfChanged('/api/v1/events/{eventId}', event.etag, { params: { path: { eventId: 'evt_open' } } });
    expect(again).toMatchObject({ status: 304, notModified: true, etag: event.etag });
  });

  it('walks every page of a list with for await, in order, each item once', async () => {
    const api = orgKey();
    const whole = await api.get('/api/v1/events/{eventId}/matches', { params: { path: { eventId: 'evt_live' }, query: { limit: 100, stageId: 'stg_live_b' } } });
    expect(whole.data).toHaveLength(100);
    const ids: string[] = [];
    let pages = 0;
    for await (const page of api.pages('/api/v1/events/{eventId}/matches', { params: { path: { eventId: 'evt_live' }, query: { limit: 7, stageId: 'stg_live_b' } } })) {
      pages++;
      expect(page.data.length).toBeLessThanOrEqual(7);
      ids.push(...page.data.map((match) => match.id));
    }
    expect(ids).toHaveLength(120);
    expect(pages).toBe(Math.ceil(120 / 7));
    expect(new Set(ids).size).toBe(120);
    expect(ids.slice(0, 100)).toEqual(whole.data.map((match) => match.id));
    // items() flattens the same pages; breaking out of the loop stops fetching.
    const first: string[] = [];
    for await (const match of api.items('/api/v1/events/{eventId}/matches', { params: { path: { eventId: 'evt_live' }, query: { limit: 5, stageId: 'stg_live_b' } } })) {
      first.push(match.id);
      if (first.length === 12) break;
    }
    expect(first).toEqual(ids.slice(0, 12));
  });

  it('throws the API\'s error body as an ApiError: status, code, details, request id', async () => {
    const api = app();
    const missing = await api.get('/api/v2/events/{eventId}', { params: { path: { eventId: 'evt_nope' } } }).catch((error) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', attempts: 1 });
    expect(missing.requestId).toMatch(/^req_/);
    expect(missing.body.error.code).toBe('not_found');
    // An unknown query parameter (the types refuse it too, hence the cast): 400 naming it.
    const invalid = await orgKey().get('/api/v1/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' }, query: { colour: 'red' } as never } }).catch((error) => error);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(invalid.details.map((detail: { field?: string }) => detail.field)).toContain('colour');
    const anonymous = await createClient({ baseUrl: server.url, credentials: { accessToken: 'not-a-token' } }).get('/api/v2/auth/context').catch((error) => error);
    expect(anonymous).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('stops at an AbortSignal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the caller'));
    await expect(orgKey().get('/api/v1/organisation', { signal: controller.signal })).rejects.toThrow('stopped by the caller');
  });

  it('says when nothing answers', async () => {
    const api = createClient({ baseUrl: 'http://127.0.0.1:9', retry: { maxRetries: 1, baseDelayMs: 1 } });
    const error = await api.get('/api/v1/maps').catch((e) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error.attempts).toBe(2);
  });
});

describe('writes', () => {
  it('sends If-Match from a read\'s ETag and an Idempotency-Key of its own; a stale ETag is 412, a missing one 428', async () => {
    const sent: Headers[] = [];
    const api = createClient({ baseUrl: server.url, credentials: { accessToken: 'demo-token-app' }, fetch: (request) => (sent.push(new Headers(request.headers)), fetch(request)) });
    const event = await api.get('/api/v2/events/{eventId}', { params: { path: { eventId: 'evt_open' } } });
    const created = await api.post('/api/v2/events/{eventId}/stages', {
      params: { path: { eventId: 'evt_open' } },
      ifMatch: event,
      body: { name: 'Client playoffs', format: 'single_elimination', bestOf: 3 },
    });
    expect(created.status).toBe(201);
    expect(created.data.resourceId).toMatch(/^stg_/);
    expect(created.etag).toBe(`"${created.data.revision}"`);
    expect(created.replayed).toBe(false);
    const write = sent.at(-1)!;
    expect(write.get('if-match')).toBe(event.etag);
    expect(write.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    // A read sends no key.
    expect(sent[0].get('idempotency-key')).toBeNull();

    const stale = await api.post('/api/v2/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' } }, ifMatch: event, body: { name: 'Too late', format: 'swiss', bestOf: 1 } }).catch((e) => e);
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' });
    const without = await api.post('/api/v2/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' } }, body: { name: 'No precondition', format: 'swiss', bestOf: 1 } }).catch((e) => e);
    expect(without).toMatchObject({ status: 428, code: 'precondition_required' });
    // The write's own ETag is the next write's If-Match.
    const next = await api.post('/api/v2/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' } }, ifMatch: created, body: { name: 'Client finals', format: 'single_elimination', bestOf: 5 } });
    expect(next.data.revision).toBe(created.data.revision + 1);
  });

  it('retries a write whose answer was lost with the same Idempotency-Key: the platform replays it, and it was made once', async () => {
    const keys: string[] = [];
    let lose = true;
    // The connection drops after the server committed the write and before its answer arrives.
    const lossy = async (request: Request) => {
      keys.push(request.headers.get('idempotency-key') ?? '');
      const response = await fetch(request);
      if (request.method === 'POST' && lose) {
        lose = false;
        await response.arrayBuffer();
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    };
    const api = createClient({ baseUrl: server.url, credentials: { accessToken: 'demo-token-app' }, fetch: lossy, retry: { baseDelayMs: 10 } });
    const event = await api.get('/api/v2/events/{eventId}', { params: { path: { eventId: 'evt_open' } } });
    const name = `Lost answer ${Date.now()}`;
    const created = await api.post('/api/v2/events/{eventId}/stages', { params: { path: { eventId: 'evt_open' } }, ifMatch: event, body: { name, format: 'swiss', bestOf: 1 } });
    expect(created.attempts).toBe(2);
    expect(created.replayed).toBe(true);
    const posted = keys.slice(1);
    expect(posted).toHaveLength(2);
    expect(posted[0]).toBe(posted[1]);
    const stages = await server.db.prisma.stage.findMany({ where: { eventId: 'evt_open', name } });
    expect(stages.map((stage) => stage.id)).toEqual([created.data.resourceId]);
  });

  it('a write that takes neither key nor If-Match is not sent twice after a lost answer', async () => {
    let calls = 0;
    const api = createClient({
      baseUrl: server.url,
      credentials: { accessToken: 'demo-token-app' },
      retry: { baseDelayMs: 1 },
      fetch: async (request) => {
        if (request.method === 'POST') calls++;
        await fetch(request).then((response) => response.arrayBuffer());
        if (request.method === 'POST') throw new TypeError('fetch failed');
        return fetch(request);
      },
    });
    const error = await api.post('/api/v2/developer/apps/{appId}/webhook-endpoints/{endpointId}/test', { params: { path: { appId: 'app_demo', endpointId: 'whe_demo' } } }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(calls).toBe(1);
  });
});

describe('GraphQL', () => {
  const eventQuery = graphql(`
    query ClientEvent($id: ID!) {
      event(id: $id) { id name revision stages { id format } }
    }
  `);

  it('answers typed data for a typed document', async () => {
    const data = await app().graphql(eventQuery, { id: 'evt_open' });
    expect(data.event?.id).toBe('evt_open');
    expect(typeof data.event?.revision).toBe('number');
    expect(data.event?.stages.map((stage) => stage.format)).toContain('round_robin');
  });

  it('throws the errors of an answer, with their codes', async () => {
    const error = await app().graphql(graphql('query { event(id: "evt_nope") { id } }')).catch((e) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect(error.code).toBe('not_found');
    const request = await app().graphql(graphql('query ($id: ID!) { event(id: $id) { id } }'), { id: '' }).catch((e) => e);
    expect(request).toBeInstanceOf(GraphQLResponseError);
  });
});

describe('credentials', () => {
  it('client credentials: a token fetched once, kept, and fetched again after it is revoked', async () => {
    const tokenRequests: string[] = [];
    let bearer = '';
    const api = createClient({
      baseUrl: server.url,
      credentials: { clientCredentials: { clientId: 'app_demo', clientSecret: 'demo-app-secret', scope: 'event:manage' } },
      fetch: (request) => {
        if (new URL(request.url).pathname === '/oauth/token') tokenRequests.push(request.url);
        else bearer = request.headers.get('authorization')!.slice('Bearer '.length);
        return fetch(request);
      },
    });
    const [one, two] = await Promise.all([api.get('/api/v2/auth/context'), api.get('/api/v2/auth/context')]);
    expect(one.data.actor).toEqual({ type: 'application', applicationId: 'app_demo' });
    expect(two.data.scopes).toEqual(['event:manage']);
    expect(tokenRequests).toHaveLength(1);
    // Revoke the token the client holds: the next request is 401, and the client gets another token once.
    const revoked = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: bearer }) });
    expect(revoked.status).toBe(200);
    const three = await api.get('/api/v2/auth/context');
    expect(three.data.applicationId).toBe('app_demo');
    expect(three.attempts).toBe(1);
    expect(tokenRequests).toHaveLength(2);
    // A wrong secret is the OAuth error body.
    const wrong = await createClient({ baseUrl: server.url, credentials: { clientCredentials: { clientId: 'app_demo', clientSecret: 'nope' } } }).get('/api/v2/auth/context').catch((e) => e);
    expect(wrong).toMatchObject({ status: 401, code: 'invalid_client' });
  });

  it('an overlay token reads its one event through x-overlay-token', async () => {
    const alice = createClient({ baseUrl: server.url, credentials: { accessToken: 'demo-token-alice' } });
    const issued = await alice.post('/api/v2/organisations/{organisationId}/overlay-tokens', {
      params: { path: { organisationId: 'org_demo' } },
      body: { eventId: 'evt_open', label: 'Client test', expiresIn: 600 },
    });
    const overlay = createClient({ baseUrl: server.url, credentials: { overlayToken: issued.data.token } });
    expect((await overlay.get('/api/v1/events/{eventId}', { params: { path: { eventId: 'evt_open' } } })).data.name).toBe('Demo Open');
    const elsewhere = await overlay.get('/api/v1/organisation').catch((e) => e);
    expect(elsewhere).toMatchObject({ status: 404, code: 'not_found' });
  });
});
