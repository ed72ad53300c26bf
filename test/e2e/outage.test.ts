// A database outage as an operator meets it: a PostgreSQL of this file's own is stopped cleanly,
// crashed (pg_ctl stop -m immediate) and killed (SIGKILL to the postmaster) under concurrent load,
// with tokens, API keys and OAuth clients, against the three ways a route runs (npm start, whose
// single-subgraph operations run in-process on their subgraph; a server that sends every operation
// through the gateway; the distributed topology, subgraphs over HTTP). While it is away every surface
// answers 503 with Retry-After and its error body, never 500 and never 429 (a token that cannot be
// checked is not charged to the anonymous quota); gateway sockets are told to try again later and
// keep their subscriptions; the server logs the outage, not every request. After the restart the
// very next requests succeed, nothing stale is charged, and the change feed, the realtime hub and
// the webhook worker resume without losing or repeating a change. Also: "too many connections" and
// "the database system is shutting down" answer 503 as well.
//
// PostgreSQL only (PGlite is the process's own database), and only where initdb is installed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { openDatabase, type Database } from '../../platform/db/database.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';
import { startSubgraphServer, type SubgraphServer } from '../../subgraphs/http-server.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { rateLimitConfig } from '../../facade/http/rate-limits.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { TestDatabase } from '../support/database.ts';
import { postgresServerUrl } from '../support/scratch-database.ts';
import { adminQuery, postgresBinaries, startOwnPostgres, type OwnPostgres } from '../support/own-postgres.ts';
import { assertNoServerLeft, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { call, uniqueKey } from '../support/api.ts';
import { randomBytes } from 'node:crypto';

const bin = postgresBinaries();
const enabled = Boolean(postgresServerUrl()) && bin !== null;

/** Low, so that the token requests of one outage alone would exhaust it were they charged to it. */
const ANONYMOUS_QUOTA = 30;
/** OAuth client quota: an outage sends more than this for one client, none of it may be charged. */
const CLIENT_QUOTA = 300;
const KEY = 'demo-org-key-0001';
const BASIC = `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`;
const WRONG_BASIC = `Basic ${Buffer.from('app_demo:not-the-secret').toString('base64')}`;
const AUTHORIZE_QUERY = new URLSearchParams({
  response_type: 'code',
  client_id: 'app_demo',
  redirect_uri: 'http://localhost:8765/callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'outage',
}).toString();

// The subgraphs answer only requests that carry it; the distributed gateway sends it.
const subgraphSecret = randomBytes(32).toString('hex');
let own: OwnPostgres;
let db: Database;
let main: ServerProcess;
let viaGateway: TestServer;
let distributed: TestServer;
let subgraphs: SubgraphServer[] = [];
let receiver: Receiver;
const clients: Client[] = [];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

type Shape = 'api' | 'graphql' | 'oauth' | 'html';

interface Probe {
  name: string;
  shape: Shape;
  /** Counts as a request with a token (checked against the anonymous quota). */
  token?: boolean;
  /** Not polled after the restart: a write, a form without its CSRF token, a wrong secret. */
  notPolled?: boolean;
  /** Sent only while the database is away altogether: a wrong secret the database could check counts as a failed authentication. */
  onlyWhenAway?: boolean;
  send(base: string): Promise<Answer>;
  /** The answer when the database is there. */
  ok(answer: Answer): boolean;
}

const form = (body: Record<string, string>, authorization = BASIC): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
  body: new URLSearchParams(body).toString(),
});
const graphqlPost = (query: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app' },
  body: JSON.stringify({ query }),
});

