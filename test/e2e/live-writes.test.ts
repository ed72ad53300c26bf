// The live writes overlays follow, end to end: a match report, the broadcast configuration and a
// playday's live selection, through REST and GraphQL, read back through v1, each on the event-write
// path (revision, change log, If-Match, scope and permission).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const v1 = async (path: string) => (await api(`/api/v1${path}`, { token: null, headers: { 'x-api-key': 'demo-org-key-0001' } })).body.data;

async function write(method: string, path: string, body?: unknown, token?: string) {
  const eventId = /\/events\/([^/]+)/.exec(path)![1];
  return api(path, { method, body, token, ifMatch: await revisionOf(eventId) });
}

function expectError(response: Awaited<ReturnType<typeof call>>, status: number, code: string, issueOrField?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  if (issueOrField) expect(response.body.error.details.flatMap((d: { field?: string; issue: string }) => [d.field, d.issue])).toContain(issueOrField);
}

const lastChange = (eventId: string) => server.db.prisma.changeLog.findFirst({ where: { eventId }, orderBy: { sequence: 'desc' } });

describe('match report', () => {
  it('takes a match live, then completes it with scores and maps; each step moves the revision and is in the change log', async () => {
    const path = '/api/v2/events/evt_open/matches/mtc_open_2';
    const before = await revisionOf('evt_open');
    const live = await write('PATCH', path, { status: 'live', streamUrl: 'https://twitch.example.test/open-2' });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.data).toEqual({ resourceId: 'mtc_open_2', revision: before + 1, updated: true });
    expect(live.headers.get('etag')).toBe(`"${before + 1}"`);
    let match = await v1('/events/evt_open/matches/mtc_open_2');
    expect(match).toMatchObject({ status: 'live', completedAt: null, streamUrl: 'https://twitch.example.test/open-2' });
    expect(match.startedAt).not.toBeNull();
    expect(await lastChange('evt_open')).toMatchObject({ type: 'match.updated', resourceType: 'match', resourceId: 'mtc_open_2', revision: before + 1 });

    // A partial report keeps what it does not name.
    expect((await write('PATCH', path, { scoreA: 1, scoreB: 0 })).status).toBe(200);
    match = await v1('/events/evt_open/matches/mtc_open_2');
    expect(match).toMatchObject({ status: 'live', streamUrl: 'https://twitch.example.test/open-2', opponentA: { score: 1, result: null }, opponentB: { score: 0 } });

    // A best-of-1: one map at most.
    expectError(await write('PATCH', path, { maps: [{ mapId: 'map_mirage' }, { mapId: 'map_nuke' }] }), 400, 'validation_failed', 'maps');
    const done = await write('PATCH', path, { status: 'completed', scoreA: 2, scoreB: 1, maps: [{ mapId: 'map_nuke', scoreA: 13, scoreB: 9, winner: 'a' }] });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    match = await v1('/events/evt_open/matches/mtc_open_2');
    expect(match).toMatchObject({ status: 'completed', opponentA: { score: 2, result: 'win' }, opponentB: { score: 1, result: 'loss', forfeit: false } });
    expect(match.completedAt).not.toBeNull();
    expect(match.maps).toEqual([{ position: 1, mapId: 'map_nuke', mapName: 'Nuke', scoreA: 13, scoreB: 9, winner: 'a' }]);
    expect((await lastChange('evt_open'))?.payload).toMatchObject({ matchId: 'mtc_open_2', status: 'completed', previousStatus: 'live', scoreA: 2, scoreB: 1 });

    // The same report again changes nothing.
    const revision = await revisionOf('evt_open');
    const again = await write('PATCH', path, { status: 'completed', scoreA: 2, scoreB: 1 });
    expect(again.body.data).toEqual({ resourceId: 'mtc_open_2', revision, updated: false });

    // A completed match keeps its status; scores can be corrected.
    expectError(await write('PATCH', path, { status: 'live' }), 409, 'conflict', 'match_completed');
    expect((await write('PATCH', path, { scoreB: 0, maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 2, winner: 'a' }] })).status).toBe(200);
    match = await v1('/events/evt_open/matches/mtc_open_2');
    expect(match.opponentB.score).toBe(0);
    expect(match.maps.map((m: { mapId: string }) => m.mapId)).toEqual(['map_mirage']);
  });

  it('refuses what a report cannot be: 400 for bad fields, 404 for another event, 409 without scores or sides', async () => {
    const path = '/api/v2/events/evt_live/matches/mtc_live_a_150';
    expectError(await write('PATCH', path, {}), 400, 'validation_failed');
    expectError(await write('PATCH', path, { status: 'paused' }), 400, 'validation_failed', 'status');
    expectError(await write('PATCH', path, { scoreA: -1 }), 400, 'validation_failed', 'scoreA');
    expectError(await write('PATCH', path, { streamUrl: 'javascript:alert(1)' }), 400, 'validation_failed', 'streamUrl');
    expectError(await write('PATCH', path, { scheduledAt: 'tomorrow' }), 400, 'validation_failed', 'scheduledAt');
    expectError(await write('PATCH', path, { maps: [{ mapId: 'map_nowhere' }] }), 400, 'validation_failed', 'maps.0.mapId');
    expectError(await write('PATCH', path, { status: 'completed', scoreA: 1 }), 400, 'validation_failed', 'scoreB');
    expectError(await write('PATCH', '/api/v2/events/evt_live/matches/mtc_open_1', { scoreA: 1 }), 404, 'not_found');
    // A completed event takes corrections of its completed matches only: their status stays completed.
    expectError(await write('PATCH', '/api/v2/events/evt_done/matches/mtc_done_001', { status: 'live' }), 409, 'conflict', 'event_closed');
    // null clears: the schedule of a match.
    expect((await write('PATCH', path, { scheduledAt: null })).status).toBe(200);
    expect((await v1('/events/evt_live/matches/mtc_live_a_150')).scheduledAt).toBeNull();
    // Cancelled is final.
    expect((await write('PATCH', path, { status: 'cancelled' })).status).toBe(200);
    expectError(await write('PATCH', path, { status: 'scheduled' }), 409, 'conflict', 'match_cancelled');
  });

  it('takes the event-write preconditions and authority: If-Match, scope, permission', async () => {
    const path = '/api/v2/events/evt_live/matches/mtc_live_a_149';
    expectError(await api(path, { method: 'PATCH', body: { scoreA: 1 } }), 428, 'precondition_required');
    expectError(await api(path, { method: 'PATCH', body: { scoreA: 1 }, ifMatch: '"999"' }), 412, 'precondition_failed');
    expectError(await write('PATCH', path, { scoreA: 1 }, 'demo-token-readonly'), 403, 'forbidden');
    expectError(await write('PATCH', path, { scoreA: 1 }, 'demo-token-dave'), 403, 'forbidden');
    expect((await write('PATCH', path, { scoreA: 1 }, 'demo-token-alice')).status).toBe(200);
  });

  it('is the same write through GraphQL: absent fields keep their value, null clears', async () => {
    const graphql = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: Record<string, { revision: number; updated: boolean }>; errors?: unknown[] };
    };
    const mutation = `mutation ($ifMatch: String, $input: MatchReportInput!) { reportMatch(eventId: "evt_live", matchId: "mtc_live_a_148", input: $input, ifMatch: $ifMatch) { revision updated } }`;
    const first = await graphql(mutation, { ifMatch: `"${await revisionOf('evt_live')}"`, input: { status: 'live', streamUrl: 'https://twitch.example.test/148' } });
    expect(first.errors).toBeUndefined();
    expect(first.data?.reportMatch.updated).toBe(true);
    await graphql(mutation, { ifMatch: `"${await revisionOf('evt_live')}"`, input: { scoreA: 3 } });
    let match = await v1('/events/evt_live/matches/mtc_live_a_148');
    expect(match).toMatchObject({ status: 'live', streamUrl: 'https://twitch.example.test/148', opponentA: { score: 3 } });
    await graphql(mutation, { ifMatch: `"${await revisionOf('evt_live')}"`, input: { streamUrl: null } });
    match = await v1('/events/evt_live/matches/mtc_live_a_148');
    expect(match).toMatchObject({ status: 'live', streamUrl: null, opponentA: { score: 3 } });
  });
});

