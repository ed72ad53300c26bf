// The esports data routes: every field, paging, the access rules, and GraphQL giving the same data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.db.prisma.installation.createMany({
    data: [
      { id: 'ins_demo_revoked', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_rival', status: 'revoked' },
      { id: 'ins_demo_team', applicationId: 'app_demo', targetType: 'team', targetId: 'team_alpha', status: 'active' },
    ],
  });
});
afterAll(() => server?.close());

const esports = (path: string, installation: string | null = 'ins_demo_org', token = 'demo-token-app') =>
  call(server.url, path, { token, headers: installation === null ? {} : { 'svc-installation-id': installation } });

describe('esports reads', () => {
  it('events: every field, paged', async () => {
    const response = await esports('/api/v2/esports/events');
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ nextCursor: null, hasMore: false });
    expect(response.body.data).toEqual([
      {
        id: 'ese_major', name: 'Demo Major 2026', updatedAt: expect.stringMatching(/Z$/), shortName: 'Major', region: 'eu', phase: 'playoffs',
        location: 'Copenhagen', imageUrl: 'https://cdn.example.test/esports/major.png', darkImageUrl: 'https://cdn.example.test/esports/major-dark.png',
        currency: 'USD', startsAt: '2026-01-12T10:40:00.000Z', endsAt: '2026-01-19T09:20:00.000Z',
      },
    ]);
  });

  it('stages: ordered by position, cursor paging through all of them', async () => {
    const first = await esports('/api/v2/esports/events/ese_major/stages?limit=1');
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(['ess_major_groups']);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await esports(`/api/v2/esports/events/ese_major/stages?limit=1&cursor=${first.body.meta.nextCursor}`);
    expect(second.body.data).toEqual([
      { id: 'ess_major_playoffs', eventId: 'ese_major', name: 'Playoffs', status: 'running', format: 'single_elimination', updatedAt: expect.any(String), translationKey: 'stage.playoffs', startsAt: '2026-01-15T22:00:00.000Z', endsAt: '2026-01-19T09:20:00.000Z', position: 2 },
    ]);
    expect(second.body.meta).toEqual({ nextCursor: null, hasMore: false });
  });

  it('map statistics of an event (at least three maps)', async () => {
    const response = await esports('/api/v2/esports/events/ese_major/statistics/maps');
    expect(response.body.data.length).toBeGreaterThanOrEqual(3);
    expect(response.body.data[0]).toEqual({ id: 'map_inferno', name: 'Inferno', updatedAt: expect.any(String), matchesPlayed: 10, mapsPlayed: 11, roundsPlayed: 251, attackWins: 117, defenseWins: 134 });
  });

  it('a group of a stage; the same group under another stage is 404', async () => {
    const group = await esports('/api/v2/esports/events/ese_major/stages/ess_major_groups/groups/esg_major_a');
    expect(group.body.data).toEqual({ id: 'esg_major_a', eventId: 'ese_major', stageId: 'ess_major_groups', name: 'Group A', updatedAt: expect.any(String), position: 1, standingCount: 4, roundCount: 3 });
    const outside = await esports('/api/v2/esports/events/ese_major/stages/ess_major_playoffs/groups/esg_major_a');
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe('not_found');
  });

  it('a match and its statistics; unknown ids are 404', async () => {
    const match = await esports('/api/v2/esports/matches/esm_final');
    expect(match.body.data).toEqual({
      id: 'esm_final', eventId: 'ese_major', eventName: 'Demo Major 2026', scheduledAt: '2026-01-18T16:40:00.000Z', status: 'completed', updatedAt: expect.any(String), bestOf: 3,
      teamA: { id: 'est_north', name: 'North Stars', logoUrl: 'https://cdn.example.test/esports/north.png', score: 2 },
      teamB: { id: 'est_south', name: 'South Wind', logoUrl: null, score: 1 },
      isFreeWin: false, watchUrl: 'https://watch.example.test/final', youtubeUrl: null,
    });
    const stats = await esports('/api/v2/esports/matches/esm_final/statistics');
    expect(stats.body.data).toMatchObject({ id: 'esm_final', matchesPlayed: 1, mapsPlayed: 3, roundsPlayed: 68, kills: 612, aces: 1, kost: 72.4, eps: 1.08 });
    expect(Object.keys(stats.body.data)).toHaveLength(22);
    for (const path of ['/api/v2/esports/matches/esm_nope', '/api/v2/esports/matches/esm_nope/statistics', '/api/v2/esports/matches/esm_semi_1/statistics', '/api/v2/esports/events/ese_nope/stages', '/api/v2/esports/events/ese_nope/statistics/maps', '/api/v2/esports/events/ese_nope/stages/ess_major_groups/groups/esg_major_a']) {
      const response = await esports(path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });
});

