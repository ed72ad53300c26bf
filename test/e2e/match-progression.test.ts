// Results drive the bracket, end to end: a match report of a generated stage moves its winner and
// loser on in the same transaction and revision (one match.updated per match touched), refuses
// draws where a winner is needed, takes forfeits and free-for-all placements, plays or cancels the
// grand-final reset, and corrects a result while nothing it fed has started (else 409
// downstream_started); concurrent reports stay exact through If-Match.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_TYPES } from '../../platform/domain/change-catalogue.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, expectError, uniqueKey } from '../support/api.ts';
import { createEventWithParticipants } from '../support/stage-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Match = Record<string, any>;
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;

/** A started stage of `count` new participants (seeded in registration order). */
async function startedStage(format: string, count: number, settings: Record<string, unknown> = {}) {
  const { eventId, participantIds } = await createEventWithParticipants(server, count);
  const created = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Stage', bestOf: 3, format, settings }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const stageId = created.body.data.resourceId as string;
  const started = await api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await revisionOf(eventId), key: uniqueKey() });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return { eventId, stageId, participantIds };
}

async function matchesOf(eventId: string, stageId: string): Promise<Match[]> {
  const response = await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100`);
  expect(response.status).toBe(200);
  return response.body.data;
}
const find = (matches: Match[], bracket: string | null, round: number, position = 1) =>
  matches.find((m) => m.bracket === bracket && m.roundNumber === round && m.position === position)!;
const sideOf = (m: Match, slot: 'a' | 'b') => (slot === 'a' ? m.opponentA : m.opponentB)?.participantId ?? null;

async function report(eventId: string, matchId: string, body: Record<string, unknown>, ifMatch?: number) {
  return api(`/api/v2/events/${eventId}/matches/${matchId}`, { method: 'PATCH', body, ifMatch: ifMatch ?? (await revisionOf(eventId)) });
}
async function reportOk(eventId: string, matchId: string, body: Record<string, unknown>) {
  const response = await report(eventId, matchId, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.revision as number;
}
const aWins = { status: 'completed', scoreA: 2, scoreB: 0 };
const bWins = { status: 'completed', scoreA: 0, scoreB: 2 };

describe('single elimination', () => {
  it('a result moves the winner and the loser on in the same revision, one match.updated per match touched', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 4, { thirdPlaceMatch: true });
    let matches = await matchesOf(eventId, stageId);
    const semi = find(matches, 'winners', 1, 1);
    const revision = await reportOk(eventId, semi.id, bWins);
    matches = await matchesOf(eventId, stageId);
    const final = find(matches, 'winners', 2);
    const third = find(matches, 'third_place', 1);
    expect(sideOf(final, 'a')).toBe(sideOf(semi, 'b'));
    expect(sideOf(third, 'a')).toBe(sideOf(semi, 'a'));
    const logged = await server.db.prisma.changeLog.findMany({ where: { eventId, revision }, orderBy: { sequence: 'asc' } });
    // The event's first result also took it live (tested below).
    expect(logged.map((c) => c.type).filter((type) => type !== 'match.updated')).toEqual(['standings.updated', 'event.updated']);
    const changes = logged.filter((c) => c.type === 'match.updated');
    expect(changes[0].resourceId).toBe(semi.id);
    expect(changes.slice(1).map((c) => c.resourceId).sort()).toEqual([final.id, third.id].sort());
    const finalChange = changes.find((c) => c.resourceId === final.id)!.payload as Record<string, unknown>;
    expect(finalChange).toMatchObject({ matchId: final.id, status: 'scheduled', previousStatus: 'scheduled', participantAId: sideOf(semi, 'b'), participantBId: null, reportedMatchId: semi.id });

    // The final cannot be completed before its other side is known.
    expectError(await report(eventId, final.id, aWins), 409, 'conflict', 'opponents_missing');
  });

  it('refuses a draw naming the score, takes a forfeit whatever the scores', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 4);
    const semi = find(await matchesOf(eventId, stageId), 'winners', 1, 2);
    expectError(await report(eventId, semi.id, { status: 'completed', scoreA: 1, scoreB: 1 }), 400, 'validation_failed', 'scoreB');
    expectError(await report(eventId, semi.id, { status: 'live', forfeit: 'a' }), 400, 'validation_failed', 'forfeit');
    await reportOk(eventId, semi.id, { forfeit: 'a' });
    const matches = await matchesOf(eventId, stageId);
    const done = matches.find((m) => m.id === semi.id)!;
    expect(done).toMatchObject({ status: 'completed', opponentA: { result: 'loss', forfeit: true }, opponentB: { result: 'win', forfeit: false } });
    expect(sideOf(find(matches, 'winners', 2), 'b')).toBe(sideOf(semi, 'b'));
  });

  it('a correction resets what the old result fed; refused with downstream_started once a fed match is live', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 8);
    let matches = await matchesOf(eventId, stageId);
    const [qf1, qf2] = [find(matches, 'winners', 1, 1), find(matches, 'winners', 1, 2)];
    await reportOk(eventId, qf1.id, aWins);
    await reportOk(eventId, qf2.id, aWins);
    const semi = find(await matchesOf(eventId, stageId), 'winners', 2, 1);
    await reportOk(eventId, semi.id, { scoreA: 1, scoreB: 0 });

    // Same winner, other scores: nothing else moves in the bracket; the standings take the scores.
    const sameWinner = await reportOk(eventId, qf1.id, { scoreA: 2, scoreB: 1 });
    expect((await server.db.prisma.changeLog.findMany({ where: { eventId, revision: sameWinner }, orderBy: { sequence: 'asc' } })).map((c) => c.type)).toEqual(['match.updated', 'standings.updated']);
    expect(find(await matchesOf(eventId, stageId), 'winners', 2, 1).opponentA.score).toBe(1);

    // Another winner: the semi-final gets the new one, and loses its scores.
    await reportOk(eventId, qf1.id, { scoreA: 0, scoreB: 2 });
    matches = await matchesOf(eventId, stageId);
    expect(find(matches, 'winners', 2, 1)).toMatchObject({ status: 'scheduled', opponentA: { participantId: sideOf(qf1, 'b'), score: null }, opponentB: { participantId: sideOf(qf2, 'a'), score: null } });

    await reportOk(eventId, semi.id, { status: 'live' });
    const refused = await report(eventId, qf1.id, { scoreA: 2, scoreB: 0 });
    expectError(refused, 409, 'conflict', 'downstream_started');
    expect(refused.body.error.details[0].matchId).toBe(semi.id);
    expect(refused.body.error.message).toContain(semi.id);
  });

  it('concurrent reports on both sides of the bracket: one If-Match wins, the other answers 412; fresh revisions apply both', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 8);
    let matches = await matchesOf(eventId, stageId);
    for (const position of [1, 2, 3, 4]) await reportOk(eventId, find(matches, 'winners', 1, position).id, aWins);
    matches = await matchesOf(eventId, stageId);
    const [semi1, semi2] = [find(matches, 'winners', 2, 1), find(matches, 'winners', 2, 2)];
    const revision = await revisionOf(eventId);
    const answers = await Promise.all([report(eventId, semi1.id, aWins, revision), report(eventId, semi2.id, bWins, revision)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    expect(await revisionOf(eventId)).toBe(revision + 1);
    const lost = answers.findIndex((a) => a.status === 412);
    await reportOk(eventId, [semi1, semi2][lost].id, [aWins, bWins][lost]);
    const final = find(await matchesOf(eventId, stageId), 'winners', 3);
    expect([sideOf(final, 'a'), sideOf(final, 'b')]).toEqual([sideOf(semi1, 'a'), sideOf(semi2, 'b')]);
    expect(await revisionOf(eventId)).toBe(revision + 2);
  });
});

describe('double elimination', () => {
  /** Plays every match but the grand finals with slot a winning. */
  async function toGrandFinal(eventId: string, stageId: string) {
    for (;;) {
      const next = (await matchesOf(eventId, stageId)).find((m) => m.status === 'scheduled' && !m.isFreeWin && m.opponentA && m.opponentB && m.bracket !== 'grand_final');
      if (!next) return;
      await reportOk(eventId, next.id, aWins);
    }
  }

  it('a losers-bracket bye is completed when its participant arrives', async () => {
    const { eventId, stageId } = await startedStage('double_elimination', 3);
    const waiting = (await matchesOf(eventId, stageId)).find((m) => m.bracket === 'losers' && m.isFreeWin && m.status === 'scheduled')!;
    expect(waiting).toBeTruthy();
    await toGrandFinal(eventId, stageId);
    const matches = await matchesOf(eventId, stageId);
    expect(matches.find((m) => m.id === waiting.id)!.status).toBe('completed');
    const gf = find(matches, 'grand_final', 1);
    expect(gf.opponentA && gf.opponentB).toBeTruthy();
  });

  it('grand final reset: cancelled when the winners-bracket champion wins the first, played after a correction', async () => {
    const { eventId, stageId } = await startedStage('double_elimination', 4, { grandFinal: 'double' });
    await toGrandFinal(eventId, stageId);
    let matches = await matchesOf(eventId, stageId);
    const gf = find(matches, 'grand_final', 1);
    await reportOk(eventId, gf.id, aWins);
    matches = await matchesOf(eventId, stageId);
    expect(find(matches, 'grand_final', 2)).toMatchObject({ status: 'cancelled', opponentA: null, opponentB: null });
    await reportOk(eventId, gf.id, bWins);
    matches = await matchesOf(eventId, stageId);
    const reset = find(matches, 'grand_final', 2);
    expect(reset.status).toBe('scheduled');
    expect([sideOf(reset, 'a'), sideOf(reset, 'b')]).toEqual([sideOf(gf, 'a'), sideOf(gf, 'b')]);
    await reportOk(eventId, reset.id, aWins);
    expectError(await report(eventId, gf.id, aWins), 409, 'conflict', 'downstream_started');
  });
});

describe('other formats', () => {
  it('round robin takes a draw', async () => {
    const { eventId, stageId } = await startedStage('round_robin', 4);
    const match = (await matchesOf(eventId, stageId))[0];
    await reportOk(eventId, match.id, { status: 'completed', scoreA: 1, scoreB: 1 });
  });

  it('free-for-all placements complete the match and give each opponent the points of its place', async () => {
    const { eventId, stageId } = await startedStage('ffa', 4, { pointsByPlace: [10, 6, 3] });
    const match = (await matchesOf(eventId, stageId))[0];
    const [p1, p2, p3, p4] = match.opponents.map((o: { participantId: string }) => o.participantId);
    expectError(await report(eventId, match.id, { placements: [{ participantId: p1, place: 1 }] }), 400, 'validation_failed', 'placements');
    expectError(await report(eventId, match.id, { status: 'completed' }), 400, 'validation_failed', 'placements');
    expectError(await report(eventId, match.id, { scoreA: 1 }), 400, 'validation_failed', 'scoreA');
    const placements = [
      { participantId: p3, place: 1 },
      { participantId: p1, place: 2 },
      { participantId: p2, place: 2 },
      { participantId: p4, place: 4 },
    ];
    const revision = await reportOk(eventId, match.id, { placements });
    const read = (await matchesOf(eventId, stageId)).find((m) => m.id === match.id)!;
    expect(read.status).toBe('completed');
    expect(read.opponents).toEqual([
      { participantId: p1, place: 2, points: 6 },
      { participantId: p2, place: 2, points: 6 },
      { participantId: p3, place: 1, points: 10 },
      { participantId: p4, place: 4, points: 0 },
    ]);
    const change = await server.db.prisma.changeLog.findFirstOrThrow({ where: { eventId, revision } });
    expect((change.payload as { opponents: unknown }).opponents).toEqual(read.opponents);
  });
});

describe('the change log', () => {
  it('every match.updated these reports wrote is what the webhook catalogue describes', async () => {
    const schema = CHANGE_TYPES.find((type) => type.name === 'match.updated')!.details;
    const valid = new Ajv2020({ strict: false }).compile(schema);
    const changes = await server.db.prisma.changeLog.findMany({ where: { type: 'match.updated', eventId: { startsWith: 'evt_gen_' } } });
    expect(changes.length).toBeGreaterThan(20);
    for (const change of changes) {
      // Webhooks deliver the payload without the envelope's eventId and revision (subgraphs/workers/webhook-fanout.ts).
      const { eventId: _eventId, revision: _revision, ...details } = change.payload as Record<string, unknown>;
      expect(valid(details), `${JSON.stringify(details)}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
  });
});

