// Standings follow the results, end to end: a started stage has a row per participant from its start;
// every report (and correction, and adjustment) recomputes the standings of the match's stage or
// group in the same transaction and revision, with a standings.updated change naming the rows that
// moved; v2 (ETag/304, groupId), v1 and GraphQL read the same stored rows in rank order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, expectError, uniqueKey } from '../support/api.ts';
import { startedStage } from '../support/stage-fixtures.ts';
import { computeStandings } from '../../subgraphs/competitions/tournament/index.ts';
import { standingsMatch } from '../../subgraphs/competitions/stages/standings.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Row = Record<string, any>;
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;


async function standingsOf(eventId: string, stageId: string, query = ''): Promise<Row[]> {
  const response = await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?limit=100${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

async function matchesOf(eventId: string, stageId: string): Promise<Row[]> {
  return (await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100`)).body.data;
}

async function reportOk(eventId: string, matchId: string, body: Record<string, unknown>) {
  const response = await api(`/api/v2/events/${eventId}/matches/${matchId}`, { method: 'PATCH', body, ifMatch: await revisionOf(eventId) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.revision as number;
}

/** Reports x against y as `scoreX`–`scoreY`, whichever side of the match each is on. */
async function play(eventId: string, matches: Row[], x: string, y: string, scoreX: number, scoreY: number) {
  const match = matches.find((m) => [m.opponentA?.participantId, m.opponentB?.participantId].sort().join() === [x, y].sort().join());
  expect(match, `${x} v ${y}`).toBeDefined();
  const xIsA = match!.opponentA.participantId === x;
  return reportOk(eventId, match!.id, { status: 'completed', scoreA: xIsA ? scoreX : scoreY, scoreB: xIsA ? scoreY : scoreX });
}

const changesAt = (eventId: string, revision: number) => server.db.prisma.changeLog.findMany({ where: { eventId, revision }, orderBy: { sequence: 'asc' } });
const pick = (rows: Row[], ...fields: string[]) => rows.map((row) => Object.fromEntries(['participantId', ...fields].map((f) => [f, row[f]])));

describe('round robin', () => {
  it('ranks by points, then head to head between the tied, with every tiebreaker value; qualifies with the stage; adjustments move ranks', async () => {
    const tiebreakers = ['points', 'head_to_head', 'score_difference', 'seed'];
    const { eventId, stageId, participantIds: [p1, p2, p3, p4] } = await startedStage(server, 'round_robin', 4, { tiebreakers, qualifiers: 2 });

    // At the start: everyone at zero, ranked by seed, none qualified yet.
    const initial = await standingsOf(eventId, stageId);
    expect(pick(initial, 'rank', 'seed', 'played', 'points', 'qualified')).toEqual(
      [p1, p2, p3, p4].map((participantId, i) => ({ participantId, rank: i + 1, seed: i + 1, played: 0, points: 0, qualified: false })),
    );
    expect(Object.keys(initial[0].tiebreakers)).toEqual(tiebreakers);

    const matches = await matchesOf(eventId, stageId);
    const first = await play(eventId, matches, p1, p2, 2, 0);
    const moved = (await changesAt(eventId, first)).filter((c) => c.type === 'standings.updated');
    expect(moved).toHaveLength(1);
    expect(moved[0].payload).toMatchObject({ stageId, groupId: null });
    // P1 and P2 played; P3 and P4 moved up a rank past P2.
    expect((moved[0].payload as { participantIds: string[] }).participantIds.sort()).toEqual([p1, p2, p3, p4].sort());
    expect((await standingsOf(eventId, stageId)).map((row) => row.participantId)).toEqual([p1, p3, p4, p2]);

    await play(eventId, matches, p3, p1, 2, 1);
    await play(eventId, matches, p1, p4, 2, 0);
    await play(eventId, matches, p2, p3, 2, 0);
    await play(eventId, matches, p2, p4, 1, 1);
    expect((await standingsOf(eventId, stageId)).some((row) => row.qualified)).toBe(false);
    const last = await play(eventId, matches, p3, p4, 0, 0);
    expect((await changesAt(eventId, last)).map((c) => c.type)).toEqual(['match.updated', 'standings.updated', 'stage.completed', 'event.updated']);

    // P1 6 pts; P2 and P3 4 pts, P2 beat P3; P4 2 pts.
    const final = await standingsOf(eventId, stageId);
    expect(pick(final, 'rank', 'played', 'wins', 'draws', 'losses', 'points', 'scoreFor', 'scoreAgainst', 'scoreDifference', 'tiebreakers', 'qualified')).toEqual([
      { participantId: p1, rank: 1, played: 3, wins: 2, draws: 0, losses: 1, points: 6, scoreFor: 5, scoreAgainst: 2, scoreDifference: 3, tiebreakers: { points: 6, head_to_head: 0, score_difference: 3, seed: 1 }, qualified: true },
      { participantId: p2, rank: 2, played: 3, wins: 1, draws: 1, losses: 1, points: 4, scoreFor: 3, scoreAgainst: 3, scoreDifference: 0, tiebreakers: { points: 4, head_to_head: 3, score_difference: 0, seed: 2 }, qualified: true },
      { participantId: p3, rank: 3, played: 3, wins: 1, draws: 1, losses: 1, points: 4, scoreFor: 2, scoreAgainst: 3, scoreDifference: -1, tiebreakers: { points: 4, head_to_head: 0, score_difference: -1, seed: 3 }, qualified: false },
      { participantId: p4, rank: 4, played: 3, wins: 0, draws: 2, losses: 1, points: 2, scoreFor: 1, scoreAgainst: 3, scoreDifference: -2, tiebreakers: { points: 2, head_to_head: 0, score_difference: -2, seed: 4 }, qualified: false },
    ]);

    // +2 for P3: level with P1 on 6, and P3 beat P1: P3 first. The stage is completed: qualification follows.
    const adjusted = await api(`/api/v2/events/${eventId}/standing-adjustments`, { method: 'POST', body: { participantId: p3, stageId, points: 2, reason: 'fair play' }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
    expect((await changesAt(eventId, adjusted.body.data.revision)).map((c) => c.type)).toEqual(['standing.adjusted', 'standings.updated']);
    const after = await standingsOf(eventId, stageId);
    expect(pick(after, 'rank', 'points', 'adjustmentPoints', 'qualified')).toEqual([
      { participantId: p3, rank: 1, points: 6, adjustmentPoints: 2, qualified: true },
      { participantId: p1, rank: 2, points: 6, adjustmentPoints: 0, qualified: true },
      { participantId: p2, rank: 3, points: 4, adjustmentPoints: 0, qualified: false },
      { participantId: p4, rank: 4, points: 2, adjustmentPoints: 0, qualified: false },
    ]);

    // v1 and GraphQL read the same rows.
    const v1 = await fetch(`${server.url}/api/v1/events/${eventId}/standings?stageId=${stageId}`, { headers: { 'x-api-key': 'demo-org-key-0001' } }).then((r) => r.json());
    expect(v1.data.map(({ name: _name, logoUrl: _logo, ...row }: Row) => row)).toEqual(after.map(({ name: _name, logoUrl: _logo, ...row }) => row));
    const graphql = await api('/graphql', {
      method: 'POST',
      body: { query: `query($e: ID!, $s: ID!) { stageStandings(eventId: $e, stageId: $s) { data { participantId rank points tiebreakers qualified } } }`, variables: { e: eventId, s: stageId } },
    });
    expect(graphql.body.data.stageStandings.data).toEqual(pick(after, 'rank', 'points', 'tiebreakers', 'qualified'));
  });

  it('a correction recomputes; a report that changes nothing the standings count writes no standings.updated', async () => {
    const { eventId, stageId, participantIds: [p1, p2] } = await startedStage(server, 'round_robin', 3);
    const matches = await matchesOf(eventId, stageId);
    await play(eventId, matches, p1, p2, 2, 1);
    const match = matches.find((m) => [m.opponentA?.participantId, m.opponentB?.participantId].includes(p1) && [m.opponentA?.participantId, m.opponentB?.participantId].includes(p2))!;
    const streamed = await reportOk(eventId, match.id, { streamUrl: 'https://example.test/vod' });
    expect((await changesAt(eventId, streamed)).map((c) => c.type)).toEqual(['match.updated']);
    await play(eventId, matches, p1, p2, 0, 2);
    const rows = await standingsOf(eventId, stageId);
    expect(pick(rows.filter((r) => r.participantId !== match.opponentA.participantId && r.participantId !== match.opponentB.participantId), 'played')).toEqual([expect.objectContaining({ played: 0 })]);
    expect(rows[0]).toMatchObject({ participantId: p2, wins: 1, losses: 0, points: 3, scoreFor: 2, scoreAgainst: 0 });
    expect(rows.find((r) => r.participantId === p1)).toMatchObject({ wins: 0, losses: 1, points: 0, scoreFor: 0, scoreAgainst: 2 });
  });
});

describe('recomputed with every report', () => {
  // After every report, draws, forfeits and corrections included, with custom points and
  // tiebreakers, the stored table is what the engine computes from every match read back through the API.
  it.each([
    ['league', { tiebreakers: ['points', 'head_to_head', 'score_difference', 'score_for', 'wins', 'seed'], points: { win: 2, draw: 1, loss: -1 } }],
    ['round_robin', { tiebreakers: ['points', 'wins', 'head_to_head', 'seed'] }],
  ] as const)('%s: every report leaves the table the engine computes from all the matches', async (format, settings) => {
    const { eventId, stageId, participantIds } = await startedStage(server, format, 7, settings);
    const stage = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
    const matches = await matchesOf(eventId, stageId);
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647) % n);
    const bodies = [
      () => ({ status: 'completed', scoreA: random(3), scoreB: random(3) }),
      () => ({ status: 'completed', forfeit: random(2) ? 'a' : 'b' }),
      () => ({ status: 'completed', scoreA: 1, scoreB: 1 }),
      () => ({ status: 'completed', scoreA: 3, scoreB: random(3) }),
    ];
    const reports = [...matches.map((m) => m.id), ...matches.slice(0, 6).map((m) => m.id)];
    for (const [index, matchId] of reports.entries()) {
      const body = bodies[random(bodies.length)]();
      // A correction of a forfeit keeps the forfeit unless it names another: send none.
      const response = await api(`/api/v2/events/${eventId}/matches/${matchId}`, { method: 'PATCH', body: index >= matches.length && 'scoreA' in body ? { ...body, forfeit: null } : body, ifMatch: await revisionOf(eventId) });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const now = await matchesOf(eventId, stageId);
      const expected = computeStandings({
        format,
        settings: { ...stage.settings, qualifiers: null },
        participants: participantIds.map((participantId, i) => ({ participantId, seed: i + 1 })),
        matches: now.filter((m) => m.status === 'completed').map((m) => standingsMatch({ ...m, participantAId: m.opponentA?.participantId ?? null, participantBId: m.opponentB?.participantId ?? null, scoreA: m.opponentA?.score ?? null, scoreB: m.opponentB?.score ?? null, forfeit: m.opponentA?.forfeit ? 'a' : m.opponentB?.forfeit ? 'b' : null, opponents: null, bracket: null, roundNumber: null, winnerToMatchId: null, loserToMatchId: null } as never)!),
      });
      const stored = await standingsOf(eventId, stageId);
      expect(pick(stored, 'rank', 'played', 'wins', 'draws', 'losses', 'points', 'scoreFor', 'scoreAgainst', 'tiebreakers'), `after report ${index + 1}: ${JSON.stringify(body)}`).toEqual(
        pick(expected as unknown as Row[], 'rank', 'played', 'wins', 'draws', 'losses', 'points', 'scoreFor', 'scoreAgainst', 'tiebreakers'),
      );
    }
  });
});

describe('groups', () => {
  it('each group has its table; a report moves its own group only; qualification marks every group when the stage completes', async () => {
    const { eventId, stageId } = await startedStage(server, 'round_robin', 6, { qualifiers: 1 }, [{ name: 'A' }, { name: 'B' }]);
    const { seeding } = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
    const [a, b] = seeding.groups as { groupId: string; participantIds: string[] }[];
    const all = await standingsOf(eventId, stageId);
    expect(all.map((row) => row.groupId)).toEqual([a.groupId, a.groupId, a.groupId, b.groupId, b.groupId, b.groupId]);
    expect((await standingsOf(eventId, stageId, `&groupId=${b.groupId}`)).map((row) => row.participantId)).toEqual(b.participantIds);

    const matches = await matchesOf(eventId, stageId);
    let last = 0;
    for (const group of [a, b]) {
      const [x, y, z] = group.participantIds;
      const revision = await play(eventId, matches, z, x, 2, 0);
      const moved = (await changesAt(eventId, revision)).filter((c) => c.type === 'standings.updated');
      expect(moved.map((c) => c.payload)).toEqual([expect.objectContaining({ stageId, groupId: group.groupId })]);
      await play(eventId, matches, z, y, 2, 0);
      last = await play(eventId, matches, x, y, 2, 1);
    }
    // The last report completed the stage: both groups' winners qualify, in one revision.
    const moved = (await changesAt(eventId, last)).filter((c) => c.type === 'standings.updated').map((c) => (c.payload as { groupId: string }).groupId);
    expect(moved.sort()).toEqual([a.groupId, b.groupId].sort());
    const final = await standingsOf(eventId, stageId);
    expect(final.filter((row) => row.qualified).map((row) => row.participantId)).toEqual([a.participantIds[2], b.participantIds[2]]);
  });
});

describe('elimination', () => {
  it('ranks by the round reached: semi-final losers share third unless a third-place match decides it', async () => {
    for (const thirdPlaceMatch of [false, true]) {
      const { eventId, stageId, participantIds } = await startedStage(server, 'single_elimination', 4, { thirdPlaceMatch });
      let matches = await matchesOf(eventId, stageId);
      const semis = matches.filter((m) => m.bracket === 'winners' && m.roundNumber === 1);
      for (const semi of semis) await reportOk(eventId, semi.id, { status: 'completed', scoreA: 2, scoreB: 0 });
      matches = await matchesOf(eventId, stageId);
      const final = matches.find((m) => m.bracket === 'winners' && m.roundNumber === 2)!;
      await reportOk(eventId, final.id, { status: 'completed', scoreA: 0, scoreB: 2 });
      if (thirdPlaceMatch) await reportOk(eventId, matches.find((m) => m.bracket === 'third_place')!.id, { status: 'completed', scoreA: 2, scoreB: 1 });
      const rows = await standingsOf(eventId, stageId);
      expect(rows.map((row) => row.rank)).toEqual(thirdPlaceMatch ? [1, 2, 3, 4] : [1, 2, 3, 3]);
      expect(rows[0].participantId).toBe(final.opponentB.participantId);
      expect(rows[1].participantId).toBe(final.opponentA.participantId);
      expect(rows.every((row) => Object.keys(row.tiebreakers).length === 0)).toBe(true);
      expect(new Set(rows.map((row) => row.participantId))).toEqual(new Set(participantIds));
    }
  });
});

describe('reading', () => {
  it('answers 304 to a current ETag, pages in rank order, 404 for another event or group, 400 for an unknown parameter', async () => {
    const { eventId, stageId } = await startedStage(server, 'league', 5);
    const first = await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?limit=2`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${server.url}/api/v2/events/${eventId}/stages/${stageId}/standings?limit=2`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const rest = await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    const third = await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?limit=2&cursor=${encodeURIComponent(rest.body.meta.nextCursor)}`);
    expect([...first.body.data, ...rest.body.data, ...third.body.data].map((row: Row) => row.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(third.body.meta).toEqual({ nextCursor: null, hasMore: false });

    // A result moves the revision: the old ETag no longer matches.
    const match = (await matchesOf(eventId, stageId)).find((m) => m.opponentA && m.opponentB)!;
    await reportOk(eventId, match.id, { status: 'completed', scoreA: 1, scoreB: 0 });
    const moved = await fetch(`${server.url}/api/v2/events/${eventId}/stages/${stageId}/standings?limit=2`, { headers: { authorization: 'Bearer demo-token-app', 'if-none-match': etag } });
    expect(moved.status).toBe(200);

    expectError(await api(`/api/v2/events/evt_open/stages/${stageId}/standings`), 404, 'not_found');
    expectError(await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?groupId=grp_open_a`), 404, 'not_found');
    expectError(await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?sort=rank`), 400, 'validation_failed');
    expectError(await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?cursor=nope`), 400, 'validation_failed', 'cursor');
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}/standings`, { token: null })).status).toBe(401);
  });
});

