// Round robin and league standings moved report by report (standingsFromStored, REPORT_INPUTS_SQL,
// prefetchReportInputs), through the public HTTP API: after every write (reports, draws, forfeits,
// corrections, adjustments, a cancellation, the stage completed and corrected after) the stored
// table is the one counted from every match of the stage; concurrent reports of one stage leave the
// recount; floods of foreign or random match ids answer 4xx, never 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, underLoadLimits, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { startedStage } from '../support/stage-fixtures.ts';
import { computeStageStandings } from '../../subgraphs/competitions/stages/standings.ts';
import type { GroupKey } from '../../subgraphs/competitions/stages/settings.ts';
import type { StandingsMatchRow } from '../../subgraphs/competitions/stages/statements.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: underLoadLimits() });
});
afterAll(() => server?.close());

type Row = Record<string, any>;
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);

async function revisionOf(eventId: string): Promise<number> {
  const response = await api(`/api/v2/events/${eventId}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.revision;
}


async function allPages(path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const response = await api(`${path}${path.includes('?') ? '&' : '?'}limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    rows.push(...response.body.data);
    cursor = response.body.meta?.nextCursor ?? null;
  } while (cursor);
  return rows;
}

const asRow = (m: Row): StandingsMatchRow =>
  ({
    id: m.id,
    groupId: m.groupId ?? null,
    status: m.status,
    participantAId: m.opponentA?.participantId ?? null,
    participantBId: m.opponentB?.participantId ?? null,
    scoreA: m.opponentA?.score ?? null,
    scoreB: m.opponentB?.score ?? null,
    forfeit: m.opponentA?.forfeit ? 'a' : m.opponentB?.forfeit ? 'b' : null,
    isFreeWin: m.isFreeWin ?? false,
    opponents: null,
  }) as StandingsMatchRow;

const FIELDS = ['groupId', 'participantId', 'rank', 'seed', 'played', 'wins', 'draws', 'losses', 'points', 'scoreFor', 'scoreAgainst', 'scoreDifference', 'tiebreakers', 'qualified'];
const pick = (rows: Row[]) => rows.map((row) => Object.fromEntries(FIELDS.map((f) => [f, row[f]])));

/** The stage's table counted from every match read back through the API (all pages), and the stored one. */
async function tables(eventId: string, stageId: string, adjustments: ReadonlyMap<string, number> = new Map()) {
  const stage = (await api(`/api/v2/events/${eventId}/stages/${stageId}`)).body.data;
  const matches = await allPages(`/api/v2/events/${eventId}/stages/${stageId}/matches`);
  const counted = computeStageStandings({
    format: stage.format,
    settings: stage.settings,
    seeding: stage.seeding,
    matches: matches.map(asRow),
    adjustments,
    final: stage.status === 'completed',
  });
  const groupOrder: GroupKey[] = stage.seeding.groups?.length ? stage.seeding.groups.map((g: Row) => g.groupId) : [null];
  const expected = groupOrder.flatMap((groupId) => counted.get(groupId)!.map((row) => ({ ...row, groupId })));
  const stored = await allPages(`/api/v2/events/${eventId}/stages/${stageId}/standings`);
  return { stage, matches, expected: pick(expected), stored: pick(stored) };
}

/** A deterministic generator (Lehmer). */
function prng(seed: number) {
  let state = seed;
  return (n: number) => (state = (state * 48271) % 2147483647) % n;
}

