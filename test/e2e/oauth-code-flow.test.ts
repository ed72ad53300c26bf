// The authorization-code flow with PKCE, refresh rotation, revocation and introspection, driven by a
// real OAuth client library (oauth4webapi) against the running platform; the pages are answered over
// HTTP here (test/support/authorize-forms.ts) and in Chromium in oauth-browser.test.ts.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { authorizationRequest, AuthorizeSession, DEMO_REDIRECT_URI, discover, formFields, insecure } from '../support/authorize-forms.ts';

let server: TestServer;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: 'app_demo' };
const clientAuth = oauth.ClientSecretBasic('demo-app-secret');

beforeAll(async () => {
  server = await startTestServer();
  as = await discover(server.url);
});
afterAll(() => server?.close());

const start = authorizationRequest;

/** Runs the flow to its tokens as user `username`. */
async function tokensFor(username = 'alice', scope?: string) {
  const flow = await start(scope);
  const callback = await new AuthorizeSession(server.url).authorize(flow.query, { username });
  const params = oauth.validateAuthResponse(as, client, callback, flow.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, DEMO_REDIRECT_URI, flow.verifier, insecure);
  return { tokens: await oauth.processAuthorizationCodeResponse(as, client, response), params, flow };
}

const contextOf = (token: string) => fetch(`${server.url}/api/v2/auth/context`, { headers: { authorization: `Bearer ${token}` } });

describe('metadata (RFC 8414)', () => {
  it('lists every endpoint, grant, auth method and S256 as the only code challenge method', () => {
    expect(as.issuer).toBe(new URL(server.url).href.replace(/\/$/, ''));
    expect(as.authorization_endpoint).toBe(`${as.issuer}/oauth/authorize`);
    expect(as.token_endpoint).toBe(`${as.issuer}/oauth/token`);
    expect(as.revocation_endpoint).toBe(`${as.issuer}/oauth/revoke`);
    expect(as.introspection_endpoint).toBe(`${as.issuer}/oauth/introspect`);
    expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    expect(as.response_types_supported).toEqual(['code']);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    for (const field of ['token_endpoint_auth_methods_supported', 'revocation_endpoint_auth_methods_supported', 'introspection_endpoint_auth_methods_supported'] as const) {
      expect(as[field]).toEqual(['client_secret_basic', 'client_secret_post']);
    }
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
  });
});