describe('stages that chain', () => {
  async function addStage(eventId: string, body: Record<string, unknown>) {
    const created = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Next', bestOf: 1, ...body }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.resourceId as string;
  }
  const startOf = async (eventId: string, stageId: string) => api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await revisionOf(eventId), key: uniqueKey() });
  const stageRead = async (eventId: string, stageId: string) => (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;

  it('the qualifiers of each group, in snake order, seed the next stage when the groups complete; corrections follow it until it starts, then may not change it', async () => {
    const { eventId, stageId } = await startedStage(server, 'round_robin', 6, { qualifiers: 2 }, [{ name: 'A' }, { name: 'B' }]);
    const playoffs = await addStage(eventId, { format: 'single_elimination', settings: { seeding: 'previous_stage' } });
    expectError(await startOf(eventId, playoffs), 409, 'conflict', 'previous_stage_not_completed');
    const [a, b] = (await stageRead(eventId, stageId)).seeding.groups as { groupId: string; participantIds: string[] }[];
    const matches = await matchesOf(eventId, stageId);
    let last = 0;
    for (const group of [a, b]) {
      const [x, y, z] = group.participantIds;
      await play(eventId, matches, z, x, 2, 0);
      await play(eventId, matches, z, y, 2, 0);
      last = await play(eventId, matches, x, y, 2, 1);
    }
    // z first and x second in each group: A1, B1, then B2, A2.
    const [xA, yA, zA] = a.participantIds;
    const [xB, , zB] = b.participantIds;
    const logged = await changesAt(eventId, last);
    expect(logged.map((c) => c.type)).toEqual(['match.updated', 'standings.updated', 'standings.updated', 'stage.completed', 'stage.seeded']);
    expect(logged.at(-1)!.payload).toMatchObject({ stageId: playoffs, participantIds: [zA, zB, xB, xA], groups: null, previousStageId: stageId });
    expect((await stageRead(eventId, playoffs)).seeding).toEqual({ method: 'previous_stage', randomSeed: null, participantIds: [zA, zB, xB, xA], groups: null });
    // The group stage is over, the playoffs are still to come: the event stays live.
    expect((await api(`/api/v2/events/${eventId}`)).body.data.state).toBe('live');

    // y beats x after all: A2 is y now, and the next stage's seeding follows in the same revision.
    const corrected = await play(eventId, matches, xA, yA, 0, 2);
    const types = (await changesAt(eventId, corrected)).map((c) => c.type);
    expect(types).toEqual(['match.updated', 'standings.updated', 'stage.seeded']);
    expect((await stageRead(eventId, playoffs)).seeding.participantIds).toEqual([zA, zB, xB, yA]);

    const started = await startOf(eventId, playoffs);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const frozen = await stageRead(eventId, playoffs);
    expect(frozen.seeding).toEqual({ method: 'previous_stage', randomSeed: null, participantIds: [zA, zB, xB, yA], groups: null });
    const semis = (await matchesOf(eventId, playoffs)).filter((m) => m.roundNumber === 1).map((m) => [m.opponentA.participantId, m.opponentB.participantId]);
    expect(semis).toEqual([[zA, yA], [zB, xB]]);

    // Now started: a correction that would change the qualifiers is refused; one that does not is taken.
    const refused = await api(`/api/v2/events/${eventId}/matches/${matches.find((m) => [m.opponentA.participantId, m.opponentB.participantId].sort().join() === [xA, yA].sort().join())!.id}`, {
      method: 'PATCH',
      body: { scoreA: 2, scoreB: 0 },
      ifMatch: await revisionOf(eventId),
    });
    expectError(refused, 409, 'conflict', 'next_stage_started');
    await play(eventId, matches, zA, xA, 2, 1);
    // A participant's status changed since the start does not make every later correction look like a change.
    const withdrawn = await api(`/api/v2/events/${eventId}/participants/${zB}`, { method: 'PATCH', body: { action: 'status', status: 'withdrawn' }, ifMatch: await revisionOf(eventId) });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    await play(eventId, matches, zA, xA, 2, 0);
    const adjustment = await api(`/api/v2/events/${eventId}/standing-adjustments`, { method: 'POST', body: { participantId: xA, stageId, points: 10 }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expectError(adjustment, 409, 'conflict', 'next_stage_started');
  });

  it('a stage without groups passes its ranking; a qualifier withdrawn since is left out at the start', async () => {
    const { eventId, stageId, participantIds } = await startedStage(server, 'single_elimination', 4, { qualifiers: 3, thirdPlaceMatch: true });
    const next = await addStage(eventId, { format: 'round_robin', settings: { seeding: 'previous_stage' } });
    let matches = await matchesOf(eventId, stageId);
    for (const semi of matches.filter((m) => m.roundNumber === 1 && m.bracket === 'winners')) await reportOk(eventId, semi.id, { status: 'completed', scoreA: 1, scoreB: 0 });
    matches = await matchesOf(eventId, stageId);
    const final = matches.find((m) => m.bracket === 'winners' && m.roundNumber === 2)!;
    const third = matches.find((m) => m.bracket === 'third_place')!;
    await reportOk(eventId, third.id, { status: 'completed', scoreA: 1, scoreB: 0 });
    await reportOk(eventId, final.id, { status: 'completed', scoreA: 1, scoreB: 0 });
    const ranking = (await standingsOf(eventId, stageId)).map((row) => row.participantId);
    expect(ranking).toEqual([final.opponentA.participantId, final.opponentB.participantId, third.opponentA.participantId, third.opponentB.participantId]);
    expect((await stageRead(eventId, next)).seeding.participantIds).toEqual(ranking.slice(0, 3));
    expect(new Set(ranking)).toEqual(new Set(participantIds));

    // A withdrawn qualifier is left out at the start (and from the seeding shown, once the table moves again).
    const withdrawn = ranking[1];
    const withdraw = await api(`/api/v2/events/${eventId}/participants/${withdrawn}`, { method: 'PATCH', body: { action: 'status', status: 'withdrawn' }, ifMatch: await revisionOf(eventId) });
    expect(withdraw.status, JSON.stringify(withdraw.body)).toBe(200);
    const adjusted = await api(`/api/v2/events/${eventId}/standing-adjustments`, { method: 'POST', body: { participantId: ranking[3], stageId, points: 1 }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
    expect((await stageRead(eventId, next)).seeding.participantIds).toEqual([ranking[0], ranking[2]]);
    const started = await startOf(eventId, next);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await stageRead(eventId, next)).seeding.participantIds).toEqual([ranking[0], ranking[2]]);
  });
});