describe('broadcast configuration', () => {
  it('creates, replaces (absent fields take their defaults) and refuses bad values', async () => {
    const path = '/api/v2/events/evt_live/broadcast';
    expect((await api('/api/v1/events/evt_live/broadcast', { token: null, headers: { 'x-api-key': 'demo-org-key-0001' } })).status).toBe(404);
    const created = await write('PUT', path, { streamUrl: 'https://twitch.example.test/live', primaryColor: '#AABBCC', delaySeconds: 30 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ resourceId: 'evt_live', updated: true });
    expect(await v1('/events/evt_live/broadcast')).toMatchObject({
      eventId: 'evt_live',
      streamUrl: 'https://twitch.example.test/live',
      youtubeUrl: null,
      overlayTheme: 'default',
      primaryColor: '#aabbcc',
      delaySeconds: 30,
      showScores: true,
    });
    expect((await lastChange('evt_live'))?.type).toBe('broadcast.updated');
    const same = await write('PUT', path, { streamUrl: 'https://twitch.example.test/live', primaryColor: '#aabbcc', delaySeconds: 30 });
    expect(same.body.data.updated).toBe(false);
    expect((await write('PUT', path, { overlayTheme: 'dark', showScores: false })).status).toBe(200);
    expect(await v1('/events/evt_live/broadcast')).toMatchObject({ streamUrl: null, overlayTheme: 'dark', primaryColor: null, delaySeconds: 0, showScores: false });

    expectError(await write('PUT', path, { primaryColor: 'blue' }), 400, 'validation_failed', 'primaryColor');
    expectError(await write('PUT', path, { delaySeconds: 601 }), 400, 'validation_failed', 'delaySeconds');
    expectError(await write('PUT', path, { streamUrl: 'ftp://example.test/x' }), 400, 'validation_failed', 'streamUrl');
    expectError(await write('PUT', path, { overlay: 'dark' }), 400, 'validation_failed');
    expectError(await write('PUT', '/api/v2/events/evt_rival/broadcast', {}), 403, 'forbidden');
  });
});

