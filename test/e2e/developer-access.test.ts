// Who may see and manage an application (docs/developer-apps.md#who-manages-an-application): every
// route under /api/v2/developer/apps/{appId} and every Application field beyond its public ones,
// each tried by outsiders (a token of another application: 404; a token of the application acting for
// a user who does not manage its owner: 403) and by insiders (the application itself, and a user who
// manages its owner). The routes are taken from the route table and the fields from the schema, so a
// new one without a case here fails this file.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let erin: string;
/** Endpoints the insiders may change and delete: one each, so their writes do not meet. */
const endpointOf: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  // A user with no role anywhere, acting through app_demo (as if erin had authorised it).
  erin = `esp_at_test_${randomUUID()}`;
  await server.db.prisma.accessToken.create({
    data: { id: `tok_${randomUUID()}`, tokenHash: createHash('sha256').update(erin).digest('hex'), applicationId: 'app_demo', actorType: 'user', userId: 'usr_erin', scopes: [], expiresAt: new Date('2100-01-01') },
  });
  for (const who of ['app', 'alice']) {
    const created = await fetch(`${server.url}/api/v2/developer/apps/app_demo/webhook-endpoints`, {
      method: 'POST',
      headers: { ...bearer('demo-token-app'), 'content-type': 'application/json', 'idempotency-key': `access-${who}-${randomUUID()}` },
      body: JSON.stringify({ name: `Access ${who}`, url: `https://hooks.example.com/${who}`, subscribedEvents: ['stage.created'] }),
    });
    expect(created.status).toBe(201);
    endpointOf[who] = (await created.json()).data.endpoint.id;
  }
});
afterAll(() => server?.close());

const PREFIX = '/api/v2/developer/apps/{appId}';
const TOKENS = { app: 'demo-token-app', alice: 'demo-token-alice', dave: 'demo-token-dave', otherApp: 'demo-token-noesports' } as const;
type Insider = 'app' | 'alice';

interface Case {
  /** The concrete path, for the insider whose resources it names. */
  path(insider: Insider): string;
  init?(token: string, insider: Insider): Promise<RequestInit> | RequestInit;
  /** What an insider is answered. */
  status: number;
}

const json = (method: string, token: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const keyed = (method: string, token: string, body?: unknown) => json(method, token, body, { 'idempotency-key': `access-${randomUUID()}` });
const app = (rest: string) => `/api/v2/developer/apps/app_demo${rest}`;
const revisionOf = async (endpointId: string) =>
  (await fetch(`${server.url}${app(`/webhook-endpoints/${endpointId}`)}`, { headers: bearer('demo-token-app') })).headers.get('etag')!;

// The rule of the webhook routes, for every route about the application's own business. In the
// order run (deletion last).
const MANAGED: Record<string, Case> = {
  listApplicationInstallations: { path: () => app('/installations'), status: 200 },
  getApplicationUsage: { path: () => app('/usage?metric=esports_calls'), status: 200 },
  createWebhookEndpoint: {
    path: () => app('/webhook-endpoints'),
    init: (token) => keyed('POST', token, { name: 'Access', url: 'https://hooks.example.com/access', subscribedEvents: ['stage.created'] }),
    status: 201,
  },
  listWebhookEndpoints: { path: () => app('/webhook-endpoints'), status: 200 },
  getWebhookEndpoint: { path: (who) => app(`/webhook-endpoints/${endpointOf[who]}`), status: 200 },
  updateWebhookEndpoint: {
    path: (who) => app(`/webhook-endpoints/${endpointOf[who]}`),
    init: async (token, who) => json('PATCH', token, { description: 'Changed' }, { 'if-match': await revisionOf(endpointOf[who]) }),
    status: 200,
  },
  rotateWebhookEndpointSecret: { path: (who) => app(`/webhook-endpoints/${endpointOf[who]}/rotate-secret`), init: (token) => json('POST', token), status: 200 },
  testWebhookEndpoint: { path: (who) => app(`/webhook-endpoints/${endpointOf[who]}/test`), init: (token) => json('POST', token), status: 201 },
  recoverWebhookDeliveries: {
    path: (who) => app(`/webhook-endpoints/${endpointOf[who]}/recover`),
    init: (token) => json('POST', token, { since: '2099-01-01T00:00:00Z' }),
    status: 200,
  },
  listWebhookDeliveries: { path: () => app('/webhook-deliveries'), status: 200 },
  getWebhookDelivery: { path: () => app('/webhook-deliveries/dlv_dead'), status: 200 },
  listWebhookDeliveryAttempts: { path: () => app('/webhook-deliveries/dlv_dead/attempts'), status: 200 },
  redeliverWebhookDelivery: { path: () => app('/webhook-deliveries/dlv_dead/redeliver'), init: (token) => keyed('POST', token), status: 201 },
  deleteWebhookEndpoint: { path: (who) => app(`/webhook-endpoints/${endpointOf[who]}`), init: (token) => json('DELETE', token), status: 200 },
};

// Owner transfers are a person's decision and have their own table (docs/developer-apps.md): a token
// of another application is still 404 on reads, a user without a side in the transfer sees nothing
// of it, and neither may decide anything.
const transfer = (rest: string) => `/api/v2/developer/apps/app_transfer/owner-transfers${rest}`;
const TRANSFERS: Record<string, { path: string; init?: (token: string) => RequestInit; otherApp: number; stranger: number; insider: { token: string; status: number } }> = {
  listOwnerTransfers: { path: transfer(''), otherApp: 404, stranger: 200, insider: { token: TOKENS.alice, status: 200 } },
  getOwnerTransfer: { path: transfer('/otr_pending'), otherApp: 404, stranger: 404, insider: { token: TOKENS.alice, status: 200 } },
  createOwnerTransfer: {
    path: transfer(''),
    init: (token) => keyed('POST', token, { toOwner: { type: 'organisation', id: 'org_rival' } }),
    otherApp: 403,
    stranger: 403,
    // alice manages the owner; one transfer is pending already
    insider: { token: TOKENS.alice, status: 409 },
  },
  acceptOwnerTransfer: { path: transfer('/otr_pending/accept'), init: (token) => keyed('POST', token), otherApp: 403, stranger: 403, insider: { token: TOKENS.alice, status: 403 } },
  declineOwnerTransfer: { path: transfer('/otr_pending/decline'), init: (token) => keyed('POST', token), otherApp: 403, stranger: 403, insider: { token: TOKENS.dave, status: 200 } },
  cancelOwnerTransfer: { path: transfer('/otr_pending/cancel'), init: (token) => keyed('POST', token), otherApp: 403, stranger: 403, insider: { token: TOKENS.alice, status: 409 } },
};

const send = async (path: string, init: RequestInit | undefined) => {
  const response = await fetch(`${server.url}${path}`, init);
  return { status: response.status, body: (await response.json()) as { error?: { code: string; details?: { issue: string }[] } } };
};

describe('every route under /api/v2/developer/apps/{appId}', () => {
  it('has a case here', () => {
    const routes = routeTable.filter((row) => row.path.startsWith(PREFIX)).map((row) => row.operationId);
    expect(routes.length).toBeGreaterThanOrEqual(19);
    expect([...routes].sort()).toEqual([...Object.keys(MANAGED), ...Object.keys(TRANSFERS)].sort());
  });

  it.each(Object.entries(MANAGED))('%s: another application is 404, a user who does not manage the owner 403, the application and its owner\'s manager get the data', async (_name, item) => {
    const initFor = (token: string, who: Insider) => (item.init ? item.init(token, who) : { headers: bearer(token) });
    const otherApp = await send(item.path('app'), await initFor(TOKENS.otherApp, 'app'));
    expect(otherApp.status).toBe(404);
    expect(otherApp.body.error?.code).toBe('not_found');
    for (const stranger of [TOKENS.dave, erin]) {
      const refused = await send(item.path('app'), await initFor(stranger, 'app'));
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'forbidden', details: [{ issue: 'missing_permission' }] });
    }
    for (const who of ['app', 'alice'] as const) {
      const answer = await send(item.path(who), await initFor(TOKENS[who], who));
      expect(answer.status, JSON.stringify(answer.body)).toBe(item.status);
    }
  });

  it.each(Object.entries(TRANSFERS))('%s: the owner transfers\' own table', async (_name, item) => {
    const init = (token: string) => (item.init ? item.init(token) : { headers: bearer(token) });
    expect((await send(item.path, init(TOKENS.otherApp))).status).toBe(item.otherApp);
    const stranger = await send(item.path, init(erin));
    expect(stranger.status).toBe(item.stranger);
    if (item.stranger === 200) expect((stranger.body as { data: unknown[] }).data).toEqual([]);
    expect((await send(item.path, init(item.insider.token))).status).toBe(item.insider.status);
  });
});

