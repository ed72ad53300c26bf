// Guessing secrets and passwords, as a hostile client with many addresses would: every path that
// checks a client secret or a password (POST /oauth/token, /oauth/revoke, /oauth/introspect, their
// GraphQL fields by POST and GET, the sign-in form) shares one failure accounting per address, holds
// under concurrency, and cannot be used by strangers to spend a client's own quota. Every 429 of every
// surface carries Retry-After and the RateLimit fields. The server trusts one proxy (TRUST_PROXY=1),
// so each test speaks from addresses of its own through X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { RateLimitConfig } from '../../facade/http/rate-limits.ts';
import { AuthorizeSession, DEMO_REDIRECT_URI, formFields } from '../support/authorize-forms.ts';

const limits: RateLimitConfig = {
  token: { name: 'token', quota: 30, windowSeconds: 60 },
  apiKey: { name: 'api_key', quota: 5, windowSeconds: 60 },
  anonymous: { name: 'anonymous', quota: 60, windowSeconds: 60 },
  client: { name: 'client', quota: 6, windowSeconds: 60 },
  authFailures: { name: 'auth_failures', quota: 3, windowSeconds: 600 },
};

let server: TestServer;
beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  server = await startTestServer({ rateLimits: limits });
});
afterAll(() => server?.close());

let nextAddress = 0;
/** A fresh client address (the proxy's X-Forwarded-For). */
const address = () => `198.51.100.${++nextAddress}`;
const via = (ip: string) => ({ 'x-forwarded-for': ip });

const form = (path: string, ip: string, body: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...via(ip) }, body: new URLSearchParams(body) });
const token = (ip: string, secret: string, extra: Record<string, string> = {}, clientId = 'app_demo') =>
  form('/oauth/token', ip, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, ...extra });
const graphql = (ip: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...via(ip), ...headers }, body: JSON.stringify({ query, variables }) });
const ISSUE = 'mutation($input: AccessTokenRequest!) { issueAccessToken(input: $input) { accessToken } }';
const issueInput = (secret: string, clientId = 'app_demo') => ({ input: { grantType: 'client_credentials', clientId, clientSecret: secret } });

/** Every way there is to have a client secret or a password checked, each answering its status. */
function everyCheck(ip: string, secret: string, clientId = 'app_demo'): Record<string, () => Promise<Response>> {
  const credentials = { client_id: clientId, client_secret: secret };
  return {
    'POST /oauth/token': () => token(ip, secret, {}, clientId),
    'POST /oauth/revoke': () => form('/oauth/revoke', ip, { token: 'esp_at_nothing', ...credentials }),
    'POST /oauth/introspect': () => form('/oauth/introspect', ip, { token: 'esp_at_nothing', ...credentials }),
    'POST /graphql issueAccessToken': () => graphql(ip, ISSUE, issueInput(secret, clientId)),
    'POST /graphql revokeAccessToken': () =>
      graphql(ip, `mutation { revokeAccessToken(input: { token: "esp_at_nothing", clientId: "${clientId}", clientSecret: "${secret}" }) { revoked } }`),
    'GET /graphql introspectAccessToken': () =>
      fetch(`${server.url}/graphql?${new URLSearchParams({ query: `{ introspectAccessToken(input: { token: "esp_at_nothing", clientId: "${clientId}", clientSecret: "${secret}" }) { active } }` })}`, {
        headers: { accept: 'application/json', ...via(ip) },
      }),
  };
}

async function signInPage(ip: string) {
  const session = new AuthorizeSession(server.url);
  const query = { response_type: 'code', client_id: 'app_demo', redirect_uri: DEMO_REDIRECT_URI, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' };
  const page = await fetch(`${server.url}/oauth/authorize?${new URLSearchParams(query)}`, { headers: via(ip) });
  session.jar.take(page);
  const fields = formFields(await page.text());
  return (password: string) =>
    fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: session.jar.header(), 'content-type': 'application/x-www-form-urlencoded', ...via(ip) },
      body: new URLSearchParams({ ...fields, action: 'sign_in', username: 'alice', password }),
    });
}

/** A 429 says when to come back and which limit it is, on every surface. */
function expectRefusal(response: Response, policy: string, what: string) {
  expect(response.status, what).toBe(429);
  expect(Number(response.headers.get('retry-after')), what).toBeGreaterThanOrEqual(1);
  expect(response.headers.get('ratelimit-policy'), what).toMatch(new RegExp(`^"${policy}";q=\\d+;w=\\d+$`));
  expect(response.headers.get('ratelimit'), what).toMatch(new RegExp(`^"${policy}";r=\\d+;t=\\d+$`));
}

