// Stage settings, seeding and start end to end: each format generated through REST and stored as the
// engine generates it, read the same through v2, v1 and GraphQL; preconditions, idempotency,
// concurrency, authority and a short flood.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { createEventWithParticipants } from '../support/stage-fixtures.ts';
import { generateStage, resolvedSettings, shuffleWithSeed, type StageFormat } from '../../subgraphs/competitions/tournament/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;

async function createStage(eventId: string, body: Record<string, unknown>) {
  const response = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Stage', bestOf: 1, ...body }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.resourceId as string;
}

async function start(eventId: string, stageId: string, key = uniqueKey()) {
  return api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await revisionOf(eventId), key });
}

async function allMatches(eventId: string, stageId: string, limit = 100) {
  const matches: Record<string, any>[] = [];
  let cursor: string | null = null;
  do {
    const response = await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    matches.push(...response.body.data);
    cursor = response.body.meta.nextCursor;
  } while (cursor);
  return matches;
}

function expectError(response: Awaited<ReturnType<typeof call>>, status: number, code: string, issueOrField?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  if (issueOrField) expect(response.body.error.details.flatMap((d: { field?: string; issue: string }) => [d.field, d.issue])).toContain(issueOrField);
}

const BRACKETS = ['winners', 'losers', 'grand_final', 'third_place'];
const orderKey = (m: Record<string, any>) => [m.bracket ? BRACKETS.indexOf(m.bracket) + 1 : 0, m.roundNumber ?? 0, m.position ?? 0];
const before = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return true;
};

const FORMATS: [StageFormat, number, Record<string, unknown>][] = [
  ['single_elimination', 6, { thirdPlaceMatch: true }],
  ['double_elimination', 6, { grandFinal: 'double' }],
  ['round_robin', 5, { legs: 1 }],
  ['swiss', 8, { rounds: 3 }],
  ['league', 4, { legs: 2 }],
  ['ffa', 7, { participantsPerMatch: 3 }],
];