describe('playday live selection', () => {
  it('sets the live match and overlay score; null takes the match off air', async () => {
    const path = '/api/v2/events/evt_open/playdays/pd_open_1';
    const response = await write('PATCH', path, { liveMatchId: 'mtc_open_2', overlayScoreA: 0, overlayScoreB: 1 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.resourceId).toBe('pd_open_1');
    expect(await v1('/events/evt_open/playdays/pd_open_1')).toMatchObject({ liveMatchId: 'mtc_open_2', overlayScoreA: 0, overlayScoreB: 1 });
    expect(await lastChange('evt_open')).toMatchObject({ type: 'playday.updated', resourceType: 'playday', resourceId: 'pd_open_1' });
    expect((await write('PATCH', path, { overlayScoreA: 1 })).status).toBe(200);
    expect(await v1('/events/evt_open/playdays/pd_open_1')).toMatchObject({ liveMatchId: 'mtc_open_2', overlayScoreA: 1, overlayScoreB: 1 });
    expect((await write('PATCH', path, { liveMatchId: null })).status).toBe(200);
    expect(await v1('/events/evt_open/playdays/pd_open_1')).toMatchObject({ liveMatchId: null, overlayScoreA: 1 });

    expectError(await write('PATCH', path, { liveMatchId: 'mtc_live_a_001' }), 400, 'validation_failed', 'liveMatchId');
    expectError(await write('PATCH', path, { overlayScoreA: 1.5 }), 400, 'validation_failed', 'overlayScoreA');
    expectError(await write('PATCH', path, {}), 400, 'validation_failed');
    expectError(await write('PATCH', '/api/v2/events/evt_live/playdays/pd_open_1', { overlayScoreA: 1 }), 404, 'not_found');
  });
});
