// The authorization pages against a hostile page or proxy: CSRF tokens bound to the browser's
// session, and an issuer that no request's Host header can change (metadata, and the iss of every
// authorization response, RFC 9207), checked with a real OAuth client library (oauth4webapi).
import http from 'node:http';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { authorizationRequest, AuthorizeSession, DEMO_REDIRECT_URI, formFields, insecure } from '../support/authorize-forms.ts';
import { publicUrlOf } from '../../facade/http/oauth-metadata.ts';

let server: TestServer;
beforeAll(async () => {
  delete process.env.PUBLIC_URL;
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A request naming another Host than the server's (fetch would not send one of our choosing). */
function withHost(url: string, host: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; location: string | null; body: string }>((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: { ...options.headers, host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, location: (response.headers.location as string | undefined) ?? null, body }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A browser signed in as `username`, on the consent page of a fresh request: its form fields. */
async function consentPage(base: string, username: string) {
  const session = new AuthorizeSession(base);
  const flow = await authorizationRequest();
  const url = `/oauth/authorize?${new URLSearchParams(flow.query)}`;
  const signIn = await session.post({ ...formFields(await (await session.get(url)).text()), action: 'sign_in', username, password: 'demo-password' });
  expect(signIn.status).toBe(303);
  const page = await (await session.get(url)).text();
  expect(page).toContain('wants to act for you');
  return { session, flow, fields: formFields(page) };
}

describe('CSRF tokens are bound to the session', () => {
  it('a token from one session is refused in another, even with the first session\'s CSRF cookie planted beside it', async () => {
    const alice = await consentPage(server.url, 'alice');
    const bob = await consentPage(server.url, 'bob');
    // Bob's browser, with alice's form token and alice's esp_csrf cookie: a double-submit check alone
    // would take them as a pair.
    const planted = `esp_session=${bob.session.jar.get('esp_session')}; esp_csrf=${alice.session.jar.get('esp_csrf')}`;
    const forged = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: planted, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...bob.fields, csrf: alice.fields.csrf, action: 'approve' }),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
    // Each session's own token works.
    const own = await bob.session.post({ ...bob.fields, action: 'approve' });
    expect(own.status).toBe(303);
    expect(new URL(own.headers.get('location')!).searchParams.get('code')).toMatch(/^esp_ac_/);
  });

  it('a token shown before signing in, or to the user signed out since, is refused', async () => {
    // A sign-in page's token (bound to the pre-session), used for a consent after signing in elsewhere.
    const session = new AuthorizeSession(server.url);
    const flow = await authorizationRequest();
    const url = `/oauth/authorize?${new URLSearchParams(flow.query)}`;
    const early = formFields(await (await session.get(url)).text());
    expect((await session.post({ ...formFields(await (await session.get(url)).text()), action: 'sign_in', username: 'alice', password: 'demo-password' })).status).toBe(303);
    expect((await session.post({ ...early, action: 'approve' })).status).toBe(400);

    // Alice's consent token after alice signed out and carol signed in, in the same browser.
    const aliceConsent = formFields(await (await session.get(url)).text());
    expect((await session.post({ ...aliceConsent, action: 'sign_out' })).status).toBe(303);
    expect((await session.post({ ...formFields(await (await session.get(url)).text()), action: 'sign_in', username: 'carol', password: 'demo-password' })).status).toBe(303);
    const stale = await session.post({ ...aliceConsent, action: 'approve' });
    expect(stale.status).toBe(400);
    expect(stale.headers.get('location')).toBeNull();
  });

  it('a form without the cookies, or with a made-up token, is refused', async () => {
    const { session, fields } = await consentPage(server.url, 'alice');
    const bare = await fetch(`${server.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...fields, action: 'approve' }) });
    expect(bare.status).toBe(400);
    for (const csrf of ['', 'x', fields.csrf.slice(1), `${fields.csrf}x`, session.jar.get('esp_csrf')!]) {
      expect((await session.post({ ...fields, csrf, action: 'approve' })).status, csrf).toBe(400);
    }
  });
});

describe('the issuer', () => {
  const client: oauth.Client = { client_id: 'app_demo' };

  it('is the address the server listens on whatever Host a request names: metadata and every iss', async () => {
    for (const host of [new URL(server.url).host, 'evil.example', 'localhost:1']) {
      const metadata = JSON.parse((await withHost(`${server.url}/.well-known/oauth-authorization-server`, host)).body);
      expect(metadata.issuer, host).toBe(server.url);
      for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'revocation_endpoint', 'introspection_endpoint', 'service_documentation']) {
        expect(metadata[endpoint].startsWith(`${server.url}/`), endpoint).toBe(true);
      }
    }
    // Error redirects, denials and codes all name it, whatever the Host of the page's request.
    const flow = await authorizationRequest();
    const error = await withHost(`${server.url}/oauth/authorize?${new URLSearchParams({ ...flow.query, response_type: 'token' })}`, 'evil.example');
    expect(new URL(error.location!).searchParams.get('iss')).toBe(server.url);
    const { session, fields } = await consentPage(server.url, 'alice');
    for (const action of ['deny', 'approve']) {
      const answer = await withHost(`${server.url}/oauth/authorize`, 'evil.example', {
        method: 'POST',
        headers: { cookie: session.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: String(new URLSearchParams({ ...fields, action })),
      });
      expect(answer.status).toBe(303);
      expect(new URL(answer.location!).searchParams.get('iss'), action).toBe(server.url);
    }
  });

  it('is PUBLIC_URL when it is set, and an OAuth client library discovers and validates it', async () => {
    process.env.PUBLIC_URL = 'https://auth.example.test/';
    const behindProxy = await startTestServer().finally(() => delete process.env.PUBLIC_URL);
    try {
      const response = await fetch(`${behindProxy.url}/.well-known/oauth-authorization-server`);
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      // What a client that knows the issuer as https://auth.example.test accepts (RFC 8414 §3.3).
      const as = await oauth.processDiscoveryResponse(new URL('https://auth.example.test'), response);
      expect(as.issuer).toBe('https://auth.example.test');
      expect(as.token_endpoint).toBe('https://auth.example.test/oauth/token');
      const flow = await authorizationRequest();
      const callback = await new AuthorizeSession(behindProxy.url).authorize(flow.query);
      expect(callback.searchParams.get('iss')).toBe('https://auth.example.test');
      expect(oauth.validateAuthResponse(as, client, callback, flow.state).get('code')).toMatch(/^esp_ac_/);
      // A response naming another issuer is refused by the library (RFC 9207), as it must be.
      const other = new URL(callback);
      other.searchParams.set('iss', 'https://evil.example');
      expect(() => oauth.validateAuthResponse(as, client, other, flow.state)).toThrow();
    } finally {
      await behindProxy.close();
    }
  });

  it('without PUBLIC_URL, discovery from the listening address passes oauth4webapi\'s issuer check', async () => {
    const issuer = new URL(server.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
    const flow = await authorizationRequest();
    const callback = await new AuthorizeSession(server.url).authorize(flow.query);
    const params = oauth.validateAuthResponse(as, client, callback, flow.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic('demo-app-secret'), params, DEMO_REDIRECT_URI, flow.verifier, insecure),
    );
    expect(tokens.access_token).toMatch(/^esp_at_/);
  });

  it('PUBLIC_URL must be an http(s) origin: anything else stops the start with one sentence', () => {
    expect(publicUrlOf('https://api.example.com/')).toBe('https://api.example.com');
    expect(publicUrlOf('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
    expect(publicUrlOf(undefined)).toBeNull();
    for (const bad of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/oauth', 'https://api.example.com/?x=1', 'https://user:pw@api.example.com', 'https://api.example.com/#f']) {
      expect(() => publicUrlOf(bad), bad).toThrow(/^PUBLIC_URL must be the origin clients call/);
    }
  });
});