describe('starting each format', () => {
  it.each(FORMATS)('%s over %i participants: the engine structure, stored and read alike through v2, v1 and GraphQL', async (format, count, settings) => {
    const { eventId, participantIds } = await createEventWithParticipants(server, count);
    const stageId = await createStage(eventId, { format, settings });
    const revision = await revisionOf(eventId);
    const started = await start(eventId, stageId);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toEqual({ resourceId: stageId, revision: revision + 1, updated: true });
    expect(await revisionOf(eventId)).toBe(revision + 1);

    const expected = generateStage({ format, settings: resolvedSettings(format, settings, count), participants: participantIds });
    const matches = await allMatches(eventId, stageId, 7);
    expect(matches).toHaveLength(expected.matches.length);
    const rounds = await server.db.prisma.round.findMany({ where: { stageId } });
    expect(rounds).toHaveLength(expected.rounds.length);
    expect(rounds.map((r) => r.name).sort()).toEqual(expected.rounds.map((r) => r.name).sort());
    const v1Rounds = await fetch(`${server.url}/api/v1/events/${eventId}/rounds?stageId=${stageId}&limit=100`, { headers: { 'x-api-key': 'demo-org-key-0001' } }).then((r) => r.json());
    expect(v1Rounds.data.map((r: { bracket: string | null; number: number; name: string }) => `${r.bracket}|${r.number}|${r.name}`).sort()).toEqual(
      expected.rounds.filter((r) => r.groupKey === null).map((r) => `${r.bracket}|${r.number}|${r.name}`).sort(),
    );

    // Bracket order, and each generated match in the same place as the engine's.
    for (let i = 1; i < matches.length; i++) expect(before(orderKey(matches[i - 1]), orderKey(matches[i]))).toBe(true);
    const ids = new Set(matches.map((m) => m.id));
    const byPlace = new Map(matches.map((m) => [`${m.bracket}|${m.roundNumber}|${m.position}|${m.groupId}`, m]));
    for (const e of expected.matches) {
      const m = byPlace.get(`${e.bracket}|${e.roundNumber}|${e.position}|${e.groupKey}`)!;
      expect(m, e.key).toBeDefined();
      expect(m.status).toBe(e.status);
      expect(m.isFreeWin).toBe(e.isFreeWin);
      if (e.kind === 'duel') {
        expect(m.opponentA?.participantId ?? null).toBe(e.participantA);
        expect(m.opponentB?.participantId ?? null).toBe(e.participantB);
        expect(m.winnerTo === null).toBe(e.winnerTo === null);
        expect(m.loserTo === null).toBe(e.loserTo === null);
        for (const link of [m.winnerTo, m.loserTo]) if (link) expect(ids.has(link.matchId) && ['a', 'b'].includes(link.slot)).toBe(true);
        for (const [source, engine] of [[m.sourceA, e.sourceA], [m.sourceB, e.sourceB]] as const) {
          if (engine === null) expect(source).toBeNull();
          else if (engine.type === 'seed') expect(source).toEqual({ type: 'seed', seed: engine.seed });
          else {
            expect(source.type).toBe(engine.type);
            expect(ids.has(source.matchId)).toBe(true);
          }
        }
      } else {
        expect(m.opponents.map((o: { participantId: string }) => o.participantId)).toEqual(e.opponents);
      }
      // Byes are completed free wins, their winner already in the next match.
      if (e.isFreeWin && e.winner && m.winnerTo) {
        const next = matches.find((x) => x.id === m.winnerTo.matchId)!;
        expect(next[m.winnerTo.slot === 'a' ? 'opponentA' : 'opponentB'].participantId).toBe(e.winner);
      }
    }

    // The stage reads running with its resolved settings and frozen seeding.
    const stage = await api(`/api/v2/events/${eventId}/stages/${stageId}`);
    expect(stage.body.data).toMatchObject({ status: 'running', settings: { seeding: 'registration', ...settings }, seeding: { method: 'registration', randomSeed: null, participantIds } });

    // The standings exist from the start: a row per participant with its seed, byes already counted.
    const standings = (await api(`/api/v2/events/${eventId}/stages/${stageId}/standings?limit=100`)).body.data as { participantId: string; seed: number; played: number; wins: number }[];
    expect(standings.map((row) => row.participantId).sort()).toEqual([...participantIds].sort());
    for (const row of standings) expect(row.seed).toBe(participantIds.indexOf(row.participantId) + 1);
    const byes = expected.matches.filter((m) => m.status === 'completed' && m.winner !== null).map((m) => m.winner);
    expect(standings.filter((row) => row.played > 0).map((row) => row.participantId).sort()).toEqual([...byes].sort());
    expect(standings.every((row) => row.wins === row.played)).toBe(true);

    // v1 and GraphQL read the same fields.
    const sample = matches.find((m) => m.winnerTo) ?? matches[0];
    const v1 = await fetch(`${server.url}/api/v1/events/${eventId}/matches/${sample.id}`, { headers: { 'x-api-key': 'demo-org-key-0001' } }).then((r) => r.json());
    const fields = ['roundNumber', 'position', 'bracket', 'winnerTo', 'loserTo', 'sourceA', 'sourceB', 'opponents'];
    for (const field of fields) expect(v1.data[field], field).toEqual(sample[field]);
    const graphql = await api('/graphql', {
      method: 'POST',
      body: { query: `query($e: ID!, $m: ID!) { event(id: $e) { match(id: $m) { roundNumber position bracket winnerTo { matchId slot } loserTo { matchId slot } sourceA { ...source } sourceB { ...source } } } } fragment source on SlotSource { ... on SeedSource { type seed } ... on MatchSource { type matchId } }`, variables: { e: eventId, m: sample.id } },
    });
    const g = graphql.body.data.event.match;
    const strip = (s: Record<string, unknown> | null) => (s ? Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null)) : null);
    expect({ ...g, sourceA: strip(g.sourceA), sourceB: strip(g.sourceB) }).toEqual(Object.fromEntries(fields.slice(0, 7).map((f) => [f, sample[f]])));

    // A participant placed in a generated match can no longer be removed (ffa places them in opponents).
    const deleted = await api(`/api/v2/events/${eventId}/participants/${participantIds[0]}`, { method: 'DELETE', ifMatch: await revisionOf(eventId) });
    expectError(deleted, 409, 'conflict', 'placed_in_matches');
    const log = await server.db.prisma.changeLog.findMany({ where: { eventId, revision: revision + 1 } });
    // Change log: one stage.started at the one new revision, whatever the number of matches, and
    // the standings it created.
    expect(log.map((row) => row.type)).toEqual(['stage.started', 'standings.updated']);
    expect(log[0].payload).toMatchObject({ stageId, roundCount: expected.rounds.length, matchCount: expected.matches.length });
  });
});

