// Refresh-token rotation under the conditions that break it: requests that present the same refresh
// token at the same moment (a client retrying, two tabs), a reuse after the reuse interval (a stolen
// token), and refused requests, which must not spend the token.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, underLoadLimits, type TestServer } from '../support/server.ts';
import { authorizationRequest, AuthorizeSession, DEMO_REDIRECT_URI, discover, insecure } from '../support/authorize-forms.ts';

let server: TestServer;
let as: oauth.AuthorizationServer;
let session: AuthorizeSession;
const client: oauth.Client = { client_id: 'app_demo' };
const clientAuth = oauth.ClientSecretBasic('demo-app-secret');
const basic = `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { ...underLoadLimits(), client: { name: 'client', quota: 100_000, windowSeconds: 60 } } });
  as = await discover(server.url);
  session = new AuthorizeSession(server.url);
  await grant(); // signs alice in: the grants below only consent
});
afterAll(() => server?.close());

/** Runs with another reuse interval (the model reads it per request). */
async function withInterval(seconds: string, run: () => Promise<void>) {
  const before = process.env.REFRESH_TOKEN_REUSE_SECONDS;
  process.env.REFRESH_TOKEN_REUSE_SECONDS = seconds;
  try {
    await run();
  } finally {
    if (before === undefined) delete process.env.REFRESH_TOKEN_REUSE_SECONDS;
    else process.env.REFRESH_TOKEN_REUSE_SECONDS = before;
  }
}

/** A new grant of alice's to app_demo (signed in once; consent each time): its first tokens. */
async function grant(scope = 'event:manage broadcast:manage') {
  const flow = await authorizationRequest(scope);
  const params = oauth.validateAuthResponse(as, client, await session.authorize(flow.query), flow.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, DEMO_REDIRECT_URI, flow.verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

/** A refresh as any client would send it: one request, its status and body. */
async function refresh(refreshToken: string, extra: Record<string, string> = {}, authorization = basic) {
  const response = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string; refresh_token?: string; scope?: string; error?: string } };
}

const works = async (accessToken: string) => (await fetch(`${server.url}/api/v2/auth/context`, { headers: { authorization: `Bearer ${accessToken}` } })).status === 200;

describe('concurrent refreshes with one refresh token', () => {
  it('never revoke the grant: every racing request gets a working pair (12 grants × 3 rotations × 4 at once)', async () => {
    // The interval is long here: a busy test machine may queue a racing request for seconds (each
    // one derives the client secret's scrypt first), and this is about the race, not the interval.
    await withInterval('60', async () => {
      const outcomes: string[] = [];
      const rotate = async () => {
        const first = await grant();
        const issued = [first.access_token];
        let current = first.refresh_token!;
        for (let rotation = 0; rotation < 3; rotation++) {
          const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(current)));
          outcomes.push(...answers.map((answer) => (answer.status === 200 ? 'pair' : `${answer.status} ${answer.body.error}`)));
          const pairs = answers.filter((answer) => answer.status === 200);
          if (pairs.length === 0) return;
          issued.push(...pairs.map((answer) => answer.body.access_token!));
          // Each racing request has a pair of its own.
          expect(new Set(pairs.map((answer) => answer.body.refresh_token)).size).toBe(pairs.length);
          current = pairs[pairs.length - 1].body.refresh_token!;
        }
        // Nothing was revoked: every access token issued along the way still works.
        for (const token of issued) expect(await works(token)).toBe(true);
      };
      // Three grants at a time, twelve in all.
      for (let round = 0; round < 4; round++) await Promise.all([rotate(), rotate(), rotate()]);
      expect(outcomes).toHaveLength(12 * 3 * 4);
      expect(outcomes.filter((outcome) => outcome !== 'pair')).toEqual([]);
    });
  });
});

describe('the reuse interval (REFRESH_TOKEN_REUSE_SECONDS, 10 s by default)', () => {
  it('within it, the spent token still works for its own client, never for another', async () => {
    const first = await grant();
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.status).toBe(200);
    const other = await refresh(first.refresh_token!, {}, `Basic ${Buffer.from('app_noesports:demo-noesports-secret').toString('base64')}`);
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const retry = await refresh(first.refresh_token!);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).not.toBe(rotated.body.refresh_token);
    for (const token of [first.access_token, rotated.body.access_token!, retry.body.access_token!]) expect(await works(token)).toBe(true);
  });

  it('after it, the spent token is taken for a stolen one: the grant is revoked, every pair it issued included', async () => {
    await withInterval('1', async () => {
      const first = await grant();
      const [a, b] = await Promise.all([refresh(first.refresh_token!), refresh(first.refresh_token!)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const reused = await refresh(first.refresh_token!);
      expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      for (const token of [first.access_token, a.body.access_token!, b.body.access_token!]) expect(await works(token)).toBe(false);
      for (const next of [a.body.refresh_token!, b.body.refresh_token!]) expect((await refresh(next)).body.error).toBe('invalid_grant');
      const revoked = await server.db.prisma.oAuthGrant.findMany({ where: { revokedReason: 'refresh_token_reused' } });
      expect(revoked.length).toBeGreaterThanOrEqual(1);
    });
  });

  it('0 turns it off: a second presentation right after the rotation revokes the grant', async () => {
    await withInterval('0', async () => {
      const first = await grant();
      expect((await refresh(first.refresh_token!)).status).toBe(200);
      expect((await refresh(first.refresh_token!)).body.error).toBe('invalid_grant');
      expect(await works(first.access_token)).toBe(false);
    });
  });
});

describe('a refused refresh', () => {
  it('does not spend the token: a scope wider than the grant, or unknown, is refused and the token still works', async () => {
    // With no reuse interval a spent token would revoke the grant: a refusal that spent it shows.
    await withInterval('0', async () => {
      const first = await grant('event:manage');
      for (const scope of ['event:manage broadcast:manage', 'nope:manage', 'esports:publish']) {
        const refused = await refresh(first.refresh_token!, { scope });
        expect(refused, scope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
      }
      const graphql = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($input: AccessTokenRequest!) { issueAccessToken(input: $input) { accessToken } }',
          variables: { input: { grantType: 'refresh_token', refreshToken: first.refresh_token, scope: 'broadcast:manage', clientId: 'app_demo', clientSecret: 'demo-app-secret' } },
        }),
      });
      expect((await graphql.json()).errors[0].extensions.oauthError).toBe('invalid_scope');
      expect(await works(first.access_token)).toBe(true);
      const narrowed = await refresh(first.refresh_token!, { scope: 'event:manage' });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.scope).toBe('event:manage');
    });
  });
});