describe('authorization code with PKCE', () => {
  it('signs the user in, asks consent naming the application and each scope, and issues tokens acting for the user', async () => {
    const flow = await start();
    const session = new AuthorizeSession(server.url);
    const first = await session.get(`/oauth/authorize?${new URLSearchParams(flow.query)}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    expect(await first.text()).toContain('Sign in to continue to Demo App');
    const callback = await session.authorize(flow.query);
    expect(callback.origin + callback.pathname).toBe(DEMO_REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(flow.state);
    expect(callback.searchParams.get('iss')).toBe(as.issuer);
    const params = oauth.validateAuthResponse(as, client, callback, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, DEMO_REDIRECT_URI, flow.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('broadcast:manage event:manage');
    expect(tokens.refresh_token).toMatch(/^esp_rt_/);
    const context = await (await contextOf(tokens.access_token)).json();
    expect(context.data.actor).toEqual({ type: 'user', userId: 'usr_alice' });
    expect(context.data.scopes).toEqual(['broadcast:manage', 'event:manage']);
  });

  it('shows the consent page without a new sign-in while the session lasts, and lists each scope', async () => {
    const session = new AuthorizeSession(server.url);
    await session.authorize((await start()).query);
    const again = await session.get(`/oauth/authorize?${new URLSearchParams((await start('event:manage event.results:manage')).query)}`);
    const html = await again.text();
    expect(html).toContain('Demo App wants to act for you');
    expect(html).toContain('Alice Admin');
    expect(html).toContain('<code>event:manage</code>');
    expect(html).toContain('<code>event.results:manage</code>');
    expect(html).not.toContain('<code>broadcast:manage</code>');
  });

  it('keeps the user\'s own permissions: a token for bob may not manage org_demo\'s events', async () => {
    const { tokens } = await tokensFor('bob');
    const context = await (await fetch(`${server.url}/api/v2/auth/context?targetType=organisation&targetId=org_demo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json();
    expect(context.data.actor).toEqual({ type: 'user', userId: 'usr_bob' });
    expect(context.data.scopes).toEqual(['broadcast:manage', 'event:manage']);
    expect(context.data.permissions).not.toContain('event:manage');
    const events = await fetch(`${server.url}/api/v2/events/evt_draft`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const publish = await fetch(`${server.url}/api/v2/events/evt_draft/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'if-match': events.headers.get('etag') ?? '"1"', 'idempotency-key': `bob-${Date.now()}` },
    });
    expect(publish.status).toBe(403);
  });

  it('refuses a wrong password on the page, and a wrong verifier or another redirect_uri at the token endpoint', async () => {
    const flow = await start();
    const session = new AuthorizeSession(server.url);
    const page = await session.get(`/oauth/authorize?${new URLSearchParams(flow.query)}`);
    const html = await page.text();
    const fields = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));
    const wrong = await session.post({ ...fields, action: 'sign_in', username: 'alice', password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('do not match');

    const callback = await session.authorize(flow.query);
    const params = oauth.validateAuthResponse(as, client, callback, flow.state);
    const code = params.get('code')!;
    const post = (body: Record<string, string>) =>
      fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}` },
        body: new URLSearchParams(body),
      });
    const badVerifier = await post({ grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI, code_verifier: oauth.generateRandomCodeVerifier() });
    expect(badVerifier.status).toBe(400);
    expect((await badVerifier.json()).error).toBe('invalid_grant');
    // The failed attempt spent the code (no guessing the verifier): the right one is too late now.
    const late = await post({ grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI, code_verifier: flow.verifier });
    expect((await late.json()).error).toBe('invalid_grant');

    const other = await start();
    const otherParams = oauth.validateAuthResponse(as, client, await session.authorize(other.query), other.state);
    const wrongRedirect = await post({ grant_type: 'authorization_code', code: otherParams.get('code')!, redirect_uri: 'http://localhost:8765/other', code_verifier: other.verifier });
    expect(wrongRedirect.status).toBe(400);
    expect((await wrongRedirect.json()).error).toBe('invalid_request');
  });

  it('a code used twice answers invalid_grant and revokes the tokens it issued', async () => {
    const { tokens, params, flow } = await tokensFor();
    expect((await contextOf(tokens.access_token)).status).toBe(200);
    const again = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, DEMO_REDIRECT_URI, flow.verifier, insecure);
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
    expect((await contextOf(tokens.access_token)).status).toBe(401);
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure);
    expect((await refreshed.json()).error).toBe('invalid_grant');
    const grant = await server.db.prisma.oAuthGrant.findFirstOrThrow({ where: { authorizationCodes: { some: { codeHash: { not: '' } } }, revokedReason: 'code_reused' } });
    expect(grant.revokedAt).not.toBeNull();
  });

  it('of concurrent exchanges of one code at most one gets tokens, and any it got are revoked: the code was used twice', async () => {
    const flow = await start();
    const params = oauth.validateAuthResponse(as, client, await new AuthorizeSession(server.url).authorize(flow.query), flow.state);
    const answers = await Promise.all(Array.from({ length: 8 }, () => oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, DEMO_REDIRECT_URI, flow.verifier, insecure)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(8 - ok.length);
    for (const answer of ok) expect((await contextOf((await answer.json()).access_token)).status).toBe(401);
  });

  it('stores codes, access and refresh tokens only as hashes', async () => {
    const { tokens, params } = await tokensFor();
    const rows = [
      ...(await server.db.prisma.accessToken.findMany({ select: { tokenHash: true } })).map((r) => r.tokenHash),
      ...(await server.db.prisma.refreshToken.findMany({ select: { tokenHash: true } })).map((r) => r.tokenHash),
      ...(await server.db.prisma.authorizationCode.findMany({ select: { codeHash: true } })).map((r) => r.codeHash),
    ];
    for (const secret of [tokens.access_token, tokens.refresh_token!, params.get('code')!]) expect(rows).not.toContain(secret);
    expect(rows.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
  });
});