describe('every Application field beyond its public ones, over GraphQL', () => {
  const PUBLIC = ['id', 'name', 'owner', 'grantedScopes', 'createdAt'];
  const SELECTIONS: Record<string, string> = {
    installations: 'installations { data { id targetType targetId user { id } } }',
    usage: 'usage(metric: esports_calls) { total days { installationId } }',
    webhookEndpoints: 'webhookEndpoints { data { id url } }',
    webhookEndpoint: 'webhookEndpoint(id: "whe_demo") { id url }',
    webhookDeliveries: 'webhookDeliveries { data { id } }',
    webhookDelivery: 'webhookDelivery(id: "dlv_dead") { id }',
  };
  const graphql = async (token: string, query: string) => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await response.json()) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string; details?: { issue: string }[] } }[] };
  };

  it('has a case here', async () => {
    const { data } = await graphql(TOKENS.app, '{ __type(name: "Application") { fields { name } } }');
    const fields = (data!.__type as { fields: { name: string }[] }).fields.map((field) => field.name);
    expect(fields.filter((name) => !PUBLIC.includes(name)).sort()).toEqual(Object.keys(SELECTIONS).sort());
  });

  it.each(Object.entries(SELECTIONS))('Application.%s, reached by application(id:) or by authContext', async (_field, selection) => {
    for (const query of [`{ application(id: "app_demo") { ${selection} } }`, `{ authContext { application { ${selection} } } }`]) {
      for (const stranger of [TOKENS.dave, erin]) {
        const refused = await graphql(stranger, query);
        expect(refused.errors?.[0]?.extensions, query).toMatchObject({ code: 'forbidden', details: [{ issue: 'missing_permission' }] });
        expect(JSON.stringify(refused.data ?? null)).not.toMatch(/ins_demo|usr_bob|whe_|dlv_|"total"/);
      }
      for (const insider of [TOKENS.app, TOKENS.alice]) {
        const answer = await graphql(insider, query);
        expect(answer.errors, query).toBeUndefined();
      }
    }
    const otherApp = await graphql(TOKENS.otherApp, `{ application(id: "app_demo") { ${selection} } }`);
    expect(otherApp.errors?.[0]?.extensions?.code).toBe('not_found');
  });
});