describe('settings', () => {
  it('are validated per format (400 naming the setting) and read back resolved', async () => {
    const { eventId } = await createEventWithParticipants(server, 2);
    const refused = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'RR', format: 'round_robin', bestOf: 1, settings: { grandFinal: 'double' } }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expectError(refused, 400, 'validation_failed', 'settings.grandFinal');
    expectError(
      await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'SE', format: 'single_elimination', bestOf: 1, settings: { thirdPlaceMatch: 'yes' } }, ifMatch: await revisionOf(eventId), key: uniqueKey() }),
      400,
      'validation_failed',
      'settings.thirdPlaceMatch',
    );
    const stageId = await createStage(eventId, { format: 'swiss' });
    const stage = await api(`/api/v2/events/${eventId}/stages/${stageId}`);
    expect(stage.body.data.settings).toEqual({ seeding: 'registration', qualifiers: null, thirdPlaceMatch: null, grandFinal: null, legs: null, rounds: null, points: { win: 3, draw: 1, loss: 0 }, tiebreakers: ['points', 'buchholz', 'head_to_head', 'score_difference', 'seed'], participantsPerMatch: null, pointsByPlace: null });
    expect(stage.body.data.seeding).toBeNull();
    const etag = stage.headers.get('etag')!;
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const v1 = await fetch(`${server.url}/api/v1/events/${eventId}/stages/${stageId}`, { headers: { 'x-api-key': 'demo-org-key-0001' } }).then((r) => r.json());
    expect(v1.data).toEqual(stage.body.data);
    // Once started, swiss rounds left to the default read ⌈log2 N⌉ for the participants that started.
    expect((await start(eventId, stageId)).status).toBe(200);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.settings.rounds).toBe(1);
  });
});