const PROBES: Probe[] = [
  { name: 'v2 authority context', shape: 'api', token: true, send: (base) => send(`${base}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } }), ok: (a) => a.status === 200 },
  { name: 'v2 event list', shape: 'api', token: true, send: (base) => send(`${base}/api/v2/organisations/org_demo/events`, { headers: { authorization: 'Bearer demo-token-app' } }), ok: (a) => a.status === 200 },
  {
    name: 'v2 write',
    shape: 'api',
    token: true,
    notPolled: true,
    send: (base) =>
      send(`${base}/api/v2/events/evt_live/matches/mtc_live_b_102`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json', 'if-match': '"999999"' },
        body: JSON.stringify({ scoreA: 1 }),
      }),
    ok: (a) => a.status === 412,
  },
  {
    name: 'esports data',
    shape: 'api',
    token: true,
    send: (base) => send(`${base}/api/v2/esports/matches/esm_final`, { headers: { authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' } }),
    ok: (a) => a.status === 200,
  },
  { name: 'v1 event list', shape: 'api', send: (base) => send(`${base}/api/v1/events`, { headers: { 'x-api-key': KEY } }), ok: (a) => a.status === 200 },
  { name: 'GraphQL POST', shape: 'graphql', token: true, send: (base) => send(`${base}/graphql`, graphqlPost('{ authContext { applicationId } }')), ok: (a) => a.status === 200 && !a.json().errors },
  {
    name: 'GraphQL GET',
    shape: 'graphql',
    token: true,
    send: (base) => send(`${base}/graphql?query=${encodeURIComponent('{ event(id: "evt_open") { id name } }')}`, { headers: { authorization: 'Bearer demo-token-app' } }),
    ok: (a) => a.status === 200 && !a.json().errors,
  },
  { name: 'OAuth token', shape: 'oauth', send: (base) => send(`${base}/oauth/token`, form({ grant_type: 'client_credentials' })), ok: (a) => a.status === 200 },
  { name: 'OAuth token, wrong secret', shape: 'oauth', notPolled: true, onlyWhenAway: true, send: (base) => send(`${base}/oauth/token`, form({ grant_type: 'client_credentials' }, WRONG_BASIC)), ok: (a) => a.status === 401 },
  { name: 'OAuth introspection', shape: 'oauth', send: (base) => send(`${base}/oauth/introspect`, form({ token: 'demo-token-app' })), ok: (a) => a.status === 200 },
  { name: 'OAuth revocation', shape: 'oauth', send: (base) => send(`${base}/oauth/revoke`, form({ token: 'esp_at_not_a_token' })), ok: (a) => a.status === 200 },
  { name: 'authorization page', shape: 'html', send: (base) => send(`${base}/oauth/authorize?${AUTHORIZE_QUERY}`), ok: (a) => a.status === 200 },
  {
    name: 'sign-in form',
    shape: 'html',
    notPolled: true,
    send: (base) =>
      send(`${base}/oauth/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `${AUTHORIZE_QUERY}&action=sign_in&username=alice&password=x&csrf=x` }),
    ok: (a) => a.status === 400, // the CSRF check, once the request itself could be checked
  },
  { name: 'readiness', shape: 'api', send: (base) => send(`${base}/readyz`), ok: (a) => a.status === 200 },
];

const servers = () => [
  { name: 'npm start', base: main.base },
  { name: 'through the gateway', base: viaGateway.url },
  { name: 'distributed', base: distributed.url },
];

/** What is wrong with an answer given while the database is away (null when it is right). */
function outageProblem(probe: Probe, answer: Answer): string | null {
  if (answer.status === 500 || answer.status === 429) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (probe.ok(answer)) return null; // the instant before the database went, or a partial outage
  if (answer.status !== 503) return `answered ${answer.status}, not 503: ${answer.text.slice(0, 300)}`;
  const retryAfter = answer.headers.get('retry-after');
  if (!retryAfter || !/^[1-9]\d*$/.test(retryAfter)) return `503 without a Retry-After in seconds (${retryAfter})`;
  switch (probe.shape) {
    case 'api':
      return answer.json().error?.code === 'service_unavailable' && answer.json().error.requestId ? null : `503 body ${answer.text}`;
    case 'graphql':
      return answer.json().errors?.[0]?.extensions?.code === 'service_unavailable' ? null : `503 body ${answer.text}`;
    case 'oauth':
      return answer.json().error === 'temporarily_unavailable' && answer.headers.get('cache-control') === 'no-store' ? null : `503 body ${answer.text}`;
    case 'html':
      return answer.headers.get('content-type')?.startsWith('text/html') ? null : `503 of type ${answer.headers.get('content-type')}`;
  }
}

interface LoadReport {
  problems: string[];
  /** 503s per probe name. */
  unavailable: Map<string, number>;
  /** Requests with a token per server base. */
  withToken: Map<string, number>;
  total: number;
}

/**
 * Every probe against every server, from 12 concurrent clients, for at least `minMs` and until each
 * server has had more requests with a token than the anonymous quota holds. With `partial` the
 * database may answer some of them (no wrong secrets then).
 */
