// Entities cross subgraphs, and the distributed topology (three subgraph services over HTTP and a
// gateway over HTTP) answers exactly what the in-process one answers.
import { randomBytes } from 'node:crypto';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { SUBGRAPH_TIMEOUT_MS } from '../../facade/graphql/gateway.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubgraphServer, type SubgraphServer } from '../../subgraphs/http-server.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let local: TestServer;
let distributed: TestServer;
let subgraphs: SubgraphServer[] = [];
// The subgraphs answer only requests that carry it; the distributed gateway sends it.
const secret = randomBytes(32).toString('hex');

beforeAll(async () => {
  local = await startTestServer();
  subgraphs = await Promise.all(SUBGRAPH_NAMES.map((name) => startSubgraphServer(name, local.db, { secret })));
  const subgraphUrls = Object.fromEntries(SUBGRAPH_NAMES.map((name, index) => [name, subgraphs[index].url]));
  distributed = await startTestServer({ db: local.db, subgraphUrls, subgraphSecret: secret });
});
afterAll(async () => {
  await distributed?.close();
  await Promise.all(subgraphs.map((server) => server.close()));
  await local?.close();
});

const graphql = async (url: string, query: string, token = 'demo-token-app', variables?: Record<string, unknown>) => {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'fed-1', ...bearer(token) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
};

const CROSSING = `
  query Crossing {
    authContext(targetType: user, targetId: "usr_bob") {
      requestId
      actor { ... on ApplicationActor { applicationId } }
      installation { id user { id displayName username platforms } }
      application {
        name
        owner { type organisation { id name slug } }
        usage(metric: esports_calls, from: "2026-01-01", to: "2026-12-31") { total days { day units } }
      }
    }
    event(id: "evt_open") { id name state revision organisation { id name } stages { id name format bestOf } }
    team(id: "team_alpha") { name members { role user { id displayName } } }
  }
`;

