// Reads of the competition section: organisation events (paging, filters, ETag/304), player
// statistics (fields, formulas, scope rule, paging, ETag/304) and the v2 user read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { ratingOf } from '../../subgraphs/competitions/matches/player-statistics.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ countQueries: true });
  // 45 more events of org_demo, so paging has something to page through.
  await server.db.prisma.event.createMany({
    data: Array.from({ length: 45 }, (_, i) => ({
      id: `evt_page_${String(i).padStart(2, '0')}`,
      organisationId: 'org_demo',
      name: `Paged ${i}`,
      slug: `paged-${i}`,
      type: 'cup',
      visibility: i % 3 === 0 ? 'private' : 'public',
      state: i % 2 === 0 ? 'draft' : 'scheduled',
      platform: 'pc',
      currency: 'EUR',
      createdAt: new Date(Date.parse('2026-03-01T00:00:00Z') + Math.floor(i / 2) * 60_000),
    })),
  });
});
afterAll(() => server?.close());

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);

async function allPages(path: string) {
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await api(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    items.push(...response.body.data);
    cursor = response.body.meta.nextCursor;
    expect(response.body.meta.hasMore).toBe(cursor !== null);
    pages++;
  } while (cursor);
  return { items, pages };
}

describe('GET /api/v2/organisations/{organisationId}/events', () => {
  it('lists every event once, in creation order, 20 a page by default', async () => {
    const expected = await server.db.prisma.event.findMany({ where: { organisationId: 'org_demo' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const { items, pages } = await allPages('/api/v2/organisations/org_demo/events');
    expect(items.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(pages).toBe(Math.ceil(expected.length / 20));
    const open = items.find((e) => e.id === 'evt_open')!;
    expect(open).toEqual({
      id: 'evt_open', organisationId: 'org_demo', name: 'Demo Open', slug: 'open', type: 'cup', visibility: 'public', state: 'scheduled',
      platform: 'pc', currency: 'EUR', region: 'eu', bannerUrl: 'https://cdn.example.test/events/evt_open.png', description: 'Demo Open (demo event).',
      firstStageId: 'stg_open_groups', completedAt: null, revision: expected.find((e) => e.id === 'evt_open')!.revision,
    });
    expect(items.find((e) => e.id === 'evt_done')).toMatchObject({ state: 'completed', completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('pages with limit and filters by visibility and state', async () => {
    const page = await api('/api/v2/organisations/org_demo/events?limit=7');
    expect(page.body.data).toHaveLength(7);
    const { items } = await allPages('/api/v2/organisations/org_demo/events?limit=7&visibility=private&state=draft');
    const expected = await server.db.prisma.event.findMany({ where: { organisationId: 'org_demo', visibility: 'private', state: 'draft' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(items.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(expected.length).toBeGreaterThan(3);
  });

  it.each([
    ['?visibility=secret', 'visibility'],
    ['?state=paused', 'state'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?cursor=not-a-cursor', 'cursor'],
    ['?sort=name', 'sort'],
  ])('400 validation_failed for %s', async (query, field) => {
    const response = await api(`/api/v2/organisations/org_demo/events${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('refuses a cursor from another list or filter', async () => {
    const page = await api('/api/v2/organisations/org_demo/events?limit=2');
    const response = await api(`/api/v2/organisations/org_demo/events?limit=2&state=draft&cursor=${page.body.meta.nextCursor}`);
    expect(response.status).toBe(400);
  });

  it('needs an active installation on the organisation: 403, for known and unknown organisations alike', async () => {
    for (const [path, token] of [['/api/v2/organisations/org_rival/events', 'demo-token-app'], ['/api/v2/organisations/org_demo/events', 'demo-token-noesports'], ['/api/v2/organisations/org_nope/events', 'demo-token-app']]) {
      const response = await api(path, { token });
      expect(response.status).toBe(403);
      expect(response.body.error.details[0].issue).toBe('missing_installation');
    }
  });

  it('answers 304 to a current If-None-Match, cheaply, and a new ETag after a write', async () => {
    const first = await api('/api/v2/organisations/org_demo/events?limit=5');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    // Each request's own statements, by its x-request-id: the server's background polling apart.
    const fresh = await api('/api/v2/organisations/org_demo/events?limit=5');
    const fullCost = server.db.queryCount(fresh.headers.get('x-request-id')!);
    const notModified = await fetch(`${server.url}/api/v2/organisations/org_demo/events?limit=5`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    const cachedCost = server.db.queryCount(notModified.headers.get('x-request-id')!);
    expect(cachedCost).toBeGreaterThan(0);
    expect(fresh.headers.get('etag')).toBe(etag);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(await notModified.text()).toBe('');
    expect(cachedCost).toBeLessThan(fullCost);
    // If-None-Match compares weakly: the ETag weakened by a proxy, in a list, still matches.
    const weak = await fetch(`${server.url}/api/v2/organisations/org_demo/events?limit=5`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    // Another page or filter has another ETag.
    expect((await api('/api/v2/organisations/org_demo/events?limit=6')).headers.get('etag')).not.toBe(etag);
    // A write to one of the organisation's events changes it.
    const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).revision;
    expect((await api('/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key: uniqueKey(), body: { name: 'Later', format: 'swiss', bestOf: 1 } })).status).toBe(201);
    const after = await fetch(`${server.url}/api/v2/organisations/org_demo/events?limit=5`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});

describe('GET /api/v2/events/{eventId}/statistics/players', () => {
  it('computes every field from the per-match statistics', async () => {
    const response = await api('/api/v2/events/evt_open/statistics/players?limit=100');
    expect(response.status).toBe(200);
    const rows = await server.db.prisma.playerMatchStat.findMany({ where: { eventId: 'evt_open' } });
    expect(response.body.data).toHaveLength(new Set(rows.map((r) => r.profileId)).size);
    for (const player of response.body.data) {
      const mine = rows.filter((r) => r.profileId === player.profileId);
      const sum = (field: keyof (typeof mine)[number]) => mine.reduce((total, r) => total + (r[field] as number), 0);
      const rounds = sum('roundsPlayed');
      const t = { roundsPlayed: rounds, kills: sum('kills'), deaths: sum('deaths'), assists: sum('assists'), kastRounds: sum('kastRounds'), damage: sum('damage') };
      const r2 = (x: number) => Math.round(x * 100) / 100;
      expect(player).toEqual({
        userId: mine[0].userId,
        profileId: player.profileId,
        displayName: mine[0].displayName,
        matchesPlayed: mine.length,
        roundsPlayed: rounds,
        roundsWon: sum('roundsWon'),
        kills: t.kills,
        deaths: t.deaths,
        assists: t.assists,
        headshots: sum('headshots'),
        openingKills: sum('openingKills'),
        openingDeaths: sum('openingDeaths'),
        plants: sum('plants'),
        defuserDisables: sum('defuserDisables'),
        clutchSituations: sum('clutchSituations'),
        clutchWins: sum('clutchWins'),
        kdr: r2(t.deaths ? t.kills / t.deaths : t.kills),
        kpr: r2(t.kills / rounds),
        kostPercent: r2((100 * t.kastRounds) / rounds),
        winRate: r2((100 * mine.filter((r) => r.won).length) / mine.length),
        headshotPercent: r2((100 * sum('headshots')) / t.kills),
        survivalPercent: r2((100 * sum('survivedRounds')) / rounds),
        plantPercent: r2((100 * sum('plants')) / rounds),
        defusePercent: r2((100 * sum('defuserDisables')) / rounds),
        rating: r2(ratingOf(t)),
      });
    }
    const ratings = response.body.data.map((p: { rating: number }) => p.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });

  it('a completed event with 250 matches has no scope limit and pages through every player once', async () => {
    const { items } = await allPages('/api/v2/events/evt_done/statistics/players?limit=6');
    const players = items as unknown as { profileId: string; matchesPlayed: number }[];
    const profiles = await server.db.prisma.playerMatchStat.findMany({ where: { eventId: 'evt_done' }, distinct: ['profileId'], select: { profileId: true } });
    expect(players.map((p) => p.profileId).sort()).toEqual(profiles.map((p) => p.profileId).sort());
    // 250 matches, five players a side.
    expect(players.reduce((total, p) => total + p.matchesPlayed, 0)).toBe(250 * 10);
  });

  it('an event in play refuses a scope of more than 200 matches and accepts a narrower one', async () => {
    const wide = await api('/api/v2/events/evt_live/statistics/players');
    expect(wide.status).toBe(400);
    expect(wide.body.error.code).toBe('validation_failed');
    expect(wide.body.error.message).toMatch(/stageId or groupId/);
    const stage = await api('/api/v2/events/evt_live/statistics/players?stageId=stg_live_a&limit=100');
    expect(stage.status).toBe(200);
    const stageRows = await server.db.prisma.playerMatchStat.findMany({ where: { stageId: 'stg_live_a' } });
    expect(stage.body.data.reduce((t: number, p: { matchesPlayed: number }) => t + p.matchesPlayed, 0)).toBe(stageRows.length);
    const group = await api('/api/v2/events/evt_live/statistics/players?groupId=grp_live_a1&limit=100');
    expect(group.status).toBe(200);
    const groupRows = await server.db.prisma.playerMatchStat.count({ where: { groupId: 'grp_live_a1' } });
    expect(group.body.data.reduce((t: number, p: { matchesPlayed: number }) => t + p.matchesPlayed, 0)).toBe(groupRows);
  });

  it('refuses a stage or group of another event', async () => {
    expect((await api('/api/v2/events/evt_open/statistics/players?stageId=stg_live_a')).status).toBe(400);
    expect((await api('/api/v2/events/evt_live/statistics/players?stageId=stg_live_b&groupId=grp_live_a1')).status).toBe(400);
  });

  it('404 for an event the application cannot see', async () => {
    expect((await api('/api/v2/events/evt_rival/statistics/players')).status).toBe(404);
    expect((await api('/api/v2/events/evt_nope/statistics/players')).status).toBe(404);
  });

  it('If-None-Match: * answers 304 only where the request would answer 200', async () => {
    const star = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': '*' } });
    expect((await star('/api/v2/events/evt_done/statistics/players')).status).toBe(304);
    expect((await star('/api/v2/events/evt_live/statistics/players')).status).toBe(400);
    expect((await star('/api/v2/events/evt_open/statistics/players?stageId=stg_live_a')).status).toBe(400);
    expect((await star('/api/v2/organisations/org_demo/events')).status).toBe(304);
    expect((await star('/api/v2/organisations/org_demo/events?state=paused')).status).toBe(400);
    expect((await star('/api/v2/organisations/org_rival/events')).status).toBe(403);
  });

  it('ETag and 304', async () => {
    const first = await api('/api/v2/events/evt_done/statistics/players?limit=3');
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${server.url}/api/v2/events/evt_done/statistics/players?limit=3`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('GET /api/v2/users/{userId}', () => {
  it('answers public fields only for a user with an active installation', async () => {
    const response = await api('/api/v2/users/usr_bob');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: 'usr_bob', displayName: 'Bob', username: 'bob', imageUrl: 'https://cdn.example.test/avatars/bob.png', nationality: 'DE', primaryPlatform: 'steam', platforms: ['steam'] });
    expect(JSON.stringify(response.body)).not.toMatch(/email|password/i);
  });

  it.each(['usr_carol', 'usr_erin', 'usr_nope'])('404 not_found for %s (revoked, no installation, unknown)', async (userId) => {
    const response = await api(`/api/v2/users/${userId}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('GET /api/v2/events/{eventId}', () => {
  it('answers the event in the list shape with its revision as ETag, 304 while unchanged, and the ETag works as If-Match', async () => {
    const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
    const first = await api('/api/v2/events/evt_draft');
    expect(first.status).toBe(200);
    const listed = (await api('/api/v2/organisations/org_demo/events?limit=100')).body.data.find((event: { id: string }) => event.id === 'evt_draft');
    expect(first.body.data).toEqual(listed);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${first.body.data.revision}"`);
    const unchanged = await fetch(`${server.url}/api/v2/events/evt_draft`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    const write = await api('/api/v2/events/evt_draft/stages', { method: 'POST', ifMatch: etag, key: uniqueKey(), body: { name: 'Via ETag', format: 'swiss', bestOf: 1 } });
    expect(write.status).toBe(201);
    const changed = await fetch(`${server.url}/api/v2/events/evt_draft`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe(`"${first.body.data.revision + 1}"`);
    expect((await api('/api/v2/events/evt_rival')).status).toBe(404);
    expect((await api('/api/v2/events/evt_nope')).status).toBe(404);
  });
});