describe('one failure accounting for every check of a secret or password', () => {
  it('failures on GraphQL block /oauth/token, failures on /oauth/token block GraphQL, and the sign-in form counts with them', async () => {
    const ip = address();
    for (let i = 0; i < 3; i++) {
      const wrong = await (await graphql(ip, ISSUE, issueInput(`wrong-${i}`))).json();
      expect(wrong.errors[0].extensions.oauthError).toBe('invalid_client');
    }
    // The address is past its failures: the right secret is refused, by every path.
    for (const [what, send] of Object.entries(everyCheck(ip, 'demo-app-secret'))) expectRefusal(await send(), 'auth_failures', what);
    const blockedGraphQL = await (await graphql(ip, ISSUE, issueInput('demo-app-secret'))).json();
    expect(blockedGraphQL).toMatchObject({ errors: [{ extensions: { code: 'rate_limited', details: [{ issue: 'rate_limit_exceeded' }] } }] });
    expect(blockedGraphQL.data).toBeUndefined();
    expectRefusal(await (await signInPage(ip))('demo-password'), 'auth_failures', 'sign-in');

    // The other way round, from another address: REST failures block GraphQL.
    const other = address();
    for (let i = 0; i < 3; i++) expect((await token(other, `wrong-${i}`)).status).toBe(401);
    expectRefusal(await graphql(other, ISSUE, issueInput('demo-app-secret')), 'auth_failures', 'GraphQL after REST failures');

    // And wrong passwords block the token endpoint.
    const third = address();
    const signIn = await signInPage(third);
    for (let i = 0; i < 3; i++) expect((await signIn(`wrong-${i}`)).status).toBe(401);
    expectRefusal(await token(third, 'demo-app-secret'), 'auth_failures', 'token after failed sign-ins');
    // A fresh address is not affected by any of it.
    expect((await token(address(), 'demo-app-secret')).status).toBe(200);
  });

  it('each kind of check counts: wrong secrets by any one path block the address', async () => {
    for (const what of Object.keys(everyCheck('', ''))) {
      const ip = address();
      const send = everyCheck(ip, 'wrong-secret')[what];
      for (let i = 0; i < 3; i++) expect((await send()).status, what).not.toBe(429);
      expectRefusal(await token(ip, 'demo-app-secret'), 'auth_failures', what);
    }
  });

  it('counts the address the proxy saw, not one the client wrote into X-Forwarded-For', async () => {
    const ip = address();
    for (let i = 0; i < 3; i++) expect((await token(ip, `wrong-${i}`)).status).toBe(401);
    for (const written of ['203.0.113.7', '203.0.113.8, 203.0.113.9']) {
      expectRefusal(await token(`${written}, ${ip}`, 'demo-app-secret'), 'auth_failures', written);
    }
  });

  it('holds under concurrency: of 40 wrong secrets sent at once from one address, 3 are checked', async () => {
    const ip = address();
    const sends = Array.from({ length: 40 }, (_, i) => (i % 2 ? token(ip, `wrong-${i}`) : graphql(ip, ISSUE, issueInput(`wrong-${i}`))));
    const answers = await Promise.all(sends);
    const checked = [];
    for (const answer of answers) {
      if (answer.status === 429) continue;
      const body = await answer.json();
      checked.push(body.error ?? body.errors?.[0]?.extensions?.oauthError);
    }
    expect(checked).toEqual(['invalid_client', 'invalid_client', 'invalid_client']);
  });

  it('one operation checks at most one secret: several credential fields are refused before any runs', async () => {
    const ip = address();
    const input = (secret: string) => `{ grantType: "client_credentials", clientId: "app_demo", clientSecret: "${secret}" }`;
    const documents = [
      `mutation { a: issueAccessToken(input: ${input('w1')}) { accessToken } b: issueAccessToken(input: ${input('w2')}) { accessToken } }`,
      `mutation { a: issueAccessToken(input: ${input('w1')}) { accessToken } ...F } fragment F on Mutation { b: revokeAccessToken(input: { token: "t", clientId: "app_demo", clientSecret: "w2" }) { revoked } }`,
      `mutation { ... on Mutation { a: issueAccessToken(input: ${input('w1')}) { accessToken } } ... on Mutation { b: issueAccessToken(input: ${input('w2')}) { accessToken } } }`,
      `{ a: introspectAccessToken(input: { token: "t", clientId: "app_demo", clientSecret: "w1" }) { active } b: introspectAccessToken(input: { token: "t", clientId: "app_demo", clientSecret: "w2" }) { active } }`,
    ];
    for (const query of documents) {
      const response = await graphql(ip, query);
      expect(response.status, query).toBe(400);
      expect((await response.json()).errors[0].extensions, query).toMatchObject({ code: 'validation_failed', details: [{ issue: 'one_credential_check_per_operation' }] });
    }
    // Nothing was checked, so nothing failed: the address still has all its tries.
    expect((await token(ip, 'demo-app-secret')).status).toBe(200);
  });

  it('a flood of distinct client ids and secrets without any credential is checked 3 times, and the server stays healthy', async () => {
    const ip = address();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => form('/oauth/token', ip, { grant_type: 'client_credentials', client_id: `app_guess_${i}`, client_secret: `secret-${i}` }).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(57);
    const started = Date.now();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('a client\'s own quota', () => {
  it('cannot be spent by strangers guessing its secret from many addresses (app_provider, used by no other test here)', async () => {
    // 12 addresses × 3 failures, by every path and with requests that are wrong in other ways too
    // (a grant type that does not exist, a refresh token that does not either): 36 wrong tries
    // against a client quota of 6.
    await Promise.all(
      Array.from({ length: 12 }, async (_, n) => {
        const ip = address();
        const tries = [
          ...Object.values(everyCheck(ip, 'not-the-secret', 'app_provider')),
          () => token(ip, 'not-the-secret', { grant_type: 'bogus' }, 'app_provider'),
          () => token(ip, 'not-the-secret', { grant_type: 'refresh_token', refresh_token: 'esp_rt_nothing' }, 'app_provider'),
        ];
        for (let i = 0; i < 3; i++) {
          const answer = await tries[(n + i) % tries.length]();
          expect(answer.status).not.toBe(429);
          const body = await answer.json();
          expect(body.error ?? body.errors?.[0]?.extensions?.oauthError).toBe('invalid_client');
        }
      }),
    );
    // The real client, from its own address, has its whole quota, and no more.
    const home = address();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await token(home, 'demo-provider-secret', {}, 'app_provider')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const refused = await token(address(), 'demo-provider-secret', {}, 'app_provider');
    expectRefusal(refused, 'client', 'a client past its quota');
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('is spent by every answer to a right secret, whatever the grant, and by GraphQL alike', async () => {
    const ip = address();
    const statuses = [
      (await form('/oauth/token', ip, { grant_type: 'bogus', client_id: 'app_noesports', client_secret: 'demo-noesports-secret' })).status,
      (await form('/oauth/introspect', ip, { token: 'esp_at_nothing', client_id: 'app_noesports', client_secret: 'demo-noesports-secret' })).status,
      (await graphql(ip, ISSUE, issueInput('demo-noesports-secret', 'app_noesports'))).status,
    ];
    expect(statuses).toEqual([400, 200, 200]);
    const last = await form('/oauth/revoke', ip, { token: 'esp_at_nothing', client_id: 'app_noesports', client_secret: 'demo-noesports-secret' });
    expect(last.headers.get('ratelimit')).toMatch(/^"client";r=2;/);
  });
});

describe('every 429 carries Retry-After and the RateLimit fields', () => {
  it('on the API, GraphQL, v1 and the OAuth pages', async () => {
    const ip = address();
    const spend = async (send: () => Promise<Response>) => {
      for (let i = 0; i < 100; i++) {
        const response = await send();
        if (response.status === 429) return response;
        await response.arrayBuffer();
      }
      throw new Error('no 429 within 100 requests');
    };
    const bearer = { authorization: 'Bearer demo-token-provider', ...via(ip) };
    expectRefusal(await spend(() => fetch(`${server.url}/api/v2/auth/context`, { headers: bearer })), 'token', 'REST v2');
    expectRefusal(await spend(() => graphql(ip, '{ authContext { applicationId } }', undefined, { authorization: 'Bearer demo-token-provider' })), 'token', '/graphql');
    expectRefusal(await spend(() => fetch(`${server.url}/api/v1/organisation`, { headers: { 'x-api-key': 'demo-org-key-0002', ...via(ip) } })), 'api_key', 'REST v1');
    expectRefusal(await spend(() => fetch(`${server.url}/api/v2/auth/context`, { headers: via(ip) })), 'anonymous', 'anonymous');
    const signIn = await signInPage(address());
    const page = await spend(() => signIn('wrong'));
    expectRefusal(page, 'auth_failures', 'the sign-in page');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