describe('errors of the authorization endpoint', () => {
  const authorize = (query: Record<string, string>) => fetch(`${server.url}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });

  it('answers a page of its own, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
    const { query } = await start();
    for (const bad of [
      { ...query, client_id: 'app_nope' },
      { ...query, redirect_uri: 'http://localhost:8765/callback/' },
      { ...query, redirect_uri: 'https://evil.example/callback' },
      { ...query, client_id: 'app_transfer' },
    ]) {
      const response = await authorize(bad);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const { redirect_uri: _omitted, ...noRedirect } = query;
    expect((await authorize(noRedirect)).status).toBe(400);
    const twice = await fetch(`${server.url}/oauth/authorize?${new URLSearchParams(query)}&redirect_uri=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
    expect(twice.status).toBe(400);
  });

  it('redirects the other errors to the client with error, state and iss (RFC 6749 §4.1.2.1)', async () => {
    const { query, state } = await start();
    const cases: [Record<string, string>, string][] = [
      [{ ...query, response_type: 'token' }, 'unsupported_response_type'],
      [{ ...query, code_challenge_method: 'plain' }, 'invalid_request'],
      [Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'code_challenge')), 'invalid_request'],
      [{ ...query, scope: 'event:manage nope:manage' }, 'invalid_scope'],
      [{ ...query, scope: 'esports:publish' }, 'invalid_scope'],
    ];
    for (const [bad, error] of cases) {
      const response = await authorize(bad);
      expect(response.status, error).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(DEMO_REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe(state);
      expect(location.searchParams.get('iss')).toBe(as.issuer);
      expect(() => oauth.validateAuthResponse(as, client, location, state)).toThrow();
    }
  });

  it('sends access_denied when the user says no, and refuses a form without the CSRF cookie', async () => {
    const flow = await start();
    const denied = await new AuthorizeSession(server.url).authorize(flow.query, { decision: 'deny' });
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe(flow.state);

    const session = new AuthorizeSession(server.url);
    const page = await (await session.get(`/oauth/authorize?${new URLSearchParams(flow.query)}`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const forged = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...flow.query, csrf, action: 'sign_in', username: 'alice', password: 'demo-password' }),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('set-cookie') ?? '').not.toContain('esp_session');
  });
});

