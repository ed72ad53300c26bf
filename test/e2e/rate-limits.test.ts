// Rate limits: per application token, per v1 key, per IP without a credential, per client on the
// token endpoint, per IP after failed client authentications and sign-ins; GraphQL operations and
// gateway subscriptions spend their estimated cost. Small quotas here so that each limit is reached.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { RateLimitConfig } from '../../facade/http/rate-limits.ts';
import { AuthorizeSession, formFields, DEMO_REDIRECT_URI } from '../support/authorize-forms.ts';

const limits: RateLimitConfig = {
  token: { name: 'token', quota: 40, windowSeconds: 60 },
  apiKey: { name: 'api_key', quota: 5, windowSeconds: 60 },
  anonymous: { name: 'anonymous', quota: 8, windowSeconds: 60 },
  client: { name: 'client', quota: 6, windowSeconds: 60 },
  authFailures: { name: 'auth_failures', quota: 3, windowSeconds: 600 },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: limits });
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
const remaining = (response: Response) => Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')![1]);

describe('per credential', () => {
  it('counts a token\'s requests, says so on every answer, and answers 429 with Retry-After past the quota', async () => {
    const headers = { authorization: 'Bearer demo-token-readonly' };
    const first = await get('/api/v2/auth/context', headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"token";q=40;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"token";r=\d+;t=\d+$/);
    const before = remaining(first);
    const second = await get('/api/v2/auth/context', headers);
    expect(remaining(second)).toBe(before - 1);
    // Spend the rest; the first answer past the quota is 429 with the platform's error body.
    let refused: Response | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      const response = await get('/api/v2/auth/context', headers);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused!.headers.get('ratelimit')).toMatch(/^"token";r=0;t=\d+$/);
    expect(await refused!.json()).toMatchObject({ error: { code: 'rate_limited', details: [{ issue: 'rate_limit_exceeded' }] } });
    // The quota is the application's: another token of app_demo acting for itself shares it.
    expect((await get('/api/v2/auth/context', { authorization: 'Bearer demo-token-app' })).status).toBe(429);
    // A token acting for a user has a quota of its own (application and user).
    expect((await get('/api/v2/auth/context', { authorization: 'Bearer demo-token-alice' })).status).toBe(200);
    // GraphQL spends the same quota.
    const graphql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json' }, body: '{"query":"{ authContext { applicationId } }"}' });
    expect(graphql.status).toBe(429);
    expect((await graphql.json()).errors[0].extensions).toMatchObject({ code: 'rate_limited' });
  });

  it('counts a v1 key\'s requests', async () => {
    const headers = { 'x-api-key': 'demo-org-key-0002' };
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await get('/api/v1/organisation', headers)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('counts requests without a valid credential per IP address', async () => {
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await get('/api/v2/auth/context', { authorization: 'Bearer nope' })).status);
    expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });
});

describe('GraphQL cost', () => {
  it('a wide query spends more of the quota than a narrow one', async () => {
    const headers = { authorization: 'Bearer demo-token-dave', 'content-type': 'application/json' };
    const post = (query: string) => fetch(`${server.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
    const narrow = [await post('{ authContext { applicationId } }'), await post('{ authContext { applicationId } }')];
    expect(remaining(narrow[0]) - remaining(narrow[1])).toBe(1);
    // 20 events with their stages: estimated cost 20 × (1 + 20) = 420 and a bit, so 43 points: past the quota of 40.
    const wide = await post('{ organisationEvents(organisationId: "org_rival", limit: 20) { data { id stages { id } } } }');
    expect(wide.status).toBe(429);
    expect((await wide.json()).errors[0].message).toMatch(/retry in \d+ s/);
    // What was refused was not spent: a narrow one still passes.
    expect((await post('{ authContext { applicationId } }')).status).toBe(200);
  });
});

describe('OAuth endpoints', () => {
  const token = (body: Record<string, string>) =>
    fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });

  it('limit each client on the token endpoint', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await token({ grant_type: 'client_credentials', client_id: 'app_noesports', client_secret: 'demo-noesports-secret' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await token({ grant_type: 'client_credentials', client_id: 'app_noesports', client_secret: 'demo-noesports-secret' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"client";q=6;w=60');
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('refuse an address after its failed client authentications, the right secret too, until the window ends', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await token({ grant_type: 'client_credentials', client_id: 'app_demo', client_secret: `wrong-${i}` })).status);
    expect(answers).toEqual([401, 401, 401, 429, 429]);
    const right = await token({ grant_type: 'client_credentials', client_id: 'app_demo', client_secret: 'demo-app-secret' });
    expect(right.status).toBe(429);
    // The sign-in form counts the same failures.
    const session = new AuthorizeSession(server.url);
    const query = { response_type: 'code', client_id: 'app_demo', redirect_uri: DEMO_REDIRECT_URI, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' };
    const page = await (await session.get(`/oauth/authorize?${new URLSearchParams(query)}`)).text();
    const signIn = await session.post({ ...formFields(page), action: 'sign_in', username: 'alice', password: 'demo-password' });
    expect(signIn.status).toBe(429);
    expect(await signIn.text()).toContain('Too many failed sign-ins');
  });
});

describe('sign-in at the authorization page', () => {
  it('counts wrong passwords as failed authentications of the address, and refuses it past the quota', async () => {
    const own = await startTestServer({ rateLimits: { ...limits, authFailures: { name: 'auth_failures', quota: 2, windowSeconds: 600 } } });
    try {
      const session = new AuthorizeSession(own.url);
      const query = { response_type: 'code', client_id: 'app_demo', redirect_uri: DEMO_REDIRECT_URI, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' };
      const page = await (await session.get(`/oauth/authorize?${new URLSearchParams(query)}`)).text();
      const statuses = [];
      for (const password of ['wrong-1', 'wrong-2', 'demo-password']) {
        statuses.push((await session.post({ ...formFields(page), action: 'sign_in', username: 'alice', password })).status);
      }
      // Two wrong passwords spend the quota: the right one is refused too, until the window ends.
      expect(statuses).toEqual([401, 401, 429]);
      const token = await fetch(`${own.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'app_demo', client_secret: 'demo-app-secret' }),
      });
      expect(token.status).toBe(429);
    } finally {
      await own.close();
    }
  });
});

