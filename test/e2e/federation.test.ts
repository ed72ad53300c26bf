// Entities cross subgraphs, and the distributed topology (three subgraph services over HTTP and a
// gateway over HTTP) answers exactly what the in-process one answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubgraphServer, type SubgraphServer } from '../../subgraphs/http-server.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let local: TestServer;
let distributed: TestServer;
let subgraphs: SubgraphServer[] = [];

beforeAll(async () => {
  local = await startTestServer();
  subgraphs = await Promise.all(SUBGRAPH_NAMES.map((name) => startSubgraphServer(name, local.db)));
  const subgraphUrls = Object.fromEntries(SUBGRAPH_NAMES.map((name, index) => [name, subgraphs[index].url]));
  distributed = await startTestServer({ db: local.db, subgraphUrls });
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
    const down = await startTestServer({ db: local.db, subgraphUrls: { competitions: subgraphs[0].url, esports: subgraphs[1].url, developer: 'http://127.0.0.1:9/graphql' } });
    try {
      const response = await fetch(`${down.url}/api/v2/auth/context`, { headers: bearer('demo-token-app') });
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe('service_unavailable');
    } finally {
      await down.close();
    }
  });
});
