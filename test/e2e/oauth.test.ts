// POST /oauth/token (client_credentials) driven by a real OAuth client library.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { discover, insecure } from '../support/authorize-forms.ts';

let server: TestServer;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: 'app_demo' };

beforeAll(async () => {
  server = await startTestServer();
  as = await discover(server.url);
});
afterAll(() => server?.close());

const tokenRequest = (auth: oauth.ClientAuth, params: Record<string, string>, who = client) =>
  oauth.clientCredentialsGrantRequest(as, who, auth, params, insecure);

const contextOf = async (token: string) =>
  (await (await fetch(`${server.url}/api/v2/auth/context`, { headers: { authorization: `Bearer ${token}` } })).json()).data;

const formPost = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

describe('client credentials', () => {
  it('issues a token with client_secret_basic that works on the API', async () => {
    const response = await tokenRequest(oauth.ClientSecretBasic('demo-app-secret'), { scope: 'event:manage broadcast:manage' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const token = await oauth.processClientCredentialsResponse(as, client, response);
    expect(token.token_type).toBe('bearer');
    expect(token.expires_in).toBe(3600);
    expect(token.scope).toBe('broadcast:manage event:manage');
    const context = await contextOf(token.access_token);
    expect(context.actor).toEqual({ type: 'application', applicationId: 'app_demo' });
    expect(context.scopes).toEqual(['broadcast:manage', 'event:manage']);
  });

  it('issues a token with client_secret_post and all granted scopes by default', async () => {
    const token = await oauth.processClientCredentialsResponse(as, client, await tokenRequest(oauth.ClientSecretPost('demo-app-secret'), {}));
    expect(token.scope?.split(' ')).toHaveLength(5);
    expect((await contextOf(token.access_token)).scopes).toHaveLength(5);
  });

  it('stores only a hash of the token', async () => {
    const token = await oauth.processClientCredentialsResponse(as, client, await tokenRequest(oauth.ClientSecretBasic('demo-app-secret'), {}));
    const rows = await server.db.prisma.accessToken.findMany({ select: { tokenHash: true } });
    expect(rows.some((row) => row.tokenHash === token.access_token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });

  it('refuses a scope the application was not granted: invalid_scope', async () => {
    const response = await tokenRequest(oauth.ClientSecretBasic('demo-transfer-secret'), { scope: 'event:manage' }, { client_id: 'app_transfer' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('knows every scope the metadata lists: one the application lacks is "not granted", never unknown; the sentences name the way out', async () => {
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.scopes_supported).toContain('esports:publish');
    for (const scope of metadata.scopes_supported as string[]) {
      const asked = await formPost(new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(), { authorization: `Basic ${Buffer.from('app_transfer:demo-transfer-secret').toString('base64')}` });
      expect(asked.status, scope).toBe(400);
      expect(await asked.json(), scope).toEqual({ error: 'invalid_scope', error_description: `The application was not granted the scope ${scope}: it holds no scope.` });
    }
    const publish = await tokenRequest(oauth.ClientSecretBasic('demo-app-secret'), { scope: 'esports:publish event:manage' });
    expect(await publish.json()).toEqual({
      error: 'invalid_scope',
      error_description: 'The application was not granted the scope esports:publish: it may ask for event:manage, event.structure:manage, event.participants:manage, event.results:manage, broadcast:manage, or leave scope out for all of them.',
    });
    // The provider application, granted it, gets it.
    const provider = await tokenRequest(oauth.ClientSecretBasic('demo-provider-secret'), { scope: 'esports:publish' }, { client_id: 'app_provider' });
    expect((await provider.json()).scope).toBe('esports:publish');
    const unknown = await tokenRequest(oauth.ClientSecretBasic('demo-app-secret'), { scope: 'event:manage esports:read teams:manage' });
    expect(await unknown.json()).toEqual({
      error: 'invalid_scope',
      error_description: `esports:read and teams:manage are not scopes of this platform; its scopes are ${metadata.scopes_supported.join(', ')}.`,
    });
  });

  it('refuses a wrong secret or an unknown client: 401 invalid_client', async () => {
    for (const [id, secret] of [['app_demo', 'wrong'], ['app_nope', 'demo-app-secret']]) {
      const response = await tokenRequest(oauth.ClientSecretBasic(secret), {}, { client_id: id });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(await response.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
  });

  it('answers RFC 6749 errors for bad requests', async () => {
    const basic = { authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}` };
    let response = await formPost('grant_type=password&username=a&password=b', basic);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
    response = await formPost('grant_type=authorization_code_x', basic);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('unsupported_grant_type');
    response = await formPost('scope=event:manage', basic);
    expect((await response.json()).error).toBe('invalid_request');
    response = await formPost('grant_type=client_credentials');
    expect((await response.json()).error).toBe('invalid_request');
    response = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json', ...basic }, body: '{"grant_type":"client_credentials"}' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });

  it('refuses a parameter sent twice (RFC 6749 section 3.1) instead of picking one of its values', async () => {
    const basic = { authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}` };
    for (const body of ['grant_type=client_credentials&scope=event:manage&scope=broadcast:manage', 'grant_type=client_credentials&grant_type=client_credentials', 'client_id=app_demo&client_secret=demo-app-secret&grant_type=client_credentials&client_secret=other']) {
      const response = await formPost(body, body.includes('client_id') ? {} : basic);
      expect(response.status, body).toBe(400);
      const error = await response.json();
      expect(error.error).toBe('invalid_request');
      expect(error.error_description).toMatch(/repeats (scope|grant_type|client_secret)/);
    }
    // Sent once each, the same parameters are a token.
    expect((await formPost('grant_type=client_credentials&scope=event:manage', basic)).status).toBe(200);
    // A name that cannot be quoted in an error_description (RFC 6749 section 5.2's characters) is not.
    for (const name of ['%3Cscript%3E%22', '%00', 'caf%C3%A9']) {
      const response = await formPost(`grant_type=client_credentials&${name}=1&${name}=2`, basic);
      const error = await response.json();
      expect(error.error).toBe('invalid_request');
      expect(error.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/);
      if (name === '%3Cscript%3E%22') expect(error.error_description).toContain('repeats a parameter');
    }
  });

  it('counts a parameter sent without a value as omitted, and refuses a body client_id that is not the Basic one', async () => {
    const basic = { authorization: `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}` };
    const token = await formPost('grant_type=client_credentials&scope=', basic);
    expect(token.status).toBe(200);
    expect(await contextOf((await token.json()).access_token)).toMatchObject({ applicationId: 'app_demo' });
    const same = await formPost('grant_type=client_credentials&client_id=app_demo', basic);
    expect(same.status).toBe(200);
    const other = await formPost('grant_type=client_credentials&client_id=app_noesports', basic);
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('another client') });
  });

  it('is available as a GraphQL mutation too', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation { issueAccessToken(input: { grantType: "client_credentials", clientId: "app_demo", clientSecret: "demo-app-secret", scope: "event:manage" }) { accessToken scope expiresIn } }',
      }),
    });
    const { data } = await response.json();
    expect(data.issueAccessToken.scope).toBe('event:manage');
    expect((await contextOf(data.issueAccessToken.accessToken)).scopes).toEqual(['event:manage']);
  });
});