describe('federation', () => {
  it('resolves Organisation, User and Event from the developer subgraph and Application from the esports subgraph', async () => {
    const { body } = await graphql(local.url, CROSSING);
    expect(body.errors).toBeUndefined();
    expect(body.data.authContext).toEqual({
      requestId: 'fed-1',
      actor: { applicationId: 'app_demo' },
      installation: { id: 'ins_demo_bob', user: { id: 'usr_bob', displayName: 'Bob', username: 'bob', platforms: ['steam'] } },
      application: { name: 'Demo App', owner: { type: 'organisation', organisation: { id: 'org_demo', name: 'Demo Esports League', slug: 'demo-esports-league' } }, usage: { total: 0, days: [] } },
    });
    expect(body.data.event).toMatchObject({ id: 'evt_open', state: 'scheduled', organisation: { id: 'org_demo' }, stages: [{ id: 'stg_open_groups' }] });
    expect(body.data.team.members).toHaveLength(5);
  });

  it('resolves a Team and an Event referenced by an installation', async () => {
    await local.db.prisma.installation.createMany({
      data: [
        { id: 'ins_fed_team', applicationId: 'app_noesports', targetType: 'team', targetId: 'team_bravo', status: 'active' },
        { id: 'ins_fed_event', applicationId: 'app_noesports', targetType: 'event', targetId: 'evt_open', status: 'active' },
      ],
    });
    const team = await graphql(local.url, '{ authContext(targetType: team, targetId: "team_bravo") { installation { team { name } } } }', 'demo-token-noesports');
    expect(team.body.data.authContext.installation.team.name).toBe('Team Bravo');
    const event = await graphql(local.url, '{ authContext(targetType: event, targetId: "evt_open") { installation { event { name state } } } }', 'demo-token-noesports');
    expect(event.body.data.authContext.installation.event).toEqual({ name: 'Demo Open', state: 'scheduled' });
  });

  it('gives the same answers in the distributed topology', async () => {
    for (const [query, token] of [
      [CROSSING, 'demo-token-app'],
      ['{ authContext(targetType: organisation, targetId: "org_demo") { scopes permissions entitlements installation { id } } }', 'demo-token-alice'],
      ['{ user(id: "usr_carol") { id } }', 'demo-token-app'],
      ['{ authContext { applicationId } }', 'not-a-token'],
    ]) {
      const [a, b] = await Promise.all([graphql(local.url, query, token), graphql(distributed.url, query, token)]);
      const strip = (body: { errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown }) => ({
        data: body.data,
        errors: body.errors?.map((error) => ({ message: error.message, code: error.extensions?.code })),
      });
      expect(strip(b.body)).toEqual(strip(a.body));
    }
  });

  it('gives the same REST answers in the distributed topology, headers propagated', async () => {
    for (const path of ['/api/v2/auth/context?targetType=user&targetId=usr_bob', '/api/v2/auth/context']) {
      for (const token of ['demo-token-app', 'nope']) {
        const headers = { ...bearer(token), 'x-request-id': 'same-id' };
        const [a, b] = await Promise.all([fetch(`${local.url}${path}`, { headers }), fetch(`${distributed.url}${path}`, { headers })]);
        expect(b.status).toBe(a.status);
        expect(await b.json()).toEqual(await a.json());
      }
    }
  });

  it('answers 503 service_unavailable when a subgraph is down', async () => {
    const down = await startTestServer({ db: local.db, subgraphUrls: { competitions: subgraphs[0].url, esports: subgraphs[1].url, developer: 'http://127.0.0.1:9/graphql' }, subgraphSecret: secret });
    try {
      const response = await fetch(`${down.url}/api/v2/auth/context`, { headers: bearer('demo-token-app') });
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe('service_unavailable');
    } finally {
      await down.close();
    }
  });

  it('answers 503 with Retry-After, not a hang, when a subgraph accepts and stops answering, before or during its answer', async () => {
    // Two stand-ins for the developer subgraph: one never answers, one sends its headers and stalls.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket.on('error', () => undefined)));
    const stalling = createTcpServer((socket) => {
      sockets.push(socket.on('error', () => undefined));
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data":'));
    });
    const listen = (server: ReturnType<typeof createTcpServer>) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`)));
    const servers = await Promise.all([silent, stalling].map(async (server) => startTestServer({ db: local.db, subgraphUrls: { competitions: subgraphs[0].url, esports: subgraphs[1].url, developer: await listen(server) }, subgraphSecret: secret })));
    try {
      const answers = await Promise.all(
        servers.flatMap((server) => [
          (async () => {
            const at = performance.now();
            const response = await fetch(`${server.url}/api/v2/auth/context`, { headers: bearer('demo-token-app') });
            return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text(), ms: performance.now() - at };
          })(),
          (async () => {
            const at = performance.now();
            const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...bearer('demo-token-app'), 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ authContext { applicationId } }' }) });
            return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text(), ms: performance.now() - at };
          })(),
        ]),
      );
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.retryAfter).toBe('2');
        expect(answer.text).toContain('subgraph_unavailable');
        expect(answer.text).not.toContain('127.0.0.1');
        expect(answer.ms).toBeGreaterThan(SUBGRAPH_TIMEOUT_MS - 500);
        expect(answer.ms).toBeLessThan(SUBGRAPH_TIMEOUT_MS + 5_000);
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      for (const socket of sockets) socket.destroy();
      await Promise.all([silent, stalling].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  }, 60_000);

  it('a subgraph answers nothing but 403 without the shared secret: _entities, SDL, GET and POST alike', async () => {
    const entities = JSON.stringify({
      query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Event { id name } ... on User { id displayName } } }',
      variables: { r: [{ __typename: 'Event', id: 'evt_rival' }, { __typename: 'User', id: 'usr_bob' }] },
    });
    const competitions = subgraphs[SUBGRAPH_NAMES.indexOf('competitions')].url;
    const post = (headers: Record<string, string>, body = entities) => fetch(competitions, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    // With the secret: what the gateway gets (so the refusals below are the secret's doing).
    const allowed = await post({ 'svc-subgraph-secret': secret });
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).data._entities).toEqual([{ id: 'evt_rival', name: expect.any(String) }, { id: 'usr_bob', displayName: 'Bob' }]);
    const refusals = [
      await post({}),
      await post({ 'svc-subgraph-secret': secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a') }),
      await post({ 'svc-subgraph-secret': '' }),
      await post({ authorization: 'Bearer demo-token-app', 'x-request-id': 'no-secret-1' }),
      await post({}, JSON.stringify({ query: '{ _service { sdl } }' })),
      await post({}, '{ not json'),
      await fetch(`${competitions}?query=${encodeURIComponent('{ _service { sdl } }')}`),
    ];
    const bodies = [];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body).toEqual({ error: { code: 'forbidden', message: expect.stringContaining('svc-subgraph-secret'), requestId: expect.any(String), details: [{ field: 'svc-subgraph-secret', issue: 'subgraph_secret_required' }] } });
      expect(response.headers.get('x-request-id')).toBe(body.error.requestId);
      bodies.push(body);
    }
    expect(bodies[3].error.requestId).toBe('no-secret-1');
    // Liveness stays open for load balancers; it says nothing.
    const health = await fetch(competitions.replace(/\/graphql$/, '/healthz'));
    expect(health.status).toBe(200);
  });

  it('a gateway with the wrong secret answers 503 service_unavailable, never the subgraph\'s data', async () => {
    const urls = Object.fromEntries(SUBGRAPH_NAMES.map((name, index) => [name, subgraphs[index].url]));
    const wrong = await startTestServer({ db: local.db, subgraphUrls: urls, subgraphSecret: 'w'.repeat(64) });
    try {
      const response = await fetch(`${wrong.url}/api/v2/auth/context`, { headers: bearer('demo-token-app') });
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe('service_unavailable');
    } finally {
      await wrong.close();
    }
  });
});