describe('hostile input to the pages', () => {
  it('answers NUL bytes, huge values and wrong bodies with a 4xx page or error, never 500', async () => {
    const { query } = await start();
    const raw = (suffix: string) => fetch(`${server.url}/oauth/authorize?${new URLSearchParams(query)}${suffix}`, { redirect: 'manual' });
    for (const suffix of ['&state=%00', '&scope=%00', '&client_id=app_demo%00', `&state=${'x'.repeat(5000)}`, '&code_challenge=%FF%FE']) {
      const response = await raw(suffix);
      expect(response.status, suffix).toBeGreaterThanOrEqual(300);
      expect(response.status, suffix).toBeLessThan(500);
    }
    const session = new AuthorizeSession(server.url);
    const page = await (await session.get(`/oauth/authorize?${new URLSearchParams(query)}`)).text();
    const fields = formFields(page);
    for (const [username, password] of [['alice\u0000', 'demo-password'], ['alice', 'x'.repeat(100_000)], ['\ud800', 'demo-password'], ['', '']]) {
      const response = await session.post({ ...fields, action: 'sign_in', username, password });
      expect([400, 401]).toContain(response.status);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const unknownAction = await session.post({ ...fields, action: 'explode' });
    expect(unknownAction.status).toBe(400);
    // A field sent twice: a page of its own (the form's fields) or the redirect rules (state and the
    // other authorization parameters), as on the GET, never the API's JSON error.
    const twice = (name: string, value: string) =>
      fetch(`${server.url}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: session.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: `${new URLSearchParams({ ...fields, action: 'sign_in', username: 'alice', password: 'demo-password' })}&${name}=${value}`,
      });
    for (const [name, value] of [['csrf', 'x'], ['username', 'bob'], ['action', 'deny']]) {
      const response = await twice(name, value);
      expect(response.status, name).toBe(400);
      expect(response.headers.get('content-type'), name).toMatch(/^text\/html/);
      expect(response.headers.get('set-cookie') ?? '').not.toContain('esp_session');
    }
    const state = await twice('state', 'other');
    expect(state.status).toBe(303);
    const location = new URL(state.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect((await twice('client_id', 'app_demo')).headers.get('content-type')).toMatch(/^text\/html/);
    const json = await fetch(`${server.url}/oauth/authorize`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: session.jar.header() }, body: '{}' });
    expect(json.status).toBe(415);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; a spent one presented again after the reuse interval revokes the whole grant', async () => {
    // One second instead of ten (oauth-refresh.test.ts tries the interval itself).
    process.env.REFRESH_TOKEN_REUSE_SECONDS = '1';
    onTestFinished(() => void delete process.env.REFRESH_TOKEN_REUSE_SECONDS);
    const { tokens } = await tokensFor();
    const first = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
    expect(first.refresh_token).not.toBe(tokens.refresh_token);
    expect(first.scope).toBe('broadcast:manage event:manage');
    const second = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, insecure));
    expect((await contextOf(second.access_token)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const reused = await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure);
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe('invalid_grant');
    for (const token of [tokens.access_token, first.access_token, second.access_token]) expect((await contextOf(token)).status).toBe(401);
    const next = await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, insecure);
    expect((await next.json()).error).toBe('invalid_grant');
  });

  it('may narrow the scope, never widen it, and belong to their client only', async () => {
    const { tokens } = await tokensFor('alice', 'event:manage');
    const wider = await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { scope: 'event:manage broadcast:manage' } });
    expect((await wider.json()).error).toBe('invalid_scope');
    const other = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'app_noesports', client_secret: 'demo-noesports-secret' }),
    });
    expect((await other.json()).error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
  it('introspects a live token of the client, and answers inactive for another client\'s or a revoked one', async () => {
    const { tokens } = await tokensFor();
    const live = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, tokens.access_token, insecure));
    expect(live).toMatchObject({ active: true, client_id: 'app_demo', token_type: 'Bearer', sub: 'usr_alice', scope: 'broadcast:manage event:manage' });
    expect(live.exp! - live.iat!).toBe(3600);
    const refresh = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { token_type_hint: 'refresh_token' } }));
    expect(refresh.active).toBe(true);
    const otherClient: oauth.Client = { client_id: 'app_noesports' };
    const foreign = await oauth.processIntrospectionResponse(as, otherClient, await oauth.introspectionRequest(as, otherClient, oauth.ClientSecretPost('demo-noesports-secret'), tokens.access_token, insecure));
    expect(foreign).toEqual({ active: false });

    const revoked = await oauth.revocationRequest(as, client, clientAuth, tokens.access_token, insecure);
    await oauth.processRevocationResponse(revoked);
    expect((await contextOf(tokens.access_token)).status).toBe(401);
    const after = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, tokens.access_token, insecure));
    expect(after).toEqual({ active: false });
  });

  it('a revoked refresh token revokes its grant; unknown tokens answer 200; a bad client 401', async () => {
    const { tokens } = await tokensFor();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, tokens.refresh_token!, { ...insecure, additionalParameters: { token_type_hint: 'refresh_token' } }));
    expect((await contextOf(tokens.access_token)).status).toBe(401);
    const unknown = await oauth.revocationRequest(as, client, clientAuth, 'esp_at_not-a-token', insecure);
    expect(unknown.status).toBe(200);
    const badClient = await oauth.revocationRequest(as, client, oauth.ClientSecretBasic('wrong'), tokens.access_token, insecure);
    expect(badClient.status).toBe(401);
    expect((await badClient.json()).error).toBe('invalid_client');
    // Another client's token: nothing happens, and nothing tells it apart.
    const live = await tokensFor();
    const foreign = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: live.tokens.access_token, client_id: 'app_noesports', client_secret: 'demo-noesports-secret' }),
    });
    expect(foreign.status).toBe(200);
    expect((await contextOf(live.tokens.access_token)).status).toBe(200);
  });

  it('the same through GraphQL', async () => {
    const { tokens } = await tokensFor();
    const graphql = async (query: string, variables: Record<string, unknown>) =>
      (await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })).json();
    const input = { token: tokens.refresh_token, clientId: 'app_demo', clientSecret: 'demo-app-secret' };
    const introspected = await graphql('query($input: ClientTokenRequest!) { introspectAccessToken(input: $input) { active tokenType sub } }', { input });
    expect(introspected.data.introspectAccessToken).toEqual({ active: true, tokenType: 'refresh_token', sub: 'usr_alice' });
    const refreshed = await graphql('mutation($input: AccessTokenRequest!) { issueAccessToken(input: $input) { accessToken refreshToken scope } }', {
      input: { grantType: 'refresh_token', refreshToken: tokens.refresh_token, clientId: 'app_demo', clientSecret: 'demo-app-secret' },
    });
    expect(refreshed.data.issueAccessToken.refreshToken).toMatch(/^esp_rt_/);
    const revoked = await graphql('mutation($input: ClientTokenRequest!) { revokeAccessToken(input: $input) { revoked } }', {
      input: { ...input, token: refreshed.data.issueAccessToken.refreshToken },
    });
    expect(revoked.data.revokeAccessToken).toEqual({ revoked: true });
    expect((await contextOf(refreshed.data.issueAccessToken.accessToken)).status).toBe(401);
  });
});

describe('the applications a user has authorised', () => {
  it('lists them and revokes one: every token acting for the user stops working', async () => {
    const { tokens } = await tokensFor('carol', 'event:manage');
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const listed = await (await fetch(`${server.url}/api/v2/users/me/authorizations`, { headers })).json();
    expect(listed.data).toEqual([
      { applicationId: 'app_demo', applicationName: 'Demo App', scopes: ['event:manage'], authorizedAt: expect.any(String), lastUsedAt: expect.any(String) },
    ]);
    expect(listed.meta).toEqual({ nextCursor: null, hasMore: false });
    const graph = await (
      await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ myAuthorizations { data { applicationId scopes } } }' }) })
    ).json();
    expect(graph.data.myAuthorizations.data).toEqual([{ applicationId: 'app_demo', scopes: ['event:manage'] }]);

    const second = await tokensFor('carol', 'broadcast:manage');
    const revoked = await fetch(`${server.url}/api/v2/users/me/authorizations/app_demo`, { method: 'DELETE', headers });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).data).toMatchObject({ applicationId: 'app_demo', scopes: ['broadcast:manage', 'event:manage'], revokedAt: expect.any(String) });
    for (const token of [tokens.access_token, second.tokens.access_token]) expect((await contextOf(token)).status).toBe(401);
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.tokens.refresh_token!, insecure);
    expect((await refreshed.json()).error).toBe('invalid_grant');
  });

  it('needs a token acting for a user (403 for an application token) and answers 404 for an application not authorised', async () => {
    const app = await fetch(`${server.url}/api/v2/users/me/authorizations`, { headers: { authorization: 'Bearer demo-token-app' } });
    expect(app.status).toBe(403);
    expect((await app.json()).error.details).toEqual([{ issue: 'user_actor_required' }]);
    const { tokens } = await tokensFor('erin');
    const missing = await fetch(`${server.url}/api/v2/users/me/authorizations/app_noesports`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(missing.status).toBe(404);
  });
});
