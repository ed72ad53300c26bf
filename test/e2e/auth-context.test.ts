// GET /api/v2/auth/context and the 401 rules, end to end against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/api/crypto.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const future = new Date(Date.now() + 3_600_000);
  await server.db.prisma.accessToken.createMany({
    data: [
      { id: 'tok_expired', tokenHash: sha256('token-expired'), applicationId: 'app_demo', actorType: 'application', scopes: [], expiresAt: new Date(Date.now() - 1000) },
      { id: 'tok_revoked', tokenHash: sha256('token-revoked'), applicationId: 'app_demo', actorType: 'application', scopes: [], expiresAt: future, revokedAt: new Date() },
    ],
  });
});
afterAll(() => server?.close());

const context = (token: string | null, query = '', headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v2/auth/context${query}`, { headers: { ...(token ? bearer(token) : {}), ...headers } });

const ALL_SCOPES = ['broadcast:manage', 'event.participants:manage', 'event.results:manage', 'event.structure:manage', 'event:manage'];

describe('authority context', () => {
  it('reports the application actor, owner, scopes and entitlements', async () => {
    const response = await context('demo-token-app', '', { 'x-request-id': 'my-request-1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('my-request-1');
    const { data } = await response.json();
    expect(data).toEqual({
      requestId: 'my-request-1',
      applicationId: 'app_demo',
      actor: { type: 'application', applicationId: 'app_demo' },
      owner: { type: 'organisation', id: 'org_demo' },
      installation: null,
      scopes: ALL_SCOPES,
      permissions: [],
      entitlements: ['esports_data'],
    });
  });

  it('reports a token without scopes and an owner without entitlements', async () => {
    expect((await (await context('demo-token-readonly')).json()).data.scopes).toEqual([]);
    const { data } = await (await context('demo-token-noesports')).json();
    expect(data.applicationId).toBe('app_noesports');
    expect(data.owner).toEqual({ type: 'organisation', id: 'org_rival' });
    expect(data.entitlements).toEqual([]);
  });

  it('resolves the installation and permissions on an organisation', async () => {
    const { data } = await (await context('demo-token-app', '?targetType=organisation&targetId=org_demo')).json();
    expect(data.installation).toMatchObject({ id: 'ins_demo_org', targetType: 'organisation', targetId: 'org_demo', status: 'active' });
    expect(data.permissions).toEqual(expect.arrayContaining([...ALL_SCOPES, 'event:read', 'organisation:read']));
  });

  it('resolves an event through the installation on its organisation', async () => {
    const { data } = await (await context('demo-token-app', '?targetType=event&targetId=evt_open')).json();
    expect(data.installation?.id).toBe('ins_demo_org');
    expect(data.permissions).toContain('event:manage');
  });

  it('gives no installation and no permissions on another organisation', async () => {
    for (const query of ['?targetType=organisation&targetId=org_rival', '?targetType=event&targetId=evt_rival', '?targetType=event&targetId=evt_nope']) {
      const { data } = await (await context('demo-token-app', query)).json();
      expect(data.installation).toBeNull();
      expect(data.permissions).toEqual([]);
    }
  });

  it('treats a revoked user installation as none', async () => {
    const bob = (await (await context('demo-token-app', '?targetType=user&targetId=usr_bob')).json()).data;
    expect(bob.installation?.id).toBe('ins_demo_bob');
    expect(bob.permissions).toEqual(['user:read']);
    const carol = (await (await context('demo-token-app', '?targetType=user&targetId=usr_carol')).json()).data;
    expect(carol.installation).toBeNull();
    expect(carol.permissions).toEqual([]);
  });

  it('reports a user actor and that user’s own permissions', async () => {
    const alice = (await (await context('demo-token-alice', '?targetType=organisation&targetId=org_demo')).json()).data;
    expect(alice.actor).toEqual({ type: 'user', userId: 'usr_alice' });
    expect(alice.permissions).toEqual(expect.arrayContaining(ALL_SCOPES));
    const dave = (await (await context('demo-token-dave', '?targetType=organisation&targetId=org_demo')).json()).data;
    expect(dave.actor).toEqual({ type: 'user', userId: 'usr_dave' });
    expect(dave.permissions).toEqual([]);
    const daveRival = (await (await context('demo-token-dave', '?targetType=event&targetId=evt_rival')).json()).data;
    expect(daveRival.permissions).toEqual(expect.arrayContaining(['event:manage', 'event:read']));
  });

  it('reports team permissions from the team role', async () => {
    const { data } = await (await context('demo-token-app', '?targetType=team&targetId=team_alpha')).json();
    expect(data.permissions).toEqual([]);
  });

  it.each([
    ['?targetType=organisation', 'targetId'],
    ['?targetId=org_demo', 'targetType'],
    ['?targetType=planet&targetId=x', 'targetType'],
    ['?targetType=user&targetId=', 'targetId'],
    ['?colour=blue', 'colour'],
    ['?targetType=user&targetType=team&targetId=usr_bob', 'targetType'],
  ])('answers 400 validation_failed for %s', async (query, field) => {
    const response = await context('demo-token-app', query);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
    expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});

describe('invalid tokens', () => {
  it.each([
    ['missing', null, {}],
    ['unknown', 'no-such-token', {}],
    ['expired', 'token-expired', {}],
    ['revoked', 'token-revoked', {}],
    ['malformed scheme', null, { authorization: 'Token demo-token-app' }],
  ])('%s → 401 invalid_token with WWW-Authenticate', async (_name, token, headers) => {
    const response = await context(token, '', headers as Record<string, string>);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const body = await response.json();
    expect(body.error.code).toBe('invalid_token');
    expect(body.error.requestId).toMatch(/^req_/);
  });

  it('a token revoked after use stops working at once', async () => {
    await server.db.prisma.accessToken.create({
      data: { id: 'tok_soon_revoked', tokenHash: sha256('token-soon-revoked'), applicationId: 'app_demo', actorType: 'application', scopes: [], expiresAt: new Date(Date.now() + 3_600_000) },
    });
    expect((await context('token-soon-revoked')).status).toBe(200);
    await server.db.prisma.accessToken.update({ where: { id: 'tok_soon_revoked' }, data: { revokedAt: new Date() } });
    expect((await context('token-soon-revoked')).status).toBe(401);
  });
});

describe('authority in GraphQL', () => {
  const graphql = async (query: string, token = 'demo-token-app') => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ query }),
    });
    return response.json();
  };

  it('answers the same authority context as REST', async () => {
    const rest = (await (await context('demo-token-alice', '?targetType=organisation&targetId=org_demo')).json()).data;
    const { data } = await graphql(
      `{ authContext(targetType: organisation, targetId: "org_demo") { applicationId actor { ... on UserActor { type userId } } owner { type id } installation { id } scopes permissions entitlements } }`,
      'demo-token-alice',
    );
    expect(data.authContext).toEqual({
      applicationId: rest.applicationId,
      actor: rest.actor,
      owner: rest.owner,
      installation: { id: rest.installation.id },
      scopes: rest.scopes,
      permissions: rest.permissions,
      entitlements: rest.entitlements,
    });
  });

  it('answers invalid_token in GraphQL too', async () => {
    const body = await graphql('{ authContext { applicationId } }', 'nope');
    expect(body.errors[0].extensions.code).toBe('invalid_token');
  });
});

describe('GET /api/v2/developer/apps/{appId}/installations', () => {
  it("lists the calling application's installations in target order with filters and cursor pages; another application's is 404", async () => {
    const list = async (query = '', token = 'demo-token-app', app = 'app_demo') => {
      const response = await fetch(`${server.url}/api/v2/developer/apps/${app}/installations${query}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json() };
    };
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual(['ins_demo_org', 'ins_demo_bob', 'ins_demo_carol']);
    expect(all.body.data[0]).toEqual({ id: 'ins_demo_org', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_demo', status: 'active', createdAt: '2026-01-05T12:30:00.000Z' });
    expect((await list('?status=revoked')).body.data.map((i: { id: string }) => i.id)).toEqual(['ins_demo_carol']);
    expect((await list('?targetType=user&status=active')).body.data.map((i: { id: string }) => i.id)).toEqual(['ins_demo_bob']);
    const first = await list('?limit=2');
    expect(first.body.meta.hasMore).toBe(true);
    const second = await list(`?limit=2&cursor=${first.body.meta.nextCursor}`);
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual(['ins_demo_carol']);
    expect(second.body.meta).toEqual({ nextCursor: null, hasMore: false });
    expect((await list('', 'demo-token-app', 'app_noesports')).status).toBe(404);
    expect((await list('', 'demo-token-alice')).status).toBe(200); // a user actor of app_demo reads its application's installations
    expect((await list('?status=paused')).status).toBe(400);
    expect((await list(`?cursor=${first.body.meta.nextCursor}&status=active`)).status).toBe(400);
  });
});