describe('sequential reports against a recount', () => {
  const CASES: [string, string, number, Record<string, unknown>, { name: string }[]?][] = [
    ['league of 5, two legs, h2h after points', 'league', 5, { legs: 2, tiebreakers: ['points', 'head_to_head', 'score_difference', 'seed'], points: { win: 3, draw: 1, loss: 0 } }],
    ['round robin of 5, no seed (shared ranks), custom points', 'round_robin', 5, { tiebreakers: ['points', 'head_to_head'], points: { win: 2, draw: 1, loss: -1 } }],
    ['league of 7, two legs, draw = win', 'league', 7, { legs: 2, tiebreakers: ['points', 'head_to_head', 'wins', 'seed'], points: { win: 1, draw: 1, loss: 0 }, qualifiers: 3 }],
    ['round robin of 8, wins then score difference then h2h', 'round_robin', 8, { tiebreakers: ['wins', 'score_difference', 'head_to_head', 'score_for'], points: { win: 3, draw: 0, loss: 0 } }],
    ['round robin of 6 in two groups, two legs, default tiebreakers', 'round_robin', 6, { qualifiers: 2, legs: 2 }, [{ name: 'A' }, { name: 'B' }]],
  ];
  it.each(CASES)('%s', async (_name, format, count, settings, groups) => {
    const { eventId, stageId } = await startedStage(server, format, count, settings, groups);
    const start = await tables(eventId, stageId);
    expect(start.stored).toEqual(start.expected);
    const ids = start.matches.map((m) => m.id);
    const random = prng(count * 7919 + ids.length);
    const bodies = [
      () => ({ status: 'completed', scoreA: random(3), scoreB: random(3) }),
      () => ({ status: 'completed', scoreA: random(2), scoreB: random(2), forfeit: null }),
      () => ({ status: 'completed', forfeit: random(2) ? 'a' : 'b' }),
      () => ({ status: 'completed', scoreA: 1, scoreB: 1, forfeit: null }),
      () => ({ status: 'live' }),
      () => ({ forfeit: null }),
    ];
    let revision = await revisionOf(eventId);
    // Leave two matches open until the end so that most reports run while the stage is running.
    const late = new Set(ids.slice(-2));
    const steps = Math.min(32, ids.length);
    const log: string[] = [];
    for (let step = 0; step < steps + late.size; step++) {
      const matchId = step < steps ? ids.filter((id) => !late.has(id))[random(ids.length - late.size)] : [...late][step - steps];
      const body = step < steps ? bodies[random(bodies.length)]() : { status: 'completed', scoreA: 2, scoreB: 1 };
      const response = await api(`/api/v2/events/${eventId}/matches/${matchId}`, { method: 'PATCH', body, ifMatch: revision });
      log.push(`${matchId} ${JSON.stringify(body)} -> ${response.status}`);
      expect(response.status, `${log.join('\n')}\n${JSON.stringify(response.body)}`).toBeLessThan(500);
      if (response.status !== 200) {
        expect([400, 409], `${log.join('\n')}\n${JSON.stringify(response.body)}`).toContain(response.status);
        continue;
      }
      revision = response.body.data.revision;
      const { stored, expected } = await tables(eventId, stageId);
      expect(stored, `after:\n${log.join('\n')}`).toEqual(expected);
    }
  });
});

describe('adjustments, cancellations, completion and corrections after it', () => {
  it('round robin of 6: every write leaves the recount', async () => {
    const { eventId, stageId, participantIds } = await startedStage(server, 'round_robin', 6, { tiebreakers: ['points', 'head_to_head', 'score_for'], points: { win: 3, draw: 1, loss: 0 }, qualifiers: 2 });
    const adjustments = new Map<string, number>();
    const random = prng(2024);
    const { matches } = await tables(eventId, stageId);
    const log: string[] = [];
    const check = async () => {
      const { stored, expected, stage } = await tables(eventId, stageId, adjustments);
      expect(stored, log.join('\n')).toEqual(expected);
      return stage;
    };
    const adjust = async (participantId: string, points: number) => {
      const response = await api(`/api/v2/events/${eventId}/standing-adjustments`, { method: 'POST', body: { participantId, stageId, points, reason: 'review' }, ifMatch: await revisionOf(eventId), key: uniqueKey() });
      log.push(`adjust ${participantId} ${points} -> ${response.status}`);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      adjustments.set(participantId, (adjustments.get(participantId) ?? 0) + points);
    };
    const report = async (matchId: string, body: Record<string, unknown>) => {
      const response = await api(`/api/v2/events/${eventId}/matches/${matchId}`, { method: 'PATCH', body, ifMatch: await revisionOf(eventId) });
      log.push(`${matchId} ${JSON.stringify(body)} -> ${response.status}`);
      expect(response.status, `${log.join('\n')}\n${JSON.stringify(response.body)}`).toBeLessThan(500);
      return response.status;
    };
    await adjust(participantIds[5], 3);
    await adjust(participantIds[0], -2);
    await check();
    for (const [index, match] of matches.entries()) {
      if (index === 3) {
        expect(await report(match.id, { status: 'cancelled' })).toBe(200);
      } else {
        const body = random(3) === 0 ? { status: 'completed', forfeit: random(2) ? 'a' : 'b' } : { status: 'completed', scoreA: random(3), scoreB: random(3) };
        expect(await report(match.id, body)).toBe(200);
      }
      await check();
      if (index === 5) {
        await adjust(participantIds[2], 1);
        await check();
      }
    }
    expect((await check()).status).toBe('completed');
    // Corrections of the completed stage: swap winners, a draw to a win, a forfeit taken back.
    for (const match of matches.filter((_, i) => i !== 3).slice(0, 5)) {
      expect(await report(match.id, { scoreA: 0, scoreB: 2, forfeit: null })).toBe(200);
      await check();
    }
    await adjust(participantIds[1], -1);
    await check();
  });
});