describe('seeding', () => {
  it('a manual order is honoured at start, a wrong set is 400, and after start 409', async () => {
    const { eventId, participantIds } = await createEventWithParticipants(server, 4, { statuses: { 3: 'withdrawn' } });
    const eligible = participantIds.slice(0, 3);
    const stageId = await createStage(eventId, { format: 'single_elimination' });
    const seed = async (body: unknown) => api(`/api/v2/events/${eventId}/stages/${stageId}/seeding`, { method: 'PUT', body, ifMatch: await revisionOf(eventId) });
    expectError(await seed({ participantIds }), 400, 'validation_failed', 'participantIds');
    expectError(await seed({ participantIds: eligible.slice(0, 2) }), 400, 'validation_failed', 'participantIds');
    expectError(await seed({ participantIds: [eligible[0], eligible[0], eligible[1]] }), 400, 'validation_failed', 'participantIds');
    expectError(await seed({ groups: { x: eligible } }), 400, 'validation_failed', 'groups');
    const order = [eligible[2], eligible[0], eligible[1]];
    const seeded = await seed({ participantIds: order });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
    expect(seeded.body.data.updated).toBe(true);
    expect((await server.db.prisma.changeLog.findFirstOrThrow({ where: { eventId, type: 'stage.seeded' } })).resourceId).toBe(stageId);
    // The same order again changes nothing.
    expect((await seed({ participantIds: order })).body.data.updated).toBe(false);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data).toMatchObject({ settings: { seeding: 'manual' }, seeding: { method: 'manual', participantIds: order } });

    expect((await start(eventId, stageId)).status).toBe(200);
    const matches = await allMatches(eventId, stageId);
    // Seed 1 (eligible[2]) has the bye in a bracket of 3 and waits in the final.
    const final = matches.find((m) => m.roundNumber === 2)!;
    expect([final.opponentA?.participantId, final.opponentB?.participantId]).toContain(eligible[2]);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data.seeding).toEqual({ method: 'manual', randomSeed: null, participantIds: order, groups: null });
    expectError(await seed({ participantIds: order }), 409, 'conflict', 'stage_started');
  });

  it('groups: manual seeding by groups is honoured; registration seeding follows the groups participants chose', async () => {
    const { eventId, participantIds } = await createEventWithParticipants(server, 6);
    const stageId = await createStage(eventId, { format: 'round_robin', groups: [{ name: 'A' }, { name: 'B' }] });
    const groups = await server.db.prisma.group.findMany({ where: { stageId }, orderBy: { position: 'asc' } });
    const body = { groups: { [groups[0].id]: [participantIds[5], participantIds[0], participantIds[1]], [groups[1].id]: [participantIds[2], participantIds[3], participantIds[4]] } };
    const seeded = await api(`/api/v2/events/${eventId}/stages/${stageId}/seeding`, { method: 'PUT', body, ifMatch: await revisionOf(eventId) });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
    expect((await start(eventId, stageId)).status).toBe(200);
    const matches = await allMatches(eventId, stageId);
    expect(matches).toHaveLength(6);
    const inA = new Set(matches.filter((m) => m.groupId === groups[0].id).flatMap((m) => [m.opponentA?.participantId, m.opponentB?.participantId]).filter(Boolean));
    expect([...inA].sort()).toEqual([participantIds[0], participantIds[1], participantIds[5]].sort());
    // Bracket order puts round 1 of every group before round 2.
    expect(matches.map((m) => m.roundNumber)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('groups of a swiss and an ffa stage are played separately; a league refuses groups', async () => {
    const { eventId } = await createEventWithParticipants(server, 8);
    for (const [format, settings] of [['swiss', {}], ['ffa', { participantsPerMatch: 2 }]] as const) {
      const stageId = await createStage(eventId, { format, settings, groups: [{ name: 'A' }, { name: 'B' }] });
      expect((await start(eventId, stageId)).status).toBe(200);
      const { seeding, settings: resolved } = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
      expect(seeding.groups.map((group: { participantIds: string[] }) => group.participantIds.length)).toEqual([4, 4]);
      const matches = await allMatches(eventId, stageId);
      for (const group of seeding.groups as { groupId: string; participantIds: string[] }[]) {
        const mine = matches.filter((m) => m.groupId === group.groupId);
        const players = mine.flatMap((m) => (m.opponents ? m.opponents.map((o: { participantId: string }) => o.participantId) : [m.opponentA?.participantId, m.opponentB?.participantId]));
        expect(players.sort()).toEqual([...group.participantIds].sort());
      }
      // Swiss rounds default to the size of a group (4 → 2 rounds), not of the stage.
      if (format === 'swiss') expect(resolved.rounds).toBe(2);
    }
    const refused = await api(`/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'L', bestOf: 1, format: 'league', groups: [{ name: 'A' }] }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
    expectError(refused, 400, 'validation_failed', 'groups');
  });

  it('random: the recorded seed reproduces the order', async () => {
    const { eventId, participantIds } = await createEventWithParticipants(server, 8);
    const stageId = await createStage(eventId, { format: 'single_elimination', settings: { seeding: 'random' } });
    expect((await start(eventId, stageId)).status).toBe(200);
    const { seeding } = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
    expect(seeding.method).toBe('random');
    expect(Number.isInteger(seeding.randomSeed)).toBe(true);
    expect(seeding.participantIds).toEqual(shuffleWithSeed(participantIds, seeding.randomSeed));
    const graphql = await api('/graphql', {
      method: 'POST',
      body: { query: 'query($e: ID!, $s: ID!) { event(id: $e) { stage(id: $s) { status settings { seeding thirdPlaceMatch grandFinal } seeding { method randomSeed participantIds } } } }', variables: { e: eventId, s: stageId } },
    });
    expect(graphql.body.data.event.stage).toEqual({ status: 'running', settings: { seeding: 'random', thirdPlaceMatch: false, grandFinal: null }, seeding: { method: 'random', randomSeed: seeding.randomSeed, participantIds: seeding.participantIds } });
    const first = (await allMatches(eventId, stageId)).find((m) => m.roundNumber === 1 && m.position === 1)!;
    expect(first.opponentA.participantId).toBe(seeding.participantIds[0]);
    expect(first.opponentB.participantId).toBe(seeding.participantIds[7]);
  });

  it('manual without a seeding, and previous_stage before the previous stage completed (or without one), answer 409 clearly', async () => {
    const { eventId } = await createEventWithParticipants(server, 4);
    const first = await createStage(eventId, { format: 'swiss', settings: { seeding: 'previous_stage' } });
    expectError(await start(eventId, first), 409, 'conflict', 'no_previous_stage');
    const manual = await createStage(eventId, { format: 'swiss', settings: { seeding: 'manual' } });
    expectError(await start(eventId, manual), 409, 'conflict', 'seeding_missing');
    const previous = await createStage(eventId, { format: 'swiss', settings: { seeding: 'previous_stage' } });
    expectError(await start(eventId, previous), 409, 'conflict', 'previous_stage_not_completed');
  });
});

describe('start preconditions', () => {
  it('replays a retry with the same Idempotency-Key (one generation) and refuses a second start: 409 stage_started', async () => {
    const { eventId } = await createEventWithParticipants(server, 4);
    const stageId = await createStage(eventId, { format: 'single_elimination' });
    const key = uniqueKey('start');
    const revision = await revisionOf(eventId);
    const first = await api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: revision, key });
    expect(first.status).toBe(200);
    const retry = await api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: revision, key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.db.prisma.match.count({ where: { stageId } })).toBe(3);
    expectError(await start(eventId, stageId), 409, 'conflict', 'stage_started');
  });

  it('two concurrent starts with the same If-Match: exactly one succeeds', async () => {
    const { eventId } = await createEventWithParticipants(server, 8);
    const stageId = await createStage(eventId, { format: 'double_elimination' });
    const revision = await revisionOf(eventId);
    const answers = await Promise.all([1, 2, 3].map(() => api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: revision, key: uniqueKey() })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([409, 412]).toContain(a.status);
    expect(await revisionOf(eventId)).toBe(revision + 1);
    expect(await server.db.prisma.match.count({ where: { stageId } })).toBe(generateStage({ format: 'double_elimination', settings: resolvedSettings('double_elimination', {}), participants: ['1', '2', '3', '4', '5', '6', '7', '8'] }).matches.length);
  });

  it('428 without If-Match, 412 when stale, 403 without the scope, 404 for another event\'s stage, 409 too_few_participants', async () => {
    const { eventId } = await createEventWithParticipants(server, 1);
    const stageId = await createStage(eventId, { format: 'single_elimination' });
    const path = `/api/v2/events/${eventId}/stages/${stageId}/start`;
    expectError(await api(path, { method: 'POST', key: uniqueKey() }), 428, 'precondition_required');
    expectError(await api(path, { method: 'POST', ifMatch: (await revisionOf(eventId)) - 1, key: uniqueKey() }), 412, 'precondition_failed');
    expect((await api(path, { method: 'POST', ifMatch: await revisionOf(eventId), key: uniqueKey(), token: 'demo-token-readonly' })).status).toBe(403);
    expect((await api(`/api/v2/events/${eventId}/stages/${stageId}/seeding`, { method: 'PUT', body: { participantIds: ['x'] }, ifMatch: await revisionOf(eventId), token: 'demo-token-readonly' })).status).toBe(403);
    expectError(await api(`/api/v2/events/evt_open/stages/${stageId}/start`, { method: 'POST', ifMatch: await revisionOf('evt_open'), key: uniqueKey() }), 404, 'not_found');
    expectError(await start(eventId, stageId), 409, 'conflict', 'too_few_participants');
    expect((await server.db.prisma.stage.findUniqueOrThrow({ where: { id: stageId } })).status).toBe('pending');
  });
});

describe('stage matches list', () => {
  it('pages in bracket order with the list conventions and answers 304 to a current ETag', async () => {
    const { eventId } = await createEventWithParticipants(server, 5);
    const stageId = await createStage(eventId, { format: 'double_elimination' });
    expect((await start(eventId, stageId)).status).toBe(200);
    const all = await allMatches(eventId, stageId, 100);
    const paged = await allMatches(eventId, stageId, 2);
    expect(paged.map((m) => m.id)).toEqual(all.map((m) => m.id));
    expect([...new Set(all.map((m) => m.bracket))]).toEqual(['winners', 'losers', 'grand_final']);
    const first = await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?limit=2`);
    expect(first.body.meta.hasMore).toBe(true);
    const etag = first.headers.get('etag')!;
    const again = await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?limit=2`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expectError(await api(`/api/v2/events/${eventId}/stages/${stageId}/matches?cursor=nonsense`), 400, 'validation_failed', 'cursor');
    expectError(await api(`/api/v2/events/${eventId}/stages/stg_open_groups/matches`), 404, 'not_found');
    // Matches that were not generated read null for the new fields; a match with a round reads its round's number.
    const v1 = await fetch(`${server.url}/api/v1/events/evt_open/matches/mtc_open_1`, { headers: { 'x-api-key': 'demo-org-key-0001' } }).then((r) => r.json());
    expect(v1.data).toMatchObject({ roundNumber: 1, position: null, bracket: null, winnerTo: null, loserTo: null, sourceA: null, sourceB: null, opponents: null });
  });
});

describe('flood', () => {
  it('many distinct start and seeding requests, with and without credentials: the process stays up and /healthz fast', async () => {
    const { eventId } = await createEventWithParticipants(server, 4);
    const stageId = await createStage(eventId, { format: 'single_elimination' });
    const revision = await revisionOf(eventId);
    const requests = Array.from({ length: 120 }, (_, i) => {
      const token = i % 3 === 0 ? null : i % 3 === 1 ? 'demo-token-readonly' : undefined;
      return i % 2
        ? api(`/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: revision, key: uniqueKey('flood'), token })
        : api(`/api/v2/events/${eventId}/stages/${stageId}/seeding`, { method: 'PUT', ifMatch: revision, token, body: { participantIds: [`par_nobody_${i}`] } });
    });
    const answers = await Promise.all(requests);
    for (const a of answers) expect([200, 400, 401, 403, 409, 412, 429]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    const t0 = Date.now();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
