// The distributed topology on a real federation router: the three subgraphs as `npm run start:subgraph`
// services on one PostgreSQL database, Hive Gateway in front of them (`npm run router`, configured by
// router.yaml), and the platform's facade pointed at the same services (SUBGRAPH_URLS). Every route
// operation sent to the router (by its trusted-document hash: the router runs nothing else) answers
// what the single process's /graphql answers (each on its own copy of the demo world); the headers
// authority depends on reach the subgraphs; a subgraph stopped mid-test is 503 on both, never a hang;
// a subgraph answering anything but GraphQL is 503 and leaks nothing; and the router outlives floods
// of documents. PostgreSQL only: PGlite is one process's database.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { sha256 } from '../../platform/api/crypto.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { SUBGRAPH_TIMEOUT_MS } from '../../facade/graphql/gateway.ts';
import { assertNoServerLeft, isAlive, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { overLatencyBudget, slowAnswers, watchHealth } from '../support/health-budget.ts';
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

/** The request naming its document by hash, as the router takes it (the text is left out). */
const persisted = (body: string) => {
  const { query, ...rest } = JSON.parse(body) as { query: string };
  return JSON.stringify({ ...rest, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
};
const operation = (operationId: string) => routeTable.find((row) => row.operationId === operationId)!.operation;
/** A route operation's request to /graphql: the text for the single process, and by hash for the router. */
const request = (operationId: string, variables: Record<string, unknown> = {}) => {
  const { source, name } = operation(operationId);
  const text = JSON.stringify({ query: source, operationName: name, variables });
  return { text, named: persisted(text) };
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
        const viaRouter = await post(router.base, requests[1].headers, persisted(requests[1].body));
        expect(said(viaRouter.text), `${row.operationId} sample ${i}`).toEqual(said(viaSingle.text));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(80);
  }, 240_000);

  it('passes authorization, x-api-key, svc-installation-id and x-request-id to the subgraphs, and never a client\'s subgraph secret', async () => {
    const both = (headers: Record<string, string>, { text, named }: { text: string; named: string }) => Promise.all([post(router.base, headers, named), post(`${single.url}/graphql`, headers, text)]);
    const context = request('getAuthContext');
    for (const headers of [
      { authorization: 'Bearer demo-token-app', 'x-request-id': 'router-req-1' },
      { authorization: 'Bearer not-a-token', 'x-request-id': 'router-req-2' },
    ] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await both(headers, context);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
    }
    expect(JSON.parse((await post(router.base, { authorization: 'Bearer demo-token-app', 'x-request-id': 'router-req-3' }, context.named)).text).data.authContext.requestId).toBe('router-req-3');
    // The organisation API key (x-api-key) reads what the key's organisation may read.
    const organisation = request('v1GetOrganisation');
    for (const headers of [{ 'x-api-key': 'demo-org-key-0001' }, { 'x-api-key': 'nope' }, {}] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await both(headers, organisation);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
    }
    expect(JSON.parse((await post(router.base, { 'x-api-key': 'demo-org-key-0001' }, organisation.named)).text).data.apiKey.organisation).toMatchObject({ id: 'org_demo' });
    // The installation an esports call is made for (svc-installation-id) and metered to.
    const esports = request('getEsportsMatch', { matchId: 'esm_final' });
    for (const headers of [{ authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' }, { authorization: 'Bearer demo-token-app' }] as Record<string, string>[]) {
      const [viaRouter, viaSingle] = await both(headers, esports);
      expect(said(viaRouter.text), JSON.stringify(headers)).toEqual(said(viaSingle.text));
    }
    expect(JSON.parse((await post(router.base, { authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' }, esports.named)).text).data.esportsMatch).toMatchObject({ id: 'esm_final' });
    // A client's own svc-subgraph-secret is replaced by the router's: a wrong one changes nothing.
    const forged = await post(router.base, { authorization: 'Bearer demo-token-app', 'svc-subgraph-secret': 'forged'.repeat(8) }, context.named);
    expect(JSON.parse(forged.text).data.authContext.applicationId).toBe('app_demo');
  });

  it('runs only the manifest\'s documents: a text, however large or new, is refused unparsed; bodies it cannot bound are refused', async () => {
    const text = await post(router.base, {}, JSON.stringify({ query: '{ __typename }' }));
    expect(text.status).toBe(400);
    expect(JSON.parse(text.text).errors[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_IN_LIST' });
    const unknown = await post(router.base, {}, JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).errors[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    const huge = await fetch(router.base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename } #${'x'.repeat(1_100_000)}` }) });
    expect(huge.status).toBe(413);
    const chunked = await fetch(router.base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Blob(['{"query":"{ __typename }"}']).stream(), duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(411);
    // Variables as /graphql takes them: nested at most 32 deep (a deep JSON value once took the router's
    // heap before a subgraph saw it), at most 10,000 values; refused without a credential too.
    const createStage = operation('createStage');
    const withSettings = (settings: string) =>
      persisted(JSON.stringify({ query: createStage.source, operationName: createStage.name, variables: { eventId: 'evt_open', idempotencyKey: 'k', input: { name: 'x', format: 'round_robin', bestOf: 1, settings: '@' } } })).replace('"@"', settings);
    for (const settings of ['['.repeat(15_000) + ']'.repeat(15_000), JSON.stringify(Array.from({ length: 20_000 }, () => 1))]) {
      const at = performance.now();
      const deep = await post(router.base, {}, withSettings(settings));
      expect(deep.status, deep.text).toBe(400);
      expect(JSON.parse(deep.text).errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: expect.stringMatching(/^variables/) }] });
      expect(performance.now() - at).toBeLessThan(1_000);
    }
    // The limits of /graphql still hold for a manifest document's variables: a page of 100,000 costs past the limit.
    const page = await post(router.base, { authorization: 'Bearer demo-token-app' }, request('listOrganisationEvents', { organisationId: 'org_demo', limit: 100_000 }).named);
    expect(page.status, page.text).toBe(400);
  });

  it('refuses a batch, a mutation by GET (by hash too) and an operationName the document lacks as /graphql does: 400, 405 with Allow, 400', async () => {
    const answer = async (response: Response) => ({ status: response.status, allow: response.headers.get('allow'), text: await response.text() });
    const postBoth = (text: string, named: string) =>
      Promise.all([[router.base, named] as const, [`${single.url}/graphql`, text] as const].map(async ([url, body]) => answer(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }))));
    /** A GET of a request: by hash (the extensions parameter) to the router, by text to the single process. */
    const getBoth = ({ source, operationName, variables }: { source: string; operationName?: string; variables?: Record<string, unknown> }) => {
      const rest = { ...(operationName === undefined ? {} : { operationName }), ...(variables ? { variables: JSON.stringify(variables) } : {}) };
      const byHash = new URLSearchParams({ extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(source) } }), ...rest });
      return Promise.all([`${router.base}?${byHash}`, `${single.url}/graphql?${new URLSearchParams({ query: source, ...rest })}`].map(async (url) => answer(await fetch(url, { headers: { authorization: 'Bearer demo-token-app' } }))));
    };
    const context = request('getAuthContext');
    const stage = operation('createStage');
    const lacking = (body: string) => JSON.stringify({ ...JSON.parse(body), operationName: 'NotInTheDocument' });
    const cases = {
      batch: [400, await postBoth(`[${context.text}]`, `[${context.named}]`)],
      'mutation by GET': [405, await getBoth({ source: stage.source, operationName: stage.name, variables: { eventId: 'evt_open', idempotencyKey: 'k', input: { name: 'x', format: 'round_robin', bestOf: 1 } } })],
      'mutation by GET, no operationName': [405, await getBoth({ source: stage.source })],
      'operationName not in the document': [400, await postBoth(lacking(context.text), lacking(context.named))],
      'operationName not in the document, by GET': [400, await getBoth({ source: operation('getAuthContext').source, operationName: 'NotInTheDocument' })],
    } as const;
    for (const [name, [status, [viaRouter, viaSingle]]] of Object.entries(cases)) {
      expect(viaRouter.status, `${name}: ${viaRouter.text}`).toBe(status);
      expect(viaRouter.status, name).toBe(viaSingle.status);
      expect(viaRouter.allow, name).toBe(viaSingle.allow);
      expect(said(viaRouter.text), name).toEqual(said(viaSingle.text));
    }
    expect(cases['mutation by GET'][1][0].allow).toBe('POST');
    // An empty operationName is none, on both: the operation runs.
    const [viaRouter, viaSingle] = await getBoth({ source: operation('getAuthContext').source, operationName: '' });
    expect(viaRouter.status, viaRouter.text).toBe(200);
    expect(said(viaRouter.text)).toEqual(said(viaSingle.text));
  });

  it('answers a request that does not arrive within 30 s as /graphql does: 408 with the platform\'s error body, the connection closed', async () => {
    const head = 'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const cases = {
      'a body that stops': [head + '{"query":', ''],
      'a body that trickles (a byte a second: 100 s for its 100)': [head, ' '],
      'a head that trickles': ['POST /graphql HTTP/1.1\r\nHost: x\r\n', 'x-slow: 1\r\n'],
    } as const;
    const answers = await Promise.all(Object.values(cases).flatMap(([sent, trickle]) => [router.base, `${single.url}/graphql`].map((url) => trickled(url, sent, trickle))));
    Object.keys(cases).forEach((name, i) => {
      const [viaRouter, viaSingle] = answers.slice(2 * i, 2 * i + 2);
      for (const answer of [viaRouter, viaSingle]) {
        expect(answer.status, `${name}: ${answer.text}`).toBe(408);
        expect(answer.headers.connection, name).toBe('close');
        expect(answer.headers['content-type'], name).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body), name).toEqual({ error: { code: 'validation_failed', message: 'The request was not received in time.', requestId: answer.headers['x-request-id'], details: [{ issue: 'request_timeout' }] } });
        // 30 s, checked every 5 s on the platform.
        expect(answer.ms, name).toBeGreaterThan(29_000);
        expect(answer.ms, name).toBeLessThan(37_000);
      }
      expect(viaRouter.headers['x-request-id'], name).toMatch(/^req_[0-9a-f]{32}$/);
    });
  }, 60_000);

  it('answers 503 with Retry-After, through the router and the facade alike, while a subgraph is stopped, and serves again when it is back', async () => {
    const developer = subgraphs.developer;
    const query = request('getAuthContext').named;
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
      const competitions = await post(router.base, token, request('getEvent', { eventId: 'evt_open' }).named);
      expect(JSON.parse(competitions.text).data.event).toMatchObject({ id: 'evt_open', name: 'Demo Open' });
    } finally {
      process.kill(developer.pid, 'SIGCONT');
    }
    expect(JSON.parse((await post(router.base, token, query)).text).data.authContext.applicationId).toBe('app_demo');

    // Stopped (SIGTERM): refused connections, answered at once.
    await developer.stop();
    const [viaRouter, viaFacade] = await Promise.all([post(router.base, token, query), fetch(`${facade.url}/api/v2/auth/context`, { headers: token })]);
    expect(viaRouter.status).toBe(503);
    expect(viaRouter.ms).toBeLessThan(2_000);
    expect(viaFacade.status).toBe(503);
    // Back on its address: both serve again, without a restart of their own.
    subgraphs.developer = await startSubgraph('developer', new URL(developer.base).port);
    expect(JSON.parse((await post(router.base, token, query)).text).data.authContext.applicationId).toBe('app_demo');
    expect((await fetch(`${facade.url}/api/v2/auth/context`, { headers: token })).status).toBe(200);
  }, 60_000);

  it('answers 503 for a subgraph that answers anything but GraphQL, passes on none of its body, status or headers, and logs no request of a subgraph', async () => {
    // A stand-in for the esports subgraph, answering as `mode` says; the developer subgraph unreachable.
    let mode = 'html';
    const fake: Server = createHttpServer((req, res) => {
      req.resume();
      if (mode === 'html') res.writeHead(500, { 'content-type': 'text/html' }).end('<html>Error at /srv/app/internal.js host db-internal.10.0.0.5</html>');
      else if (mode === 'forbidden') res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{"code":"forbidden","message":"secret"}}');
      else if (mode === 'not-json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":');
      else if (mode === 'bad-retry') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { esportsMatch: null }, errors: [{ message: 'down', path: ['esportsMatch'], extensions: { code: 'service_unavailable', retryAfter: '1\r\nX-Injected: 1' } }] }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { esportsMatch: null }, errors: [{ message: 'moved', path: ['esportsMatch'], extensions: { code: 'not_found', http: { status: 302, headers: { location: 'http://evil.example', 'set-cookie': 'a=b' } } } }] }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}/graphql`;
    const urls = [`competitions=${subgraphs.competitions.base}`, `esports=${fakeUrl}`, 'developer=http://127.0.0.1:9/graphql'].join(',');
    const odd = await startServerProcess({ args: ['run', '--silent', 'router'], env: { PORT: '0', LOG_LEVEL: 'info', SUBGRAPH_SECRET: secret, SUBGRAPH_URLS: urls }, ready: /Router serves (http:\/\/\S+)/ });
    try {
      const esports = request('getEsportsMatch', { matchId: 'esm_final' }).named;
      const headers = { authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' };
      for (const kind of ['html', 'forbidden', 'not-json']) {
        mode = kind;
        const answer = await post(odd.base, headers, esports);
        expect(answer.status, `${kind}: ${answer.text}`).toBe(503);
        expect(answer.retryAfter).toBe('2');
        expect(JSON.parse(answer.text).errors).toEqual([{ message: expect.stringContaining('cannot be reached'), path: ['esportsMatch'], extensions: { code: 'service_unavailable', details: [{ issue: 'subgraph_unavailable' }], retryAfter: 2 } }]);
      }
      mode = 'bad-retry';
      const badRetry = await post(odd.base, headers, esports);
      expect(badRetry.status).toBe(503);
      expect(badRetry.retryAfter).toBe('2');
      mode = 'redirect';
      const redirect = await fetch(odd.base, { method: 'POST', redirect: 'manual', headers: { ...headers, 'content-type': 'application/json' }, body: esports });
      expect(redirect.status).toBe(200);
      expect(redirect.headers.get('location')).toBeNull();
      expect(redirect.headers.get('set-cookie')).toBeNull();
      expect((await redirect.json()).errors).toEqual([{ message: 'moved', path: ['esportsMatch'], extensions: { code: 'not_found' } }]);
      // A client secret sent to an unreachable subgraph is not in the router's log.
      const issue = request('issueToken', { input: { grantType: 'client_credentials', clientId: 'app_demo', clientSecret: 'demo-app-secret' } }).named;
      expect((await post(odd.base, {}, issue)).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(odd.output()).not.toContain('demo-app-secret');
      // Refusals were the client's answer: none leaves an empty error line in the log.
      for (let i = 0; i < 5; i++) await post(odd.base, {}, JSON.stringify({ query: '{ __typename }' }));
      expect(odd.output()).not.toMatch(/"msg":""/);
    } finally {
      await odd.stop();
      await new Promise((resolve) => fake.close(resolve));
    }
  }, 60_000);

  it('lives through floods of documents with and without credentials under its production heap flags, /healthz within a second', async () => {
    // Within a second of the router's own time (support/health-budget.ts): a machine busy with other work does not fail it.
    const watching = await watchHealth(router.base.replace(/\/graphql$/, ''), router.pid);
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const list = operation('listOrganisationEvents');
    let next = 0;
    const send = async () => {
      for (let i = next++; i < 3_000; i = next++) {
        const headers: Record<string, string> = {};
        if (i % 3 === 1) headers.authorization = 'Bearer demo-token-app';
        if (i % 3 === 2) headers.authorization = `Bearer ${randomBytes(16).toString('hex')}`;
        // Distinct texts (refused unparsed), unknown hashes, and a manifest document with distinct variables.
        const body =
          i % 3 === 0
            ? JSON.stringify({ query: `query Q${i} { __typename x${i}: __typename } #${'x'.repeat(i % 30_000)}` })
            : i % 3 === 1
              ? JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(String(i)) } } })
              : persisted(JSON.stringify({ query: list.source, operationName: list.name, variables: { organisationId: `org_${i}`, cursor: 'c'.repeat(i % 2_000) } }));
        const response = await fetch(router.base, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        count(response.status);
      }
    };
    await Promise.all(Array.from({ length: 32 }, send));
    // One after the other, the largest texts a body may hold, each new.
    for (let i = 0; i < 60; i++) {
      const response = await fetch(router.base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename t${i}: __type(name: "${'A'.repeat(1_000_000)}") { name } }` }) });
      await response.arrayBuffer();
      count(response.status);
    }
    const { samples, healthFailures } = await watching.stop();
    expect([...statuses.keys()].every((status) => [200, 400, 404].includes(status)), JSON.stringify(Object.fromEntries(statuses))).toBe(true);
    expect(healthFailures).toEqual([]);
    expect(overLatencyBudget(samples, 1_000), JSON.stringify(slowAnswers(samples))).toEqual([]);
    expect(isAlive(router.pid)).toBe(true);
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${router.pid}/status`, 'utf8'))![1]) / 1024;
    expect(rss).toBeLessThan(300);
  }, 180_000);
});

/** What a server answers to `sent`, followed by `trickle` every second until the connection closes (45 s at most). */
async function trickled(url: string, sent: string, trickle: string) {
  const { hostname, port } = new URL(url);
  const at = performance.now();
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (data: string) => (text += data));
  socket.on('error', () => undefined);
  socket.write(sent);
  const writing = setInterval(() => trickle && socket.writable && socket.write(trickle), 1_000);
  const guard = setTimeout(() => socket.destroy(), 45_000);
  await new Promise((resolve) => socket.once('close', resolve));
  clearInterval(writing);
  clearTimeout(guard);
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4), text, ms: performance.now() - at };
}