describe('the stage and the event follow their matches', () => {
  it('the event goes live at its first result; the stage completes with its last match, and the event with its last stage', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 4);
    expect((await api(`/api/v2/events/${eventId}`)).body.data.state).toBe('scheduled');
    let matches = await matchesOf(eventId, stageId);
    const live = await reportOk(eventId, find(matches, 'winners', 1, 1).id, { status: 'live' });
    expect((await api(`/api/v2/events/${eventId}`)).body.data.state).toBe('live');
    const wentLive = await server.db.prisma.changeLog.findMany({ where: { eventId, revision: live, type: 'event.updated' } });
    expect(wentLive.map((c) => c.payload)).toEqual([expect.objectContaining({ fields: ['state'], state: 'live', previousState: 'scheduled' })]);

    await reportOk(eventId, find(matches, 'winners', 1, 1).id, aWins);
    await reportOk(eventId, find(matches, 'winners', 1, 2).id, aWins);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.status).toBe('running');
    matches = await matchesOf(eventId, stageId);
    const last = await reportOk(eventId, find(matches, 'winners', 2).id, bWins);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.status).toBe('completed');
    expect((await api(`/api/v2/events/${eventId}`)).body.data.state).toBe('completed');
    const closing = await server.db.prisma.changeLog.findMany({ where: { eventId, revision: last }, orderBy: { sequence: 'asc' } });
    expect(closing.map((c) => c.type)).toEqual(['match.updated', 'standings.updated', 'stage.completed', 'event.updated']);

    // A completed event still takes a correction of a completed match (a mistyped final score)...
    await reportOk(eventId, find(matches, 'winners', 2).id, { scoreA: 1, scoreB: 2 });
    // ...but nothing else: its structure is closed.
    const more = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Late', bestOf: 1, format: 'league' }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expectError(more, 409, 'conflict', 'event_closed');
  });

  it('a swiss round completed pairs the next (no rematch, by score), the stage completes after its last round; another stage keeps the event live', async () => {
    const { eventId, stageId } = await startedStage('swiss', 4, { rounds: 2 });
    const later = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Later', bestOf: 1, format: 'league' }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expect(later.status).toBe(201);
    for (const m of await matchesOf(eventId, stageId)) await reportOk(eventId, m.id, aWins);
    // Round 1 is over: round 2 was paired by its last report, winners against winners, and the stage runs on.
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.status).toBe('running');
    let matches = await matchesOf(eventId, stageId);
    const round1 = matches.filter((m) => m.roundNumber === 1);
    const round2 = matches.filter((m) => m.roundNumber === 2);
    expect(round2).toHaveLength(2);
    const winners = new Set(round1.map((m) => sideOf(m, 'a')));
    expect(round2.map((m) => [sideOf(m, 'a'), sideOf(m, 'b')].every((id) => winners.has(id))).filter(Boolean)).toHaveLength(1);
    const met = new Set(round1.map((m) => [sideOf(m, 'a'), sideOf(m, 'b')].sort().join()));
    for (const m of round2) expect(met.has([sideOf(m, 'a'), sideOf(m, 'b')].sort().join())).toBe(false);
    const paired = await server.db.prisma.changeLog.findMany({ where: { eventId, type: 'stage.round_paired' } });
    expect(paired.map((c) => c.payload)).toEqual([expect.objectContaining({ stageId, groupId: null, roundNumber: 2, matchCount: 2 })]);
    // The last round over, the stage completes (its event has another stage to play).
    for (const m of round2) await reportOk(eventId, m.id, bWins);
    matches = await matchesOf(eventId, stageId);
    expect(matches).toHaveLength(4);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.status).toBe('completed');
    expect((await api(`/api/v2/events/${eventId}`)).body.data.state).toBe('live');

    const { eventId: other, stageId: league } = await startedStage('league', 3);
    const second = await api(`/api/v2/events/${other}/stages`, { method: 'POST', body: { name: 'Playoffs', bestOf: 1, format: 'single_elimination' }, ifMatch: await revisionOf(other), key: uniqueKey() });
    expect(second.status).toBe(201);
    for (const m of await matchesOf(other, league)) await reportOk(other, m.id, { status: 'completed', scoreA: 1, scoreB: 1 });
    expect((await api(`/api/v2/events/${other}/stages/${league}`)).body.data.status).toBe('completed');
    expect((await api(`/api/v2/events/${other}`)).body.data.state).toBe('live');
  });
});