describe('concurrent reports of one stage', () => {
  it.each([
    ['league', 6, { legs: 2, tiebreakers: ['points', 'head_to_head', 'score_difference', 'seed'] }],
    ['round_robin', 5, { tiebreakers: ['points', 'head_to_head', 'wins'], points: { win: 2, draw: 1, loss: 0 } }],
  ] as const)('%s of %i: reports sent at once, retried on 412/409, leave the recount', async (format, count, settings) => {
    const { eventId, stageId } = await startedStage(server, format, count, settings);
    const { matches } = await tables(eventId, stageId);
    const random = prng(4242 + count);
    // Every match once, then a third of them corrected, in waves of 6 sent together.
    const reports = [...matches.map((m) => m.id), ...matches.filter((_, i) => i % 3 === 0).map((m) => m.id)].map((id) => ({
      id,
      body: random(4) === 0 ? { status: 'completed', forfeit: random(2) ? 'a' : 'b' } : { status: 'completed', scoreA: random(3), scoreB: random(3), forfeit: null },
    }));
    const statuses = new Map<number, number>();
    const send = async ({ id, body }: (typeof reports)[number]) => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const revision = await revisionOf(eventId);
        const response = await api(`/api/v2/events/${eventId}/matches/${id}`, { method: 'PATCH', body, ifMatch: revision });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        if (response.status === 200) return;
        expect([409, 412], JSON.stringify(response.body)).toContain(response.status);
      }
      throw new Error(`${id} never applied`);
    };
    for (let i = 0; i < reports.length; i += 6) {
      // Two reports of one match in one wave would race on the result: keep them apart.
      const wave = reports.slice(i, i + 6).filter((r, k, list) => list.findIndex((o) => o.id === r.id) === k);
      await Promise.all(wave.map(send));
      const { stored, expected } = await tables(eventId, stageId);
      expect(stored, `after wave ${i / 6 + 1} (${JSON.stringify([...statuses])})`).toEqual(expected);
    }
  });
});

describe('floods of foreign and random match ids', () => {
  it('answer 4xx, never 5xx, and /healthz stays quick', async () => {
    const own = await startedStage(server, 'league', 6, { tiebreakers: ['points', 'head_to_head', 'seed'] });
    const foreign = await startedStage(server, 'league', 6, { tiebreakers: ['points', 'head_to_head', 'seed'] });
    const foreignMatches = (await tables(foreign.eventId, foreign.stageId)).matches.map((m) => m.id);
    // A stage nobody started (demo world: evt_open's round robin with hand-entered matches), and another org's event.
    const ids = [...foreignMatches, 'mtc_open_1', 'mtc_open_2', 'mtc_live_b_1', 'mtc_done_1', 'mch_nope', 'x'.repeat(300), "mch_' OR 1=1 --", '%00', 'mtc_live_a_110'];
    const ownRevision = await revisionOf(own.eventId);
    const random = prng(99);
    const requests: Promise<{ status: number; what: string }>[] = [];
    const slow: number[] = [];
    const health = (async () => {
      for (let i = 0; i < 20; i++) {
        const began = performance.now();
        const response = await fetch(`${server.url}/healthz`);
        await response.arrayBuffer();
        slow.push(performance.now() - began);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    for (let i = 0; i < 240; i++) {
      const matchId = ids[random(ids.length)];
      const eventId = [own.eventId, 'evt_open', 'evt_rival', 'evt_nope', foreign.eventId][random(5)];
      const token = [undefined, null, 'demo-token-readonly', 'demo-token-dave', 'garbage'][random(5)] as string | null | undefined;
      const ifMatch = [ownRevision, '"0"', 'W/"1"', '*', null][random(5)];
      const body = [{ status: 'completed', scoreA: 2, scoreB: 0 }, { status: 'completed', forfeit: 'a' }, { scoreA: -1 }, {}, 'nope'][random(5)];
      const what = `${eventId} ${matchId.slice(0, 40)} token=${token} if-match=${ifMatch} ${JSON.stringify(body)}`;
      // The foreign event is org_demo's too: a good token at its revision is a legitimate report (checked against the recount below).
      requests.push(api(`/api/v2/events/${eventId}/matches/${encodeURIComponent(matchId)}`, { method: 'PATCH', body, token, ifMatch }).then((r) => ({ status: r.status, what })));
      if (requests.length % 40 === 0) await Promise.all(requests.slice(-40));
    }
    const answers = await Promise.all(requests);
    await health;
    const fivexx = answers.filter((a) => a.status >= 500);
    expect(fivexx, fivexx.slice(0, 5).map((a) => `${a.status} ${a.what}`).join('\n')).toEqual([]);
    expect(Math.max(...slow), JSON.stringify(slow.map(Math.round))).toBeLessThan(1000);
    // Nothing the flood did left either stage's table apart from its matches.
    for (const { eventId, stageId } of [own, foreign]) {
      const { stored, expected } = await tables(eventId, stageId);
      expect(stored).toEqual(expected);
    }
  });
});
