// The distributed topology on a real federation router: the three subgraphs as `npm run start:subgraph`
// services on one PostgreSQL database, Hive Gateway in front of them (`npm run router`, configured by
// router.yaml), and the platform's facade pointed at the same services (SUBGRAPH_URLS). Every route
// operation sent to the router answers what the single process's /graphql answers (each on its own
// copy of the demo world); the headers authority depends on reach the subgraphs; a subgraph stopped
// mid-test is 503 on both, never a hang; and the router outlives a flood. PostgreSQL only: PGlite is
// one process's database.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { SUBGRAPH_TIMEOUT_MS } from '../../facade/graphql/gateway.ts';
import { assertNoServerLeft, isAlive, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { postgresServerUrl } from '../support/scratch-database.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { routeSamples, sampleStateOf } from '../support/route-samples.ts';
import { graphqlRequestOf, normalise } from '../support/route-operations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const onPostgres = Boolean(postgresServerUrl());
const secret = randomBytes(32).toString('hex');
let shared: TestDatabase;
let single: TestServer;
let facade: TestServer;
let router: ServerProcess;
const subgraphs: Record<string, ServerProcess> = {};

const startSubgraph = (name: string, port = '0') =>
  startServerProcess({
    args: ['run', '--silent', 'start:subgraph', '--', name],
    env: { DATABASE_URL: shared.url!, PORT: port, LOG_LEVEL: 'silent', SUBGRAPH_SECRET: secret },
    ready: /serves (http:\/\/\S+)/,
  });

beforeAll(async () => {
  if (!onPostgres) return;
  // The router's side: one database the subgraph services share, a copy of the demo world.
  shared = await createTestDatabase();
  for (const name of SUBGRAPH_NAMES) subgraphs[name] = await startSubgraph(name);
  const urls = SUBGRAPH_NAMES.map((name) => `${name}=${subgraphs[name].base}`).join(',');
  router = await startServerProcess({
    args: ['run', '--silent', 'router'],
    env: { PORT: '0', LOG_LEVEL: 'silent', SUBGRAPH_SECRET: secret, SUBGRAPH_URLS: urls },
    ready: /Router serves (http:\/\/\S+)/,
  });
  // The facade over the same services, and the single process on a copy of its own.
  facade = await startTestServer({ db: shared, subgraphUrls: Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, subgraphs[name].base])), subgraphSecret: secret, webhookWorker: false });
  single = await startTestServer({ webhookWorker: false });
}, 300_000);

afterAll(async () => {
  if (!onPostgres) return;
  await Promise.all([router?.stop(), ...Object.values(subgraphs).map((subgraph) => subgraph.stop().catch(() => undefined))]);
  await Promise.all([facade?.close(), single?.close()]);
  await shared?.drop();
  assertNoServerLeft();
});

/** What a GraphQL answer says, whoever serves it: data, and each error's message, path, code and details. */
function said(text: string): string {
  const body = JSON.parse(text) as { data?: unknown; errors?: { message: string; path?: unknown; extensions?: { code?: string; details?: unknown } }[] };
  const errors = body.errors?.map((error) => ({ message: error.message, path: error.path, code: error.extensions?.code, details: error.extensions?.details }));
  return normalise(JSON.stringify({ data: body.data, errors }));
}

const post = async (url: string, headers: Record<string, string>, body: string) => {
  const at = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text, ms: performance.now() - at };
};

