// The v1 read API: organisation API keys in x-api-key (never in a URL), the key's organisation only,
// the same data through /graphql under Query.apiKey.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ webhookWorker: false });
});
afterAll(() => server?.close());

const KEY = 'demo-org-key-0001';
async function v1(path: string, key: string | null = KEY, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/v1${path}`, { headers: { ...(key === null ? {} : { 'x-api-key': key }), ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe('v1 read API', () => {
  it("answers the key's organisation, and another key's its own", async () => {
    const demo = await v1('/organisation');
    expect(demo.status).toBe(200);
    expect(demo.body.data).toMatchObject({ id: 'org_demo', name: 'Demo Esports League', slug: expect.any(String) });
    expect(Object.keys(demo.body.data).sort()).toEqual(['createdAt', 'id', 'name', 'slug']);
    expect((await v1('/organisation', 'demo-org-key-0002')).body.data.id).toBe('org_rival');
  });

  it('refuses a missing, unknown or revoked key with 401, and a key in the URL with 400', async () => {
    const long = await v1('/organisation', 'x'.repeat(500));
    expect(long.status).toBe(400);
    expect(long.body.error.details[0].field).toBe('x-api-key');
    for (const key of [null, '', 'demo-org-key-9999']) {
      const response = await v1('/organisation', key);
      expect(response.status, String(key)).toBe(401);
      expect(response.body.error.code).toBe('invalid_token');
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
    for (const name of ['apiKey', 'api_key', 'key', 'x-api-key']) {
      const response = await v1(`/maps?${name}=${KEY}`);
      expect(response.status, name).toBe(400);
      expect(response.body.error.details).toEqual([{ field: name, issue: 'key_in_url' }]);
    }
    await server.db.prisma.organisationApiKey.create({ data: { id: 'key_revoke_me', organisationId: 'org_demo', keyHash: (await import('../../platform/api/crypto.ts')).sha256('revoke-me-0001'), prefix: 'revoke-m' } });
    expect((await v1('/organisation', 'revoke-me-0001')).status).toBe(200);
    await server.db.prisma.organisationApiKey.update({ where: { id: 'key_revoke_me' }, data: { revokedAt: new Date() } });
    expect((await v1('/organisation', 'revoke-me-0001')).status).toBe(401);
  });

  it('pages the maps with cursors and refuses bad parameters, naming them', async () => {
    const first = await v1('/maps?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(['map_ancient', 'map_anubis', 'map_dust2']);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await v1(`/maps?limit=3&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual(['map_inferno', 'map_mirage', 'map_nuke']);
    const all = await v1('/maps?limit=100');
    expect(all.body.data).toHaveLength(7);
    expect(all.body.meta).toEqual({ nextCursor: null, hasMore: false });
    for (const [query, field] of [['limit=0', 'limit'], ['limit=abc', 'limit'], ['cursor=bogus', 'cursor'], ['colour=red', 'colour']]) {
      const response = await v1(`/maps?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.details[0].field).toBe(field);
    }
  });

  it('is the same data on /graphql under Query.apiKey', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ query: '{ apiKey { organisation { id name slug createdAt } maps(limit: 2) { data { id name imageUrl } meta { hasMore } } } }' }),
    });
    const body = (await response.json()) as { data: { apiKey: { organisation: unknown; maps: { data: unknown[] } } } };
    expect(body.data.apiKey.organisation).toEqual((await v1('/organisation')).body.data);
    expect(body.data.apiKey.maps.data).toEqual((await v1('/maps?limit=2')).body.data);
    const refused = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ apiKey { organisation { id } } }' }) });
    expect(((await refused.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code).toBe('invalid_token');
  });

  it("lists and reads only the key's organisation's events, with strong ETags and 304", async () => {
    const list = await v1('/events?limit=100');
    expect(list.status).toBe(200);
    const ids = list.body.data.map((event: { id: string }) => event.id);
    expect(ids).toEqual(expect.arrayContaining(['evt_draft', 'evt_open', 'evt_live', 'evt_done']));
    expect(ids).not.toContain('evt_rival');
    const etag = list.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const unchanged = await v1('/events?limit=100', KEY, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect((await v1('/events?state=live')).body.data.map((event: { id: string }) => event.id)).toEqual(['evt_live']);
    expect((await v1('/events?state=paused')).status).toBe(400);

    const event = await v1('/events/evt_open');
    expect(event.status).toBe(200);
    expect(event.body.data).toMatchObject({
      id: 'evt_open',
      organisationId: 'org_demo',
      name: 'Demo Open',
      state: 'scheduled',
      game: 'cs2',
      timezone: 'Europe/Berlin',
      startsAt: '2026-01-05T09:00:00.000Z',
      endsAt: '2026-01-11T20:00:00.000Z',
      logoUrl: 'https://cdn.example.test/events/evt_open-logo.png',
      bannerUrl: 'https://cdn.example.test/events/evt_open.png',
      primaryColor: '#1f6feb',
      secondaryColor: '#f2cc60',
    });
    // The list carries the same branding as the single read.
    expect(list.body.data.find((item: { id: string }) => item.id === 'evt_open')).toEqual(event.body.data);
    expect(event.headers.get('etag')).toBe(`"${event.body.data.revision}"`);
    expect((await v1('/events/evt_open', KEY, { 'if-none-match': `"${event.body.data.revision}"` })).status).toBe(304);
    expect((await v1('/events/evt_open', KEY, { 'if-none-match': '"1"' })).status).toBe(200);
    for (const other of ['evt_rival', 'evt_nope']) {
      const response = await v1(`/events/${other}`);
      expect(response.status, other).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await v1('/events/evt_rival', 'demo-org-key-0002')).status).toBe(200);
    expect((await v1('/events/evt_open', 'demo-org-key-0002')).status).toBe(404);
  });

  it('stages, groups and rounds of an event: pages, filters, items, ETags from the event revision', async () => {
    const stages = await v1('/events/evt_open/stages');
    expect(stages.status).toBe(200);
    expect(stages.body.data.map((stage: { id: string }) => stage.id)).toContain('stg_open_groups');
    expect(stages.body.data[0]).toMatchObject({ eventId: 'evt_open', position: 1 });
    const etag = stages.headers.get('etag')!;
    expect((await v1('/events/evt_open/stages', KEY, { 'if-none-match': etag })).status).toBe(304);
    // Another view of the same event has its own ETag.
    expect((await v1('/events/evt_open/stages?limit=1')).headers.get('etag')).not.toBe(etag);

    const groups = await v1('/events/evt_open/groups?stageId=stg_open_groups');
    expect(groups.body.data.map((group: { id: string }) => group.id)).toEqual(['grp_open_a', 'grp_open_b']);
    const firstGroup = await v1('/events/evt_open/groups?limit=1');
    const nextGroup = await v1(`/events/evt_open/groups?limit=1&cursor=${encodeURIComponent(firstGroup.body.meta.nextCursor)}`);
    expect([firstGroup.body.data[0].id, nextGroup.body.data[0].id]).toEqual(['grp_open_a', 'grp_open_b']);
    expect((await v1('/events/evt_open/groups/grp_open_b')).body.data).toMatchObject({ id: 'grp_open_b', stageId: 'stg_open_groups' });

    const rounds = await v1('/events/evt_open/rounds?groupId=grp_open_a');
    expect(rounds.body.data).toEqual([{ id: 'rnd_open_a1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', number: 1, name: 'Round 1', bracket: null }]);
    expect((await v1('/events/evt_open/rounds/rnd_open_b1')).body.data.groupId).toBe('grp_open_b');
    expect((await v1('/events/evt_open/stages/stg_open_groups')).body.data.name).toEqual(expect.any(String));

    // Not of this event, or of another organisation: 404.
    for (const path of ['/events/evt_live/stages/stg_open_groups', '/events/evt_open/groups/grp_live_a1', '/events/evt_rival/stages', '/events/evt_nope/rounds', '/events/evt_open/rounds/rnd_nope']) {
      expect((await v1(path)).status, path).toBe(404);
    }
    expect((await v1('/events/evt_open/rounds?colour=red')).status).toBe(400);
    expect((await v1('/events/evt_open/stages?cursor=bogus')).status).toBe(400);

    // A write to the event moves the revision: the old ETag no longer matches.
    const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).revision;
    await server.db.prisma.event.update({ where: { id: 'evt_open' }, data: { revision: revision + 1 } });
    expect((await v1('/events/evt_open/stages', KEY, { 'if-none-match': etag })).status).toBe(200);
  });

  it('participants with lineups, invitations, broadcast and playdays, only of the key\'s events', async () => {
    const participants = await v1('/events/evt_open/participants?limit=100');
    expect(participants.status).toBe(200);
    const ids = participants.body.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['par_alpha', 'par_bravo', 'par_charlie', 'par_delta']));
    const alpha = participants.body.data.find((p: { id: string }) => p.id === 'par_alpha');
    expect(alpha).toMatchObject({ eventId: 'evt_open', teamId: 'team_alpha', name: expect.any(String) });
    const bravo = (await v1('/events/evt_open/participants/par_bravo')).body.data;
    expect(bravo.lineup.map((m: { userId: string }) => m.userId)).toContain('usr_carol');
    expect(JSON.stringify(participants.body)).not.toContain('@'); // no e-mail addresses
    const registered = await v1('/events/evt_open/participants?status=registered');
    expect(registered.body.data.every((p: { status: string }) => p.status === 'registered')).toBe(true);
    expect((await v1('/events/evt_open/participants?status=sleeping')).status).toBe(400);

    const invitations = await v1('/events/evt_open/invitations');
    expect(invitations.body.data.map((i: { id: string }) => i.id)).toContain('inv_open_1');
    expect((await v1('/events/evt_open/invitations/inv_open_1')).body.data.id).toBe('inv_open_1');

    const broadcast = await v1('/events/evt_open/broadcast');
    expect(broadcast.status).toBe(200);
    expect(broadcast.body.data).toMatchObject({ eventId: 'evt_open', overlayTheme: expect.any(String), showScores: expect.any(Boolean) });
    expect((await v1('/events/evt_done/broadcast')).status).toBe(404);

    const playdays = await v1('/events/evt_open/playdays');
    expect(playdays.body.data[0]).toMatchObject({ id: 'pd_open_1', eventId: 'evt_open' });
    expect(playdays.body.data[0].staff.length).toBeGreaterThan(0);
    expect((await v1('/events/evt_open/playdays/pd_open_1')).body.data.id).toBe('pd_open_1');

    for (const path of ['/events/evt_rival/participants', '/events/evt_live/participants/par_alpha', '/events/evt_open/invitations/inv_nope', '/events/evt_rival/broadcast', '/events/evt_open/playdays/pd_nope']) {
      expect((await v1(path)).status, path).toBe(404);
    }
  });

  it('matches with both opponents, maps, timing and filters', async () => {
    const match = await v1('/events/evt_open/matches/mtc_open_1');
    expect(match.status).toBe(200);
    const data = match.body.data;
    expect(data).toMatchObject({ id: 'mtc_open_1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', roundId: 'rnd_open_a1', status: 'completed', streamUrl: expect.any(String) });
    expect(data.opponentA).toMatchObject({ participantId: 'par_alpha', teamId: 'team_alpha', forfeit: false });
    expect(data.opponentB).toMatchObject({ participantId: 'par_bravo', teamId: 'team_bravo' });
    expect([data.opponentA.result, data.opponentB.result].sort()).toEqual(data.opponentA.score === data.opponentB.score ? ['draw', 'draw'] : ['loss', 'win']);
    expect(data.maps.length).toBeGreaterThan(0);
    expect(data.maps[0]).toMatchObject({ position: 1, mapId: expect.stringMatching(/^map_/), mapName: expect.any(String) });
    expect(data.startedAt).not.toBeNull();
    // Maps in play order, named as the maps reference data names them.
    const positions = data.maps.map((m: { position: number }) => m.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const names = new Map((await v1('/maps?limit=100')).body.data.map((m: { id: string; name: string }) => [m.id, m.name]));
    for (const played of data.maps) expect(played.mapName).toBe(names.get(played.mapId));

    const scheduled = (await v1('/events/evt_open/matches/mtc_open_2')).body.data;
    expect(scheduled.opponentA.result).toBeNull();
    expect(scheduled.startedAt).toBeNull();

    const live = await v1('/events/evt_live/matches?stageId=stg_live_a&groupId=grp_live_a1&limit=100');
    expect(live.body.data).toHaveLength(60);
    expect((await v1('/events/evt_live/matches?status=live&limit=100')).body.data).toHaveLength(4);
    expect((await v1('/events/evt_open/matches?roundId=rnd_open_b1')).body.data.map((m: { id: string }) => m.id)).toEqual(['mtc_open_2']);
    // Paging the 270 matches of evt_live: every match once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await v1(`/events/evt_live/matches?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.body.data.map((m: { id: string }) => m.id));
      cursor = page.body.meta.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(270);
    expect(new Set(seen).size).toBe(270);
    // A cursor belongs to its list and filters.
    const firstPage = await v1('/events/evt_live/matches?limit=5');
    const foreign = await v1(`/events/evt_live/matches?status=live&cursor=${encodeURIComponent(firstPage.body.meta.nextCursor)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    expect((await v1('/events/evt_open/matches?status=paused')).status).toBe(400);
    expect((await v1('/events/evt_live/matches/mtc_open_1')).status).toBe(404);
    expect((await v1('/events/evt_rival/matches')).status).toBe(404);
  });

  it('standings with record, points, score for and against, adjustments', async () => {
    const standings = await v1('/events/evt_open/standings?limit=100');
    expect(standings.status).toBe(200);
    expect(standings.body.data.length).toBeGreaterThan(0);
    for (const row of standings.body.data) {
      expect(row.scoreDifference).toBe(row.scoreFor - row.scoreAgainst);
      expect(row.eventId).toBe('evt_open');
    }
    const groupA = await v1('/events/evt_open/standings?groupId=grp_open_a');
    expect(groupA.body.data.every((row: { groupId: string }) => row.groupId === 'grp_open_a')).toBe(true);
    const ranks = groupA.body.data.map((row: { rank: number }) => row.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // An adjustment shows in points and adjustmentPoints.
    const alpha = groupA.body.data.find((row: { participantId: string }) => row.participantId === 'par_alpha');
    const response = await fetch(`${server.url}/api/v2/events/evt_open/standing-adjustments`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer demo-token-app',
        'content-type': 'application/json',
        'if-match': `"${(await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).revision}"`,
        'idempotency-key': `v1-standings-${Date.now()}`,
      },
      body: JSON.stringify({ participantId: 'par_alpha', stageId: 'stg_open_groups', groupId: 'grp_open_a', points: 2 }),
    });
    expect(response.status).toBe(201);
    const after = (await v1('/events/evt_open/standings?groupId=grp_open_a')).body.data.find((row: { participantId: string }) => row.participantId === 'par_alpha');
    expect(after.points).toBe(alpha.points + 2);
    expect(after.adjustmentPoints).toBe(alpha.adjustmentPoints + 2);
    expect((await v1('/events/evt_rival/standings')).status).toBe(404);
  });

  it('users: only those who take part in an event of the organisation, public fields only', async () => {
    for (const userId of ['usr_bob', 'usr_carol']) {
      const user = await v1(`/users/${userId}`);
      expect(user.status, userId).toBe(200);
      expect(Object.keys(user.body.data).sort()).toEqual(['displayName', 'id', 'imageUrl', 'nationality', 'platforms', 'primaryPlatform', 'username']);
      expect(JSON.stringify(user.body)).not.toMatch(/@|password|hash/i);
    }
    // An administrator of another organisation, a user in no event, an unknown user: 404.
    for (const userId of ['usr_dave', 'usr_erin', 'usr_alice', 'usr_nope']) {
      const response = await v1(`/users/${userId}`);
      expect(response.status, userId).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    // bob's team plays in evt_rival too: the rival key sees him; dave is no player there either.
    expect((await v1('/users/usr_bob', 'demo-org-key-0002')).status).toBe(200);
    expect((await v1('/users/usr_dave', 'demo-org-key-0002')).status).toBe(404);
  });

  it('keys: an administrator issues, lists, rotates (at once or with grace) and revokes; each takes effect at once', async () => {
    const admin = async (method: string, path: string, body?: unknown, token = 'demo-token-alice') => {
      const response = await fetch(`${server.url}/api/v2/organisations/org_demo/api-keys${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    const created = await admin('POST', '', { name: 'Overlay' });
    expect(created.status).toBe(201);
    const { apiKey, key } = created.body.data;
    expect(key).toMatch(/^okey_/);
    expect(apiKey).toMatchObject({ organisationId: 'org_demo', name: 'Overlay', prefix: key.slice(0, 12), revokedAt: null });
    expect((await v1('/organisation', key)).body.data.id).toBe('org_demo');

    // Listed without the key; last use recorded.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const listed = (await admin('GET', '?limit=100')).body.data;
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed.find((k: { id: string }) => k.id === apiKey.id).lastUsedAt).not.toBeNull();

    // Rotation without grace: the old key stops at once.
    const rotated = await admin('POST', `/${apiKey.id}/rotate`);
    expect(rotated.status).toBe(201);
    expect((await v1('/organisation', key)).status).toBe(401);
    const second = rotated.body.data.key;
    expect((await v1('/organisation', second)).status).toBe(200);
    expect((await admin('POST', `/${apiKey.id}/rotate`)).status).toBe(404);

    // Rotation with grace: both work for now.
    const graced = await admin('POST', `/${rotated.body.data.apiKey.id}/rotate`, { graceSeconds: 3600 });
    expect(graced.status).toBe(201);
    expect((await v1('/organisation', second)).status).toBe(200);
    expect((await v1('/organisation', graced.body.data.key)).status).toBe(200);
    expect((await admin('POST', `/${rotated.body.data.apiKey.id}/rotate`, { graceSeconds: -1 })).status).toBe(400);
    // A key is rotated once: in its grace period it has a replacement already.
    const again = await admin('POST', `/${rotated.body.data.apiKey.id}/rotate`, { graceSeconds: 60 });
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual([{ field: 'keyId', issue: 'key_rotated' }]);
    // Of concurrent rotations of one key, exactly one issues a replacement.
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => admin('POST', `/${graced.body.data.apiKey.id}/rotate`, i % 2 ? { graceSeconds: 60 } : undefined)));
    expect(racing.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(racing.every((answer) => [201, 404, 409].includes(answer.status))).toBe(true);
    const replacements = (await admin('GET', '?limit=100')).body.data.filter((k: { createdAt: string; revokedAt: string | null; expiresAt: string | null }) => !k.revokedAt && !k.expiresAt && k.createdAt >= graced.body.data.apiKey.createdAt);
    expect(replacements.filter((k: { id: string }) => k.id !== graced.body.data.apiKey.id)).toHaveLength(1);
    const winner = racing.find((answer) => answer.status === 201)!.body.data;
    // Past its grace period a key no longer works, and is rotated no more than a revoked one.
    await server.db.prisma.organisationApiKey.update({ where: { id: rotated.body.data.apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await v1('/organisation', second)).status).toBe(401);
    expect((await admin('POST', `/${rotated.body.data.apiKey.id}/rotate`)).status).toBe(404);

    // Revocation: at once.
    const revoked = await admin('DELETE', `/${winner.apiKey.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect((await v1('/organisation', winner.key)).status).toBe(401);

    // Only administrators, as users; the demo keys keep working.
    expect((await admin('POST', '', { name: 'x' }, 'demo-token-app')).status).toBe(403);
    expect((await admin('GET', '', undefined, 'demo-token-dave')).status).toBe(403);
    expect((await admin('DELETE', '/key_demo', undefined, 'demo-token-dave')).status).toBe(403);
    expect((await admin('POST', '', { name: '' })).status).toBe(400);
    expect((await v1('/organisation')).status).toBe(200);
  });
});