async function loadWhileAway(minMs = 2_500, partial = false): Promise<LoadReport> {
  const report: LoadReport = { problems: [], unavailable: new Map(), withToken: new Map(), total: 0 };
  const probes = PROBES.filter((probe) => !(partial && probe.onlyWhenAway));
  const targets = servers().flatMap((server) => probes.map((probe) => ({ server, probe })));
  const started = Date.now();
  let next = 0;
  const enough = () =>
    Date.now() - started >= minMs && servers().every((server) => (report.withToken.get(server.base) ?? 0) > ANONYMOUS_QUOTA + 10);
  await Promise.all(
    Array.from({ length: 12 }, async () => {
      while (!enough() && Date.now() - started < 30_000) {
        const { server, probe } = targets[next++ % targets.length];
        const answer = await probe.send(server.base);
        report.total++;
        if (probe.token) report.withToken.set(server.base, (report.withToken.get(server.base) ?? 0) + 1);
        if (answer.status === 503) report.unavailable.set(probe.name, (report.unavailable.get(probe.name) ?? 0) + 1);
        const problem = outageProblem(probe, answer);
        if (problem) report.problems.push(`${probe.name} (${server.name}): ${problem}`);
      }
    }),
  );
  return report;
}

/**
 * Polls every probe on every server, all at once, until each answers as usual; fails on any 5xx
 * other than 503 and on any 429. Answers when (ms after the call) the round began in which the last
 * of them answered as usual: 0 when the very first requests all succeeded. Measured at the start of
 * the round, not its end, so that a busy machine's latency is not counted as the server's recovery.
 */
