// A whole tournament through the public API: the demo world's evt_cup (16 registered teams) plays a
// swiss stage of 5 rounds whose top 8 go into a double-elimination playoff seeded from the swiss
// standings (seeding: previous_stage). Every match is reported, some corrected (one correction is
// refused because what it fed has been played). At the end the standings, the bracket, the change
// log, the webhook deliveries a real receiver verified and a realtime subscriber's messages agree.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { CHANGE_TYPES } from '../../platform/domain/change-catalogue.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, expectError, uniqueKey } from '../support/api.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let server: TestServer;
let receiver: Receiver;
let client: Client;
beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  receiver = await startReceiver();
  server = await startTestServer();
});
afterAll(async () => {
  await client?.dispose();
  await server?.close();
  await receiver?.close();
  vi.unstubAllEnvs();
});

type Row = Record<string, any>;
const EVENT = 'evt_cup';
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
/** The event's revision as the API answers it (its ETag). */
const revision = async () => Number(JSON.parse((await api(`/api/v2/events/${EVENT}`)).headers.get('etag')!));

async function write(method: string, path: string, body?: unknown, idempotent = false) {
  const response = await api(path, { method, body, ifMatch: await revision(), key: idempotent ? uniqueKey('cup') : undefined });
  expect(response.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.data;
}

async function all(path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const page = await api(`${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    rows.push(...page.body.data);
    cursor = page.body.meta.nextCursor;
  } while (cursor);
  return rows;
}

// Deterministic results: the better seed usually wins, 2–0 or 2–1.
let state = 20261126;
const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const seedOf = (participantId: string) => Number(participantId.slice(-2));
function result(match: Row): { scoreA: number; scoreB: number } {
  const aBetter = seedOf(match.opponentA.participantId) < seedOf(match.opponentB.participantId);
  const aWins = random() < (aBetter ? 0.7 : 0.3);
  const loser = random() < 0.5 ? 0 : 1;
  return aWins ? { scoreA: 2, scoreB: loser } : { scoreA: loser, scoreB: 2 };
}
const playable = (m: Row) => m.status === 'scheduled' && m.opponentA?.participantId && m.opponentB?.participantId;
const winnerOf = (m: Row) => (m.opponentA.result === 'win' ? m.opponentA.participantId : m.opponentB.participantId);

describe('the Demo Spring Cup, from registration to champion', () => {
  it('swiss, then a double-elimination playoff of its top 8: everything agrees at the end', async () => {
    // Followers first: a webhook endpoint for every type of the catalogue, and a realtime subscriber.
    const types = CHANGE_TYPES.map((type) => type.name).filter((name) => name !== 'webhook.test');
    const endpoint = await api('/api/v2/developer/apps/app_demo/webhook-endpoints', { method: 'POST', key: uniqueKey('whe'), body: { name: 'Cup', url: receiver.url, subscribedEvents: types } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const secret = endpoint.body.data.secret as string;
    client = createClient({ url: server.url.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { authorization: 'Bearer demo-token-app' }, lazy: false, retryAttempts: 0 });
    const events: Row[] = [];
    const tables: Row[] = [];
    client.subscribe({ query: `subscription { eventChanged(eventId: "${EVENT}") { cursor type resourceType resourceId revision } }` }, { next: (m) => void events.push(m.data!.eventChanged as Row), error: () => undefined, complete: () => undefined });
    client.subscribe(
      { query: `subscription { standingsChanged(eventId: "${EVENT}") { cursor stageId groupId standings { participantId rank points played } } }` },
      { next: (m) => void tables.push(m.data!.standingsChanged as Row), error: () => undefined, complete: () => undefined },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const firstSequence = (await server.db.prisma.changeLog.aggregate({ _max: { sequence: true } }))._max.sequence ?? 0n;

    // The organiser's structure: swiss (5 rounds, 8 qualify), then the playoff seeded from it.
    const swiss = (await write('POST', `/api/v2/events/${EVENT}/stages`, { name: 'Swiss', format: 'swiss', bestOf: 3, settings: { rounds: 5, qualifiers: 8 } }, true)).resourceId as string;
    const playoff = (await write('POST', `/api/v2/events/${EVENT}/stages`, { name: 'Playoffs', format: 'double_elimination', bestOf: 3, settings: { seeding: 'previous_stage', grandFinal: 'double' } }, true)).resourceId as string;
    await write('POST', `/api/v2/events/${EVENT}/publish`, undefined, true);
    await write('POST', `/api/v2/events/${EVENT}/stages/${swiss}/start`, undefined, true);

    // Five swiss rounds: each round's last report pairs the next.
    let corrected = false;
    for (let round = 1; round <= 5; round++) {
      const matches = (await all(`/api/v2/events/${EVENT}/stages/${swiss}/matches`)).filter((m) => m.roundNumber === round);
      expect(matches, `round ${round}`).toHaveLength(8);
      for (const match of matches) await write('PATCH', `/api/v2/events/${EVENT}/matches/${match.id}`, { status: 'completed', ...result(match) });
      if (round === 3 && !corrected) {
        // A round-1 result was entered the wrong way round: corrected while round 4 is being played.
        const first = (await all(`/api/v2/events/${EVENT}/stages/${swiss}/matches`)).find((m) => m.roundNumber === 1)!;
        await write('PATCH', `/api/v2/events/${EVENT}/matches/${first.id}`, { scoreA: first.opponentB.score, scoreB: first.opponentA.score });
        corrected = true;
      }
    }
    const swissMatches = await all(`/api/v2/events/${EVENT}/stages/${swiss}/matches`);
    expect(swissMatches).toHaveLength(40);
    const pairs = new Set<string>();
    for (const m of swissMatches) {
      const pair = [m.opponentA.participantId, m.opponentB.participantId].sort().join();
      expect(pairs.has(pair), `rematch ${pair}`).toBe(false);
      pairs.add(pair);
    }
    expect((await api(`/api/v2/events/${EVENT}/stages/${swiss}`)).body.data.status).toBe('completed');

    // The swiss table, checked against the matches: 3 points a win, 5 played each, 8 qualified.
    const swissTable = await all(`/api/v2/events/${EVENT}/stages/${swiss}/standings`);
    const { tiebreakers } = (await api(`/api/v2/events/${EVENT}/stages/${swiss}`)).body.data.settings;
    expect(swissTable).toHaveLength(16);
    const wins = new Map<string, number>();
    for (const m of swissMatches) wins.set(winnerOf(m), (wins.get(winnerOf(m)) ?? 0) + 1);
    for (const row of swissTable) {
      expect(row.played).toBe(5);
      expect(row.wins).toBe(wins.get(row.participantId) ?? 0);
      expect(row.points).toBe(3 * row.wins);
      expect(Object.keys(row.tiebreakers)).toEqual(tiebreakers);
    }
    for (let i = 1; i < 16; i++) expect(swissTable[i].points).toBeLessThanOrEqual(swissTable[i - 1].points);
    expect(swissTable.map((row) => row.qualified)).toEqual([...Array(8).fill(true), ...Array(8).fill(false)]);
    const qualifiers = swissTable.slice(0, 8).map((row) => row.participantId);

    // The playoff shows the qualifiers in rank order, and starts with them.
    expect((await api(`/api/v2/events/${EVENT}/stages/${playoff}`)).body.data.seeding).toEqual({ method: 'previous_stage', randomSeed: null, participantIds: qualifiers, groups: null });
    await write('POST', `/api/v2/events/${EVENT}/stages/${playoff}/start`, undefined, true);
    let bracket = await all(`/api/v2/events/${EVENT}/stages/${playoff}/matches`);
    const opening = bracket.filter((m) => m.bracket === 'winners' && m.roundNumber === 1);
    expect(opening.map((m) => [m.opponentA.participantId, m.opponentB.participantId])).toEqual([
      [qualifiers[0], qualifiers[7]],
      [qualifiers[3], qualifiers[4]],
      [qualifiers[1], qualifiers[6]],
      [qualifiers[2], qualifiers[5]],
    ]);

    // A swiss result can no longer change who qualified: the playoff has started.
    const decisive = swissMatches.find((m) => qualifiers.includes(winnerOf(m)) && !qualifiers.includes(m.opponentA.participantId === winnerOf(m) ? m.opponentB.participantId : m.opponentA.participantId))!;
    const flip = decisive.opponentA.result === 'win' ? { scoreA: 0, scoreB: 2 } : { scoreA: 2, scoreB: 0 };
    expectError(await api(`/api/v2/events/${EVENT}/matches/${decisive.id}`, { method: 'PATCH', body: flip, ifMatch: await revision() }), 409, 'conflict', 'next_stage_started');

    // The playoff: report whatever can be played until nothing can. The first opening result is
    // corrected before what it fed is played; once that is played, correcting it again is refused.
    const [firstOpening] = opening;
    await write('PATCH', `/api/v2/events/${EVENT}/matches/${firstOpening.id}`, { status: 'completed', scoreA: 0, scoreB: 2 });
    await write('PATCH', `/api/v2/events/${EVENT}/matches/${firstOpening.id}`, { scoreA: 2, scoreB: 1 });
    for (;;) {
      bracket = await all(`/api/v2/events/${EVENT}/stages/${playoff}/matches`);
      const next = bracket.filter(playable);
      if (!next.length) break;
      for (const match of next) await write('PATCH', `/api/v2/events/${EVENT}/matches/${match.id}`, { status: 'completed', ...result(match) });
    }
    expectError(await api(`/api/v2/events/${EVENT}/matches/${firstOpening.id}`, { method: 'PATCH', body: { scoreA: 0, scoreB: 2 }, ifMatch: await revision() }), 409, 'conflict', 'downstream_started');

    // The bracket: every match decided (a reset not needed is cancelled), every winner and loser where its links say.
    const byId = new Map(bracket.map((m) => [m.id, m]));
    for (const m of bracket) {
      expect(['completed', 'cancelled'], m.id).toContain(m.status);
      if (m.status !== 'completed' || m.isFreeWin) continue;
      const loser = m.opponentA.participantId === winnerOf(m) ? m.opponentB.participantId : m.opponentA.participantId;
      for (const [link, who] of [[m.winnerTo, winnerOf(m)], [m.loserTo, loser]] as const) {
        if (!link) continue;
        const target = byId.get(link.matchId)!;
        if (target.status === 'cancelled') continue;
        expect((link.slot === 'a' ? target.opponentA : target.opponentB).participantId, `${m.id} → ${link.matchId}`).toBe(who);
      }
    }
    // The playoff table: the champion won the deciding grand final; 1, 2, 3, 4, 5, 5, 7, 7.
    const finals = bracket.filter((m) => m.bracket === 'grand_final' && m.status === 'completed').sort((x, y) => x.roundNumber - y.roundNumber);
    const decider = finals.at(-1)!;
    const playoffTable = await all(`/api/v2/events/${EVENT}/stages/${playoff}/standings`);
    expect(playoffTable.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 5, 7, 7]);
    expect(playoffTable[0].participantId).toBe(winnerOf(decider));
    expect(new Set(playoffTable.map((row) => row.participantId))).toEqual(new Set(qualifiers));
    expect((await api(`/api/v2/events/${EVENT}/stages/${playoff}`)).body.data.status).toBe('completed');
    expect((await api(`/api/v2/events/${EVENT}`)).body.data.state).toBe('completed');

    // The change log, the webhooks and the realtime subscriber agree.
    const log = await server.db.prisma.changeLog.findMany({ where: { eventId: EVENT, sequence: { gt: firstSequence } }, orderBy: { sequence: 'asc' } });
    const logTypes = new Set(log.map((c) => c.type));
    for (const type of ['stage.created', 'event.published', 'stage.started', 'stage.round_paired', 'standings.updated', 'stage.completed', 'stage.seeded', 'match.updated', 'event.updated']) expect(logTypes, type).toContain(type);
    await waitFor(() => events.length >= log.length, 'the realtime messages');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.map((e) => [e.type, e.resourceId, e.revision])).toEqual(log.map((c) => [c.type, c.resourceId, c.revision]));
    const deliveries = await receiver.waitFor(log.length, 60_000);
    const hook = new Webhook(secret);
    const delivered = deliveries.map((request) => hook.verify(request.body, request.headers) as { type: string; data: { changeId: string; eventId: string } }).filter((body) => body.data.eventId === EVENT);
    expect(new Set(delivered.map((body) => body.data.changeId))).toEqual(new Set(log.map((c) => c.id)));
    expect(delivered).toHaveLength(log.length);
    // The last table each subscriber saw per stage is the stored one.
    const lastTable = (stageId: string) => tables.filter((t) => t.stageId === stageId).at(-1)!.standings;
    const brief = (rows: Row[]) => rows.map(({ participantId, rank, points, played }) => ({ participantId, rank, points, played }));
    expect(lastTable(swiss)).toEqual(brief(swissTable));
    expect(lastTable(playoff)).toEqual(brief(playoffTable));
    expect(tables).toHaveLength(log.filter((c) => c.type === 'standings.updated').length);
  }, 240_000);
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