describe('swiss groups', () => {
  it('each group pairs its next round when its own round is over', async () => {
    const { eventId, participantIds } = await createEventWithParticipants(server, 8);
    const created = await api(`/api/v2/events/${eventId}/stages`, {
      method: 'POST',
      body: { name: 'Swiss', bestOf: 1, format: 'swiss', settings: { rounds: 2 }, groups: [{ name: 'A' }, { name: 'B' }] },
      ifMatch: await revisionOf(eventId),
      key: uniqueKey(),
    });
    const stageId = created.body.data.resourceId as string;
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await revisionOf(eventId), key: uniqueKey() })).status).toBe(200);
    const { seeding } = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
    const [a, b] = seeding.groups as { groupId: string; participantIds: string[] }[];
    expect(participantIds.length).toBe(8);
    for (const m of (await matchesOf(eventId, stageId)).filter((m) => m.groupId === a.groupId)) await reportOk(eventId, m.id, aWins);
    const matches = await matchesOf(eventId, stageId);
    const round2 = matches.filter((m) => m.roundNumber === 2);
    expect(round2.map((m) => m.groupId)).toEqual([a.groupId, a.groupId]);
    for (const m of round2) expect(a.participantIds).toEqual(expect.arrayContaining([sideOf(m, 'a'), sideOf(m, 'b')]));
    expect(matches.filter((m) => m.groupId === b.groupId && m.roundNumber === 1)).toHaveLength(2);
  });
});

describe('bracket matches are decided, not cancelled', () => {
  it('refuses cancelling a match that feeds or is fed (report a forfeit), and a live match with one side', async () => {
    const { eventId, stageId } = await startedStage('single_elimination', 4);
    const matches = await matchesOf(eventId, stageId);
    const [semi, final] = [find(matches, 'winners', 1, 1), find(matches, 'winners', 2)];
    expectError(await report(eventId, semi.id, { status: 'cancelled' }), 409, 'conflict', 'bracket_match_not_cancellable');
    expectError(await report(eventId, final.id, { status: 'cancelled' }), 409, 'conflict', 'bracket_match_not_cancellable');
    await reportOk(eventId, semi.id, aWins);
    expectError(await report(eventId, final.id, { status: 'live' }), 409, 'conflict', 'opponents_missing');
  });
});