describe('gateway subscriptions', () => {
  it('have the limits of /graphql and spend their cost from the credential\'s quota', async () => {
    // From an address of its own: the tests above spent 127.0.0.1's failed sign-ins, which a gateway
    // socket's credential check counts against too (past them the socket is closed with 1013).
    class FromOwnAddress extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { localAddress: '127.0.0.5' });
      }
    }
    const client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/api/v1/gateway`, webSocketImpl: FromOwnAddress, connectionParams: { apiKey: 'demo-org-key-0001' }, retryAttempts: 0, lazy: false, onNonLazyError: () => undefined });
    // Connected first: the 400 ms below are the subscription's own, not the handshake's and the key's check.
    await new Promise((resolve, reject) => {
      client.on('connected', resolve);
      client.on('closed', (event) => reject(new Error(`the socket closed before it was acknowledged: ${(event as { code?: number }).code}`)));
    });
    const subscribe = (query: string) =>
      new Promise<{ code?: unknown; message: string } | 'started'>((resolve) => {
        const stop = client.subscribe({ query }, {
          next: () => undefined,
          error: (errors) => {
            // A subscription error is a list of GraphQL errors; anything else (a close) says what it was.
            const first = Array.isArray(errors) ? (errors[0] as { message: string; extensions?: { code?: unknown } }) : { message: String((errors as { code?: unknown })?.code ?? errors) };
            resolve({ message: first.message, code: first.extensions?.code });
          },
          complete: () => undefined,
        });
        setTimeout(() => {
          stop();
          resolve('started');
        }, 400);
      });
    try {
      const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: cursor`).join(' ');
      const tooMany = await subscribe(`subscription { eventChanged(eventId: "evt_open") { ${aliases} } }`);
      expect(tooMany).toMatchObject({ code: 'validation_failed' });
      // Five points a key. The refused subscription spent one, what its parse cost (it is charged before
      // the text is parsed); cheap subscriptions cost one each: the fifth is refused, the socket stays open.
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await subscribe('subscription { mapsChanged { cursor } }'));
      expect(answers).toEqual(['started', 'started', 'started', 'started']);
      const refused = await subscribe('subscription { mapsChanged { cursor } }');
      expect(refused).toMatchObject({ code: 'rate_limited' });
    } finally {
      await client.dispose();
    }
  });
});

// Several instances count against one quota: in PostgreSQL (the shared store of the PostgreSQL pass)
// and in Redis. Each instance tallies locally and syncs every RATE_LIMIT_SYNC_MS (100 ms here).
describe('across instances', () => {
  const quota: RateLimitConfig = { ...limits, token: { name: 'token', quota: 30, windowSeconds: 60 } };
  const noesports = { authorization: 'Bearer demo-token-noesports' };
  const sync = () => new Promise((resolve) => setTimeout(resolve, 400));

  async function shared(a: string, b: string) {
    const statuses = async (base: string, count: number) => {
      const answers: number[] = [];
      for (let i = 0; i < count; i++) answers.push((await fetch(`${base}/api/v2/auth/context`, { headers: noesports })).status);
      return answers;
    };
    const first = await statuses(a, 20);
    expect(first.every((status) => status === 200)).toBe(true);
    await sync();
    // The second instance starts from what the store holds: 10 left, not 30.
    const second = await statuses(b, 15);
    expect(second.filter((status) => status === 200)).toHaveLength(10);
    expect(second.slice(10)).toEqual([429, 429, 429, 429, 429]);
    await sync();
    // The first has heard of them by now (a refused request asks the store again).
    const refused = await statuses(a, 2);
    await sync();
    expect([...refused, ...(await statuses(a, 1))].at(-1)).toBe(429);
  }

  it.runIf(/^postgres/.test(process.env.DATABASE_URL ?? ''))('in PostgreSQL', async () => {
    const a = await startTestServer({ rateLimits: quota });
    const b = await startTestServer({ rateLimits: quota, db: a.db });
    try {
      await shared(a.url, b.url);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('in Redis', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    if (!(await reachable(redisUrl))) {
      // Redis is optional for npm test on a laptop; CI (REQUIRE_REDIS=1) must have it.
      expect(process.env.REQUIRE_REDIS, `no Redis at ${redisUrl}`).not.toBe('1');
      return;
    }
    const store = { redisUrl, prefix: `test_${randomUUID()}_` };
    const a = await startTestServer({ rateLimits: quota, rateLimitStore: store });
    const b = await startTestServer({ rateLimits: quota, rateLimitStore: store });
    try {
      await shared(a.url, b.url);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

/** Whether something answers PING at this Redis URL. */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(String(data).startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