describe.skipIf(!onPostgres)('a federation router over the subgraph services', () => {
  it('answers every route operation as the single process answers it on /graphql', async () => {
    const singleSamples = routeSamples(sampleStateOf(() => single));
    const routerSamples = routeSamples(sampleStateOf(() => facade));
    let compared = 0;
    for (const row of routeTable) {
      for (let i = 0; i < singleSamples[row.operationId].length; i++) {
        const requests = await Promise.all([singleSamples[row.operationId][i], routerSamples[row.operationId][i]].map((sample) => graphqlRequestOf(row, sample)));
        if (!requests[0] || !requests[1]) continue; // a sample its route refuses before the operation runs
        const viaSingle = await post(`${single.url}/graphql`, requests[0].headers, requests[0].body);
        const viaRouter = await post(router.base, requests[1].headers, requests[1].body);
        expect(said(viaRouter.text), `${row.operationId} sample ${i}`).toEqual(said(viaSingle.text));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(80);
  }, 240_000);

  it('passes authorization, x-api-key, svc-installation-id and x-request-id to the subgraphs, and never a client\'s subgraph secret', async () => {
    const query = JSON.stringify({ query: '{ authContext { requestId applicationId actor { ... on ApplicationActor { applicationId } } installation { id } scopes } }' });
    for (const headers of [
      { authorization: 'Bearer demo-token-app', 'x-request-id': 'router-req-1' },
      { authorization: 'Bearer not-a-token', 'x-request-id': 'router-req-3' },
    ] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await Promise.all([post(router.base, headers, query), post(`${single.url}/graphql`, headers, query)]);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
      const context = JSON.parse(viaRouter.text).data?.authContext;
      if (headers.authorization !== 'Bearer not-a-token') expect(context?.requestId, viaRouter.text).toBe(headers['x-request-id']);
    }
    // The organisation API key (x-api-key) reads what the key's organisation may read.
    const byKey = JSON.stringify({ query: '{ apiKey { organisation { id name } } }' });
    for (const headers of [{ 'x-api-key': 'demo-org-key-0001' }, { 'x-api-key': 'nope' }, {}] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await Promise.all([post(router.base, headers, byKey), post(`${single.url}/graphql`, headers, byKey)]);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
    }
    expect(JSON.parse((await post(router.base, { 'x-api-key': 'demo-org-key-0001' }, byKey)).text)).toEqual({ data: { apiKey: { organisation: { id: 'org_demo', name: 'Demo Esports League' } } } });
    // The installation an esports call is made for (svc-installation-id) and metered to.
    const esports = JSON.stringify({ query: '{ esportsMatch(matchId: "esm_final") { id } }' });
    for (const headers of [{ authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' }, { authorization: 'Bearer demo-token-app' }] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await Promise.all([post(router.base, headers, esports), post(`${single.url}/graphql`, headers, esports)]);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
    }
    expect(JSON.parse((await post(router.base, { authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' }, esports)).text)).toEqual({ data: { esportsMatch: { id: 'esm_final' } } });
    // A client's own svc-subgraph-secret is replaced by the router's: a wrong one changes nothing.
    const forged = await post(router.base, { authorization: 'Bearer demo-token-app', 'svc-subgraph-secret': 'forged'.repeat(8) }, query);
    expect(JSON.parse(forged.text).data.authContext.applicationId).toBe('app_demo');
  });

  it('applies /graphql\'s limits and refuses bodies it cannot bound', async () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ');
    const refused = await post(router.base, {}, JSON.stringify({ query: `{ ${aliases} }` }));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'aliases', issue: 'limit_exceeded' }] });
    const huge = await fetch(router.base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename } #${'x'.repeat(1_100_000)}` }) });
    expect(huge.status).toBe(413);
  });

  it('answers 503 with Retry-After, through the router and the facade alike, while a subgraph is stopped, and serves again when it is back', async () => {
    const developer = subgraphs.developer;
    const query = JSON.stringify({ query: '{ authContext { applicationId } }' });
    const token = { authorization: 'Bearer demo-token-app' };
    // Frozen (SIGSTOP): connections are accepted and nothing answers; both answer at the subgraph timeout.
    process.kill(developer.pid, 'SIGSTOP');
    try {
      const [viaRouter, viaFacade] = await Promise.all([
        post(router.base, token, query),
        (async () => {
          const at = performance.now();
          const response = await fetch(`${facade.url}/api/v2/auth/context`, { headers: token });
          return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json(), ms: performance.now() - at };
        })(),
      ]);
      expect(viaRouter.status).toBe(503);
      expect(viaRouter.retryAfter).toBe('2');
      expect(JSON.parse(viaRouter.text).errors[0]).toMatchObject({ message: expect.stringContaining('cannot be reached'), path: ['authContext'], extensions: { code: 'service_unavailable', details: [{ issue: 'subgraph_unavailable' }], retryAfter: 2 } });
      expect(viaRouter.text).not.toContain('127.0.0.1');
      expect(viaFacade.status).toBe(503);
      expect(viaFacade.retryAfter).toBe('2');
      expect(viaFacade.body.error).toMatchObject({ code: 'service_unavailable', details: [{ issue: 'subgraph_unavailable' }] });
      for (const ms of [viaRouter.ms, viaFacade.ms]) {
        expect(ms).toBeGreaterThan(SUBGRAPH_TIMEOUT_MS - 500);
        expect(ms).toBeLessThan(SUBGRAPH_TIMEOUT_MS + 5_000);
      }
      // What does not need the developer subgraph is still answered.
      const competitions = await post(router.base, token, JSON.stringify({ query: '{ event(id: "evt_open") { id name } }' }));
      expect(JSON.parse(competitions.text)).toEqual({ data: { event: { id: 'evt_open', name: 'Demo Open' } } });
    } finally {
      process.kill(developer.pid, 'SIGCONT');
    }
    expect(JSON.parse((await post(router.base, token, query)).text)).toEqual({ data: { authContext: { applicationId: 'app_demo' } } });

    // Stopped (SIGTERM): refused connections, answered at once.
    await developer.stop();
    const [viaRouter, viaFacade] = await Promise.all([post(router.base, token, query), fetch(`${facade.url}/api/v2/auth/context`, { headers: token })]);
    expect(viaRouter.status).toBe(503);
    expect(viaRouter.ms).toBeLessThan(2_000);
    expect(viaFacade.status).toBe(503);
    // Back on its address: both serve again, without a restart of their own.
    subgraphs.developer = await startSubgraph('developer', new URL(developer.base).port);
    expect(JSON.parse((await post(router.base, token, query)).text)).toEqual({ data: { authContext: { applicationId: 'app_demo' } } });
    expect((await fetch(`${facade.url}/api/v2/auth/context`, { headers: token })).status).toBe(200);
  }, 60_000);

  it('lives through a flood of distinct documents with and without credentials under its production heap flags, /healthz within a second', async () => {
    const health = router.base.replace(/\/graphql$/, '/healthz');
    let slowest = 0;
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const at = performance.now();
        expect((await fetch(health)).status).toBe(200);
        slowest = Math.max(slowest, performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const statuses = new Map<number, number>();
    let next = 0;
    const send = async () => {
      for (let i = next++; i < 3_000; i = next++) {
        const headers: Record<string, string> = {};
        if (i % 3 === 1) headers.authorization = 'Bearer demo-token-app';
        if (i % 3 === 2) headers.authorization = `Bearer ${randomBytes(16).toString('hex')}`;
        // Distinct documents: each is parsed, validated and planned anew.
        const query = i % 5 === 0 ? `{ e${i}: event(id: "evt_${i}") { id name stages { id } } }` : i % 5 === 1 ? `{ a${i}: authContext { applicationId } }` : `query Q${i} { __typename x${i}: __typename }`;
        const response = await fetch(router.base, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: `${query} #${'x'.repeat(i % 8_192)}` }) });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, send));
    flooding = false;
    await probe;
    expect([...statuses.keys()].every((status) => status === 200), JSON.stringify(Object.fromEntries(statuses))).toBe(true);
    expect(slowest).toBeLessThan(1_000);
    expect(isAlive(router.pid)).toBe(true);
  }, 180_000);
});