describe('esports access rules', () => {
  it.each([
    ['missing', null],
    ['empty', ''],
  ])('svc-installation-id %s: 400 validation_failed', async (_name, installation) => {
    const response = await esports('/api/v2/esports/matches/esm_final', installation);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].field).toBe('svc-installation-id');
  });

  it.each([
    ['unknown', 'ins_nope'],
    ['revoked', 'ins_demo_revoked'],
    ['of another application', 'ins_noesports_org'],
  ])('an installation that is %s: 403', async (_name, installation) => {
    const response = await esports('/api/v2/esports/matches/esm_final', installation);
    expect(response.status).toBe(403);
    expect(response.body.error.details[0].issue).toBe('missing_installation');
  });

  it('any active installation of the application will do (also on a team)', async () => {
    expect((await esports('/api/v2/esports/matches/esm_final', 'ins_demo_team')).status).toBe(200);
  });

  it('an owner without esports_data: 403 missing_entitlement', async () => {
    const response = await esports('/api/v2/esports/events', 'ins_noesports_org', 'demo-token-noesports');
    expect(response.status).toBe(403);
    expect(response.body.error.details[0].issue).toBe('missing_entitlement');
  });

  it('401 without a valid token; 400 for bad paging', async () => {
    expect((await esports('/api/v2/esports/events', 'ins_demo_org', 'nope')).status).toBe(401);
    expect((await esports('/api/v2/esports/events?limit=0')).status).toBe(400);
    expect((await esports('/api/v2/esports/events?cursor=abc')).status).toBe(400);
    expect((await esports('/api/v2/esports/events?page=2')).status).toBe(400);
  });
});

describe('the same data in GraphQL', () => {
  const graphql = async (query: string, installation = 'ins_demo_org') => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app', 'svc-installation-id': installation },
      body: JSON.stringify({ query }),
    });
    return response.json();
  };

  it('matches REST field for field', async () => {
    const rest = (await esports('/api/v2/esports/matches/esm_final')).body.data;
    const { data } = await graphql('{ esportsMatch(matchId: "esm_final") { id eventId eventName scheduledAt status updatedAt bestOf teamA { id name logoUrl score } teamB { id name logoUrl score } isFreeWin watchUrl youtubeUrl } }');
    expect(data.esportsMatch).toEqual({ ...rest, updatedAt: data.esportsMatch.updatedAt });
    const stages = await graphql('{ esportsEventStages(eventId: "ese_major") { data { id position } meta { hasMore } } }');
    expect(stages.data.esportsEventStages.data.map((s: { id: string }) => s.id)).toEqual(['ess_major_groups', 'ess_major_playoffs']);
    const group = await graphql('{ esportsGroup(eventId: "ese_major", stageId: "ess_major_playoffs", groupId: "esg_major_a") { id } }');
    expect(group.errors[0].extensions.code).toBe('not_found');
    const denied = await graphql('{ esportsEvents { data { id } } }', 'ins_nope');
    expect(denied.errors[0].extensions.code).toBe('forbidden');
  });

  it('reads svc-installation-id up to 128 characters, in REST and GraphQL alike', async () => {
    // 128: read, and not an installation (403); 129: too long (400), the same on both.
    expect((await esports('/api/v2/esports/matches/esm_final', 'x'.repeat(128))).status).toBe(403);
    expect((await graphql('{ esportsEvents { data { id } } }', 'x'.repeat(128))).errors[0].extensions.code).toBe('forbidden');
    // Too long as sent: a real id padded with no-break spaces is not trimmed into one.
    for (const tooLong of ['x'.repeat(129), `ins_demo_org${'\u00a0'.repeat(120)}`]) {
      const rest = await esports('/api/v2/esports/matches/esm_final', tooLong);
      expect(rest.status).toBe(400);
      const viaGraphql = await graphql('{ esportsEvents { data { id } } }', tooLong);
      expect(viaGraphql.errors[0].extensions.code).toBe('validation_failed');
      expect(viaGraphql.errors[0].message).toBe(rest.body.error.message);
      expect(viaGraphql.errors[0].extensions.details).toEqual(rest.body.error.details);
      expect(rest.body.error.details).toEqual([{ field: 'svc-installation-id', issue: 'at most 128 characters' }]);
    }
  });
});