async function recovered(timeoutMs: number): Promise<number> {
  const started = Date.now();
  const pending = servers().flatMap((server) => PROBES.filter((probe) => !probe.notPolled).map((probe) => ({ server, probe })));
  for (;;) {
    const round = Date.now() - started;
    if (round > timeoutMs) throw new Error(`not recovered after ${timeoutMs} ms: ${pending.map(({ server, probe }) => `${probe.name} (${server.name})`).join(', ')}`);
    const answers = await Promise.all(pending.map(({ server, probe }) => probe.send(server.base)));
    for (let i = answers.length - 1; i >= 0; i--) {
      const { server, probe } = pending[i];
      expect(answers[i].status, `${probe.name} (${server.name}) after the restart: ${answers[i].text.slice(0, 200)}`).not.toBe(429);
      expect([500, 502, 504], `${probe.name} (${server.name}) after the restart: ${answers[i].text.slice(0, 200)}`).not.toContain(answers[i].status);
      if (probe.ok(answers[i])) pending.splice(i, 1);
    }
    if (!pending.length) return round;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// --- the change feed, seen by a gateway socket and a webhook receiver across every outage ---

interface Follower {
  client: Client;
  /**
   * The changes to evt_live's match mtc_live_b_101 in the order received, by the event revision each
   * made (a message carries the match as it is when the message is made, so its score may be a later one).
   */
  revisions: number[];
  closed: { code: number } | null;
  errors: unknown[];
}

function follow(base: string): Follower {
  const follower: Follower = { client: null as unknown as Client, revisions: [], closed: null, errors: [] };
  follower.client = createClient({
    url: base.replace(/^http/, 'ws') + '/api/v1/gateway',
    webSocketImpl: WebSocket,
    connectionParams: { apiKey: KEY },
    lazy: false,
    retryAttempts: 0,
    on: { closed: (event) => (follower.closed = { code: (event as { code: number }).code }) },
    onNonLazyError: () => undefined,
  });
  clients.push(follower.client);
  follower.client.subscribe<{ matchChanged: { revision: number; match: { opponentA: { score: number | null } } | null } }>(
    { query: 'subscription { matchChanged(eventId: "evt_live", matchId: "mtc_live_b_101") { cursor revision match { opponentA { score } } } }' },
    {
      next: ({ data, errors }) => {
        // Every message has its match read through the graph, the database outage notwithstanding.
        if (errors || !data?.matchChanged.match) follower.errors.push(errors ?? 'a message without its match');
        else follower.revisions.push(data.matchChanged.revision);
      },
      error: (error) => follower.errors.push(error),
      complete: () => undefined,
    },
  );
  return follower;
}

let follower: Follower;
let score = 0;
/** The event revision each write made, in order. */
const written: number[] = [];

/** The esports units metered so far; retried while the pool reconnects after a restart. */
async function esportsUnits(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { _sum } = await db.prisma.usageRecord.aggregate({ where: { metric: 'esports_calls' }, _sum: { units: true } });
      return _sum.units ?? 0;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function writeScore(): Promise<void> {
  const next = score + 1;
  for (let attempt = 0; attempt < 20; attempt++) {
    const { revision } = await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_live' } });
    const response = await call(main.base, '/api/v2/events/evt_live/matches/mtc_live_b_101', { method: 'PATCH', body: { scoreA: next }, ifMatch: revision });
    if (response.status === 200) {
      score = next;
      written.push(response.body.data.revision as number);
      return;
    }
    if (response.status !== 412) throw new Error(`the write answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  throw new Error('evt_live kept moving');
}

/** The event revisions of the changes to mtc_live_b_101 the receiver got webhooks for, in the order received. */
const hooked = () =>
  receiver.received
    .map((request) => (JSON.parse(request.body) as { data: { resourceId: string; revision: number } }).data)
    .filter((data) => data.resourceId === 'mtc_live_b_101')
    .map((data) => data.revision);

async function until(check: () => boolean, what: string, timeoutMs = 15_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Everything written so far reached the socket and the receiver, each exactly once and in order. */
async function expectEveryChangeOnce() {
  await until(() => follower.revisions.length >= written.length && hooked().length >= written.length, `the socket and the receiver to get ${written.length} changes`);
  await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would arrive by now
  expect(follower.revisions).toEqual(written);
  expect(follower.errors).toEqual([]);
  expect(follower.closed).toBeNull();
  const ids = receiver.received.map((request) => request.headers['webhook-id']);
  expect(new Set(ids).size, 'no webhook delivered twice').toBe(ids.length);
  expect([...hooked()].sort((a, b) => a - b)).toEqual(written);
}

/** A gateway socket opened while the database is away: closed with 1013 (try again later), not 4403. */
async function connectionRefusedForNow(base: string, path: '/graphql' | '/api/v1/gateway', params: Record<string, unknown>) {
  const code = await new Promise<number>((resolve) => {
    const client = createClient({
      url: base.replace(/^http/, 'ws') + path,
      webSocketImpl: WebSocket,
      connectionParams: params,
      lazy: false,
      retryAttempts: 0,
      on: { closed: (event) => resolve((event as { code: number }).code) },
      onNonLazyError: () => undefined,
    });
    clients.push(client);
  });
  expect(code, `${path} connection_init while the database is away`).toBe(1013);
}

/** A new subscription on a socket opened before the outage: an error for it alone, service_unavailable. */
async function subscriptionRefusedForNow() {
  const error = await new Promise<unknown>((resolve) => {
    follower.client.subscribe(
      { query: 'subscription { eventChanged(eventId: "evt_live") { cursor } }' },
      { next: () => undefined, error: resolve, complete: () => resolve(null) },
    );
  });
  expect((error as { extensions?: { code?: string; retryAfter?: number } }[])[0]?.extensions).toMatchObject({ code: 'service_unavailable', retryAfter: expect.any(Number) });
}

/**
 * One client's token requests to one server, more than its quota holds, and wrong secrets, more than
 * the failed-authentication limit holds: all 503 while the database is away, so that none of them
 * is charged to the client's quota or counted as a failed authentication.
 */
async function oauthBursts(base: string): Promise<string[]> {
  const other = `Basic ${Buffer.from('app_noesports:demo-noesports-secret').toString('base64')}`;
  const requests = [
    ...Array.from({ length: CLIENT_QUOTA + 20 }, () => () => send(`${base}/oauth/token`, form({ grant_type: 'client_credentials' }, other))),
    ...Array.from({ length: 25 }, () => () => send(`${base}/oauth/token`, form({ grant_type: 'client_credentials' }, WRONG_BASIC))),
  ];
  const problems: string[] = [];
  const probe = PROBES.find((candidate) => candidate.name === 'OAuth token, wrong secret')!;
  await Promise.all(
    Array.from({ length: 12 }, async () => {
      for (let request = requests.pop(); request; request = requests.pop()) {
        const answer = await request();
        const problem = answer.status === 503 ? outageProblem(probe, answer) : `answered ${answer.status}: ${answer.text.slice(0, 200)}`;
        if (problem) problems.push(`OAuth burst: ${problem}`);
      }
    }),
  );
  return problems;
}

/** The server's own log lines (not the access log) written since `from`, by message. */
function logLines(from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of main.output().slice(from).split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg: string; level: number };
    if (entry.msg === 'request') continue;
    counts.set(entry.msg, (counts.get(entry.msg) ?? 0) + 1);
  }
  return counts;
}

beforeAll(async () => {
  if (!enabled) return;
  own = await startOwnPostgres(bin!);
  // The platform connects as a user of its own, as in production: its connection limit can be lowered.
  await adminQuery(own.url(), 'CREATE ROLE app LOGIN');
  await adminQuery(own.url(), 'CREATE DATABASE outage OWNER app');
  const url = `postgresql://app@${own.host}:${own.port}/outage`;
  db = openDatabase({ url });
  await applyMigrations(db.adapterFactory);
  await loadDemoWorld(db);
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  receiver = await startReceiver();
  main = await startServerProcess({
    args: ['start', '--silent'],
    env: {
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ANONYMOUS: `${ANONYMOUS_QUOTA}/60`,
      RATE_LIMIT_CLIENT: `${CLIENT_QUOTA}/60`,
      WEBHOOKS_ALLOW_LOCAL: '1',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });
  const shared: TestDatabase = { ...db, url, drop: async () => undefined };
  const rateLimits = {
    ...rateLimitConfig(),
    anonymous: { name: 'anonymous', quota: ANONYMOUS_QUOTA, windowSeconds: 60 },
    client: { name: 'client', quota: CLIENT_QUOTA, windowSeconds: 60 },
  };
  viaGateway = await startTestServer({ db: shared, routeExecution: 'gateway', webhookWorker: false, rateLimits });
  subgraphs = await Promise.all(SUBGRAPH_NAMES.map((name) => startSubgraphServer(name, db, { secret: subgraphSecret })));
  distributed = await startTestServer({ db: shared, subgraphUrls: Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, subgraphs[i].url])), subgraphSecret, webhookWorker: false, rateLimits });
  const created = await call(main.base, '/api/v2/developer/apps/app_demo/webhook-endpoints', {
    method: 'POST',
    key: uniqueKey('whe'),
    body: { name: 'Outage', url: receiver.url, subscribedEvents: ['match.updated'] },
  });
  expect(created.status).toBe(201);
  // The subscription starts with what commits once it runs: write until it has seen a change, then
  // count from there.
  follower = follow(main.base);
  for (let tries = 0; !follower.revisions.length; tries++) {
    if (tries === 20) throw new Error('the gateway subscription received nothing');
    await writeScore();
    await until(() => follower.revisions.length > 0, 'a first change', 1_000).catch(() => undefined);
  }
  await until(() => hooked().length >= written.length, 'the first webhooks');
  follower.revisions.length = 0;
  receiver.received.length = 0;
  written.length = 0;
}, 240_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await main?.stop();
  await distributed?.close();
  await viaGateway?.close();
  await Promise.all(subgraphs.map((subgraph) => subgraph.close()));
  await db?.close().catch(() => undefined);
  await receiver?.close();
  await own?.destroy();
  vi.unstubAllEnvs();
  assertNoServerLeft();
}, 60_000);

describe.skipIf(!enabled)('a PostgreSQL outage', () => {
  // A test that failed while the database was away leaves it to the next one running.
  afterEach(async () => {
    if (!(await own.running())) await own.start();
  });

  const outages: [string, () => Promise<void>][] = [
    ['stopped cleanly (pg_ctl stop -m fast)', () => own.stop('fast')],
    ['crashed (pg_ctl stop -m immediate)', () => own.stop('immediate')],
    ['killed (SIGKILL to the postmaster)', () => own.kill()],
  ];
  for (const [how, stop] of outages) {
    it(`${how} under load: 503 with Retry-After everywhere, never 500 or 429; then the next requests succeed and nothing is lost`, async () => {
      await recovered(10_000);
      const logFrom = main.output().length;
      // A change written just before the database goes: the follower and the worker may not have read it yet.
      await writeScore();
      const metered = await esportsUnits();
      await stop();

      const load = loadWhileAway();
      const bursts = oauthBursts(main.base);
      await connectionRefusedForNow(main.base, '/api/v1/gateway', { apiKey: KEY });
      await connectionRefusedForNow(viaGateway.url, '/graphql', { authorization: 'Bearer demo-token-app' });
      await subscriptionRefusedForNow();
      const healthz = Date.now();
      expect((await send(`${main.base}/healthz`)).status, 'liveness does not depend on the database').toBe(200);
      expect(Date.now() - healthz).toBeLessThan(1_000);
      const report = await load;
      expect(report.problems.slice(0, 10)).toEqual([]);
      expect((await bursts).slice(0, 10)).toEqual([]);
      for (const probe of PROBES) expect(report.unavailable.get(probe.name) ?? 0, `${probe.name} answered 503 while the database was away`).toBeGreaterThan(0);
      expect(follower.closed, 'the socket opened before the outage stays open').toBeNull();

      await own.start();
      // Esports calls that failed (every one while the database was away) cost nothing.
      expect(await esportsUnits()).toBe(metered);
      const ms = await recovered(2_000);
      // Nothing of the outage was charged: an anonymous request is still just unauthenticated, the
      // other client still gets its token, and the wrong secrets did not block the address.
      for (const { base } of servers()) expect((await call(base, '/api/v2/auth/context', { token: null })).status).toBe(401);
      const other = await send(`${main.base}/oauth/token`, form({ grant_type: 'client_credentials' }, `Basic ${Buffer.from('app_noesports:demo-noesports-secret').toString('base64')}`));
      expect(other.status, other.text).toBe(200);
      await writeScore();
      await expectEveryChangeOnce();

      // The outage is in the log once per task, not once per request (or per second).
      const lines = logLines(logFrom);
      const flood = [...lines].filter(([, count]) => count > 3);
      expect(flood, `log lines during the outage: ${JSON.stringify([...lines])}`).toEqual([]);
      expect([...lines.keys()].filter((msg) => /uncaught|unhandled/.test(msg))).toEqual([]);
      console.log(`${how}: ${report.total} requests while away; every probe answered as usual in the round that began ${ms} ms after the restart`);
    }, 120_000);
  }

  it('a subgraph that cannot be reached (distributed topology) answers 503 with Retry-After, not 500, and no address of it', async () => {
    await recovered(10_000);
    const index = SUBGRAPH_NAMES.indexOf('developer');
    const port = Number(new URL(subgraphs[index].url).port);
    await subgraphs[index].close();
    try {
      const rest = await send(`${distributed.url}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } });
      expect(rest.status, rest.text).toBe(503);
      expect(rest.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(rest.json().error).toMatchObject({ code: 'service_unavailable', details: [{ issue: 'subgraph_unavailable' }] });
      const graphql = await send(`${distributed.url}/graphql`, graphqlPost('{ authContext { applicationId } }'));
      expect(graphql.status, graphql.text).toBe(503);
      expect(graphql.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(graphql.json().errors[0].extensions).toMatchObject({ code: 'service_unavailable', details: [{ issue: 'subgraph_unavailable' }] });
      for (const answer of [rest, graphql]) expect(answer.text).not.toContain(String(port));
    } finally {
      subgraphs[index] = await startSubgraphServer('developer', db, { secret: subgraphSecret, port });
    }
    await recovered(5_000);
  }, 60_000);

  it('"too many connections" answers 503 with Retry-After, never 500', async () => {
    await recovered(10_000);
    await adminQuery(own.url(), 'ALTER ROLE app CONNECTION LIMIT 3');
    // Open connections are kept: end them, so that the pools must open new ones under the limit.
    await adminQuery(own.url(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app'");
    try {
      const report = await loadWhileAway(1_500, true);
      expect(report.problems.slice(0, 10)).toEqual([]);
      expect([...report.unavailable.values()].reduce((a, b) => a + b, 0), 'some requests met the limit').toBeGreaterThan(0);
    } finally {
      await adminQuery(own.url(), 'ALTER ROLE app CONNECTION LIMIT -1');
    }
    await recovered(5_000);
  }, 120_000);

  it('"the database system is shutting down" (a smart shutdown) answers 503 with Retry-After, never 500', async () => {
    await recovered(10_000);
    const admin = await import('pg').then(({ default: pg }) => new pg.Client({ connectionString: own.url() }));
    admin.on('error', () => undefined);
    await admin.connect();
    await own.stop('smart', false);
    // New connections are refused from now on; the sessions still open would be served: end the platform's.
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app'");
    const report = await loadWhileAway(1_500, true);
    expect(report.problems.slice(0, 10)).toEqual([]);
    expect(report.unavailable.get('v2 authority context') ?? 0).toBeGreaterThan(0);
    await admin.end();
    await own.stop('fast').catch(() => undefined);
    await own.start();
    await recovered(2_000);
  }, 120_000);
});
