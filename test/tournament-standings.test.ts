// Standings: exact cases for points, tiebreakers and ranks, elimination ranks over brackets played out
// from generateStage, properties over random results, and the cost of a 1,024-participant stage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aWins, playManager } from './support/tournament-simulation.ts';
import {
  computeStandings,
  generateStage,
  mulberry32,
  resolvedSettings,
  swissFirstRound,
  swissNextRound,
  type GeneratedDuel,
  type StageFormat,
  type StageSettings,
  type StandingRow,
  type StandingsDuel,
  type StandingsMatch,
  type SwissHistoryEntry,
  type SwissPairing,
} from '../subgraphs/competitions/tournament/index.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const seeded = (list: string[]) => list.map((participantId, i) => ({ participantId, seed: i + 1 }));
const duel = (participantA: string, participantB: string, scoreA: number, scoreB: number): StandingsDuel => ({
  participantA,
  participantB,
  scoreA,
  scoreB,
  winner: scoreA > scoreB ? participantA : scoreB > scoreA ? participantB : null,
  isDraw: scoreA === scoreB,
});
const standings = (format: StageFormat, participants: string[], matches: StandingsMatch[], settings: StageSettings = {}, adjustments?: { participantId: string; points: number }[]) =>
  computeStandings({ format, settings: resolvedSettings(format, settings, participants.length), participants: seeded(participants), matches, adjustments });
const table = (rows: StandingRow[]) => rows.map((row) => [row.rank, row.participantId]);

describe('computeStandings: points and totals', () => {
  it('counts wins, draws, losses, scores and points from the points setting, with adjustments', () => {
    const rows = standings('league', ['a', 'b', 'c'], [duel('a', 'b', 2, 1), duel('b', 'c', 1, 1), duel('c', 'a', 3, 0)], { points: { win: 2, draw: 1 } }, [{ participantId: 'b', points: -1 }]);
    const byId = new Map(rows.map((row) => [row.participantId, row]));
    expect(byId.get('a')).toMatchObject({ played: 2, wins: 1, draws: 0, losses: 1, points: 2, scoreFor: 2, scoreAgainst: 4, scoreDifference: -2 });
    expect(byId.get('b')).toMatchObject({ played: 2, wins: 0, draws: 1, losses: 1, points: 0, scoreFor: 2, scoreAgainst: 3 });
    expect(byId.get('c')).toMatchObject({ played: 2, wins: 1, draws: 1, losses: 0, points: 3, scoreFor: 4, scoreAgainst: 1, scoreDifference: 3 });
    expect(table(rows)).toEqual([[1, 'c'], [2, 'a'], [3, 'b']]);
    expect(rows[0].tiebreakers).toEqual({ points: 3, head_to_head: 0, score_difference: 3, score_for: 4, seed: 3 });
    expect(Object.keys(rows[0].tiebreakers)).toEqual(['points', 'head_to_head', 'score_difference', 'score_for', 'seed']);
  });

  it('a bye is a win with no score; a forfeit is a win and a loss with the score given, if any; a match nobody won is a loss for both', () => {
    const rows = standings('swiss', ['a', 'b', 'c', 'd'], [
      { participantA: 'a', participantB: null, winner: 'a', isFreeWin: true },
      { participantA: 'b', participantB: 'c', winner: 'c', isForfeit: true },
      { participantA: 'd', participantB: 'b', scoreA: 0, scoreB: 3, winner: 'b', isForfeit: true },
      { participantA: 'c', participantB: 'd', winner: null, isForfeit: true },
    ]);
    const byId = new Map(rows.map((row) => [row.participantId, row]));
    expect(byId.get('a')).toMatchObject({ played: 1, wins: 1, points: 3, scoreFor: 0, scoreAgainst: 0 });
    expect(byId.get('b')).toMatchObject({ played: 2, wins: 1, losses: 1, points: 3, scoreFor: 3 });
    expect(byId.get('c')).toMatchObject({ played: 2, wins: 1, losses: 1, points: 3 });
    expect(byId.get('d')).toMatchObject({ played: 2, wins: 0, losses: 2, points: 0, scoreAgainst: 3 });
  });

  it('refuses a match with someone who is not a participant, and a participant listed twice', () => {
    expect(() => standings('league', ['a', 'b'], [duel('a', 'x', 1, 0)])).toThrow(/x plays a match/);
    expect(() => computeStandings({ format: 'league', settings: resolvedSettings('league', {}), participants: seeded(['a', 'a']), matches: [] })).toThrow(/twice/);
  });
});

describe('computeStandings: tiebreakers and ranks', () => {
  it('rows tied on every tiebreaker share a rank, the next rank skips (1, 2, 2, 4), tied rows listed by seed', () => {
    const rows = standings('league', ['a', 'b', 'c', 'd'], [duel('a', 'd', 1, 0), duel('c', 'd', 1, 0), duel('b', 'd', 1, 0), duel('a', 'b', 1, 0), duel('a', 'c', 1, 0), duel('b', 'c', 0, 0)], {
      tiebreakers: ['points', 'score_difference'],
    });
    expect(table(rows)).toEqual([[1, 'a'], [2, 'b'], [2, 'c'], [4, 'd']]);
  });

  it('head to head between two: the winner of their match goes first, before score difference', () => {
    // b and c both 3 points; c beat b, b has the better score difference.
    const rows = standings('league', ['a', 'b', 'c', 'd'], [duel('a', 'b', 1, 0), duel('a', 'c', 1, 0), duel('b', 'c', 0, 1), duel('b', 'd', 9, 0)], {
      tiebreakers: ['points', 'head_to_head', 'score_difference', 'seed'],
    });
    expect(table(rows)).toEqual([[1, 'a'], [2, 'c'], [3, 'b'], [4, 'd']]);
    const h2h = Object.fromEntries(rows.map((row) => [row.participantId, row.tiebreakers.head_to_head]));
    expect(h2h).toEqual({ a: 0, b: 0, c: 3, d: 0 });
  });

  it('head to head among three or more is a mini-table of exactly the tied set; who stays tied moves on to the next tiebreaker', () => {
    // a, b, c, d: 6 points each except d. Among {a, b, c}: a beat b, b beat c, c beat a (3 each):
    // the mini-table does not separate them, score difference puts b first (+3); a and c (0 each)
    // are then separated by seed.
    const matches = [duel('a', 'b', 1, 0), duel('b', 'c', 3, 0), duel('c', 'a', 2, 0), duel('a', 'd', 1, 0), duel('b', 'd', 1, 0), duel('c', 'd', 1, 0)];
    const rows = standings('league', ['a', 'b', 'c', 'd'], matches, { tiebreakers: ['points', 'head_to_head', 'score_difference', 'seed'] });
    expect(table(rows)).toEqual([[1, 'b'], [2, 'a'], [3, 'c'], [4, 'd']]);
    for (const id of ['a', 'b', 'c']) expect(rows.find((row) => row.participantId === id)!.tiebreakers.head_to_head).toBe(3);

    // a, b and c on 6 points; among them a beat b and c, b and c drew: the mini-table puts a
    // first (6), b and c stay level on it (1 each) and score difference puts c ahead.
    const second = [
      duel('a', 'b', 1, 0), duel('a', 'c', 1, 0), duel('b', 'c', 0, 0),
      duel('d', 'a', 1, 0), duel('e', 'a', 1, 0), duel('f', 'a', 1, 0),
      duel('b', 'd', 1, 0), duel('b', 'e', 0, 0), duel('b', 'f', 0, 0),
      duel('c', 'e', 4, 0), duel('c', 'd', 0, 0), duel('c', 'f', 0, 0),
    ];
    const tied = standings('league', ['a', 'b', 'c', 'd', 'e', 'f'], second, { tiebreakers: ['points', 'head_to_head', 'score_difference'] });
    expect(tied.slice(0, 3).map((row) => [row.rank, row.participantId, row.points, row.tiebreakers.head_to_head, row.tiebreakers.score_difference])).toEqual([
      [1, 'a', 6, 6, -1],
      [2, 'c', 6, 1, 3],
      [3, 'b', 6, 1, 0],
    ]);
  });

  it('buchholz sums the opponents’ points; a bye contributes nothing', () => {
    // Round 1: a beat b, c beat d, e had a bye. Round 2: a beat c, e beat b, d a bye.
    const matches: StandingsMatch[] = [
      duel('a', 'b', 1, 0),
      duel('c', 'd', 1, 0),
      { participantA: 'e', participantB: null, winner: 'e', isFreeWin: true },
      duel('a', 'c', 1, 0),
      duel('e', 'b', 1, 0),
      { participantA: 'd', participantB: null, winner: 'd', isFreeWin: true },
    ];
    const rows = standings('swiss', ['a', 'b', 'c', 'd', 'e'], matches, { tiebreakers: ['points', 'buchholz', 'seed'] });
    const buchholz = Object.fromEntries(rows.map((row) => [row.participantId, row.tiebreakers.buchholz]));
    // Points: a 6, e 6, c 3, d 3, b 0.
    expect(buchholz).toEqual({ a: 0 + 3, e: 0, c: 3 + 6, d: 3, b: 6 + 6 });
    expect(table(rows)).toEqual([[1, 'a'], [2, 'e'], [3, 'c'], [4, 'd'], [5, 'b']]);
  });

  it('seed ranks the lower seed first; qualified marks the first `qualifiers` rows', () => {
    const rows = standings('round_robin', ['a', 'b', 'c', 'd'], [duel('a', 'b', 0, 0), duel('c', 'd', 0, 0)], { qualifiers: 3 });
    expect(table(rows)).toEqual([[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd']]);
    expect(rows.map((row) => row.qualified)).toEqual([true, true, true, false]);
    expect(rows.map((row) => row.tiebreakers.seed)).toEqual([1, 2, 3, 4]);
  });

  it('free-for-all: points by place (default m − place, or pointsByPlace), wins are first places, a free win earns first place in a full match', () => {
    const matches: StandingsMatch[] = [
      { kind: 'ffa', results: [{ participantId: 'a', place: 1 }, { participantId: 'b', place: 2 }, { participantId: 'c', place: 3 }] },
      { kind: 'ffa', results: [{ participantId: 'c', place: 1, score: 7 }, { participantId: 'b', place: 2 }, { participantId: 'a', place: 3 }] },
      { kind: 'ffa', results: [{ participantId: 'd', place: 1 }], isFreeWin: true },
    ];
    const rows = standings('ffa', ['a', 'b', 'c', 'd'], matches, { participantsPerMatch: 3 });
    expect(rows.map((row) => [row.rank, row.participantId, row.points, row.wins, row.played])).toEqual([
      [1, 'a', 2, 1, 2],
      [2, 'c', 2, 1, 2],
      [3, 'd', 2, 1, 1],
      [4, 'b', 2, 0, 2],
    ]);
    expect(rows.find((row) => row.participantId === 'c')!.scoreFor).toBe(7);
    const custom = standings('ffa', ['a', 'b', 'c', 'd'], matches, { participantsPerMatch: 3, pointsByPlace: [10, 6], tiebreakers: ['points', 'head_to_head', 'seed'] });
    expect(custom.map((row) => [row.participantId, row.points])).toEqual([['b', 12], ['a', 10], ['c', 10], ['d', 10]]);
    // a and c (and d, 10 each): a and c each finished ahead of the other once.
    expect(custom.find((row) => row.participantId === 'a')!.tiebreakers.head_to_head).toBe(1);
  });
});

/**
 * Plays a generated elimination stage out in list order (every match comes after those feeding it):
 * the better seed wins unless `upset` says otherwise.
 */
function playOut(format: 'single_elimination' | 'double_elimination', n: number, settings: StageSettings, upset: (a: string, b: string, match: GeneratedDuel) => boolean, stopAfter = Infinity): StandingsDuel[] {
  const stage = generateStage({ format, settings: resolvedSettings(format, settings, n), participants: ids(n) });
  const matches = stage.matches as GeneratedDuel[];
  const byKey = new Map(matches.map((m) => [m.key, m]));
  const place = (link: GeneratedDuel['winnerTo'], id: string) => {
    if (!link) return;
    const target = byKey.get(link.matchKey)!;
    if (link.slot === 'a') target.participantA = id;
    else target.participantB = id;
  };
  const played: StandingsDuel[] = [];
  for (const match of matches) {
    if (played.length >= stopAfter) break;
    const { participantA: a, participantB: b } = match;
    if (match.isFreeWin) {
      const alone = a ?? b;
      if (alone === null) continue;
      place(match.winnerTo, alone);
      played.push({ ...match, winner: alone });
      continue;
    }
    if (a === null || b === null) continue; // the reset of a grand final its first match decided
    const seedA = Number(a.slice(1));
    const seedB = Number(b.slice(1));
    const winner = (seedA < seedB) !== upset(a, b, match) ? a : b;
    const loser = winner === a ? b : a;
    if (match.bracket === 'grand_final' && !match.isGrandFinalReset && winner === a) {
      played.push({ ...match, winner, scoreA: 2, scoreB: 0 });
      break; // the winners-bracket champion won: the reset is not played
    }
    place(match.winnerTo, winner);
    place(match.loserTo, loser);
    played.push({ ...match, winner, scoreA: winner === a ? 2 : 1, scoreB: winner === b ? 2 : 1 });
  }
  return played;
}
const ranksOf = (rows: StandingRow[]) => Object.fromEntries(rows.map((row) => [row.participantId, row.rank]));

describe('computeStandings: elimination formats rank by the round reached', () => {
  it('single elimination of 8: champion 1, finalist 2, semi-final losers share 3rd, quarter-final losers share 5th', () => {
    const rows = standings('single_elimination', ids(8), playOut('single_elimination', 8, {}, () => false));
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3, 3, 5, 5, 5, 5]);
    expect(table(rows).slice(0, 4)).toEqual([[1, 'p1'], [2, 'p2'], [3, 'p3'], [3, 'p4']]);
    expect(rows[0].tiebreakers).toEqual({});
  });

  it('with a third-place match it decides 3rd and 4th', () => {
    const rows = standings('single_elimination', ids(8), playOut('single_elimination', 8, { thirdPlaceMatch: true }, (a, b) => [a, b].includes('p4') && [a, b].includes('p3')), { thirdPlaceMatch: true });
    expect(table(rows).slice(0, 5)).toEqual([[1, 'p1'], [2, 'p2'], [3, 'p4'], [4, 'p3'], [5, 'p5']]);
  });

  it('byes: 6 participants, quarter-final losers share 5th', () => {
    const rows = standings('single_elimination', ids(6), playOut('single_elimination', 6, {}, () => false));
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3, 3, 5, 5]);
    // The byes count as a win with no score.
    expect(rows.find((row) => row.participantId === 'p1')).toMatchObject({ played: 3, wins: 3, scoreFor: 4 });
  });

  it('a stage in progress: those still in rank above those out in the same round', () => {
    // 8 players, the four quarter-finals and one semi-final (p1 beat p4) played: p1 is in the
    // final, p2 and p3 still in the semi-finals, p4 out of them.
    const rows = standings('single_elimination', ids(8), playOut('single_elimination', 8, {}, () => false, 5));
    expect(ranksOf(rows)).toEqual({ p1: 1, p2: 2, p3: 2, p4: 4, p5: 5, p6: 5, p7: 5, p8: 5 });
  });

  it('double elimination of 8: grand final loser 2nd, losers final loser 3rd, then by the losers round', () => {
    const rows = standings('double_elimination', ids(8), playOut('double_elimination', 8, {}, () => false));
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 5, 7, 7]);
    expect(table(rows).slice(0, 4)).toEqual([[1, 'p1'], [2, 'p2'], [3, 'p3'], [4, 'p4']]);
  });

  it('double elimination without a grand final: the winners-bracket champion 1st, the losers-bracket champion 2nd', () => {
    const rows = standings('double_elimination', ids(8), playOut('double_elimination', 8, { grandFinal: 'none' }, () => false), { grandFinal: 'none' });
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 5, 7, 7]);
    expect(table(rows).slice(0, 3)).toEqual([[1, 'p1'], [2, 'p2'], [3, 'p3']]);
  });

  it('double elimination, grandFinal double: the reset is played only when the losers-bracket champion wins the first grand final', () => {
    const meetings = (first: boolean) => {
      // p2 beats p1 in the winners final; p1 comes back through the losers bracket. `first`: p2
      // also wins the first grand final (no reset); otherwise p1 wins both grand finals.
      let met = 0;
      return (a: string, b: string) => [a, b].includes('p1') && [a, b].includes('p2') && (++met === 1 || first);
    };
    const decided = playOut('double_elimination', 4, { grandFinal: 'double' }, meetings(true));
    expect(decided.filter((m) => m.bracket === 'grand_final')).toHaveLength(1);
    expect(table(standings('double_elimination', ids(4), decided, { grandFinal: 'double' }))).toEqual([[1, 'p2'], [2, 'p1'], [3, 'p3'], [4, 'p4']]);
    const reset = playOut('double_elimination', 4, { grandFinal: 'double' }, meetings(false));
    expect(reset.filter((m) => m.bracket === 'grand_final')).toHaveLength(2);
    expect(table(standings('double_elimination', ids(4), reset, { grandFinal: 'double' }))).toEqual([[1, 'p1'], [2, 'p2'], [3, 'p3'], [4, 'p4']]);
    // Between the two grand finals both are still in: they share first place.
    expect(table(standings('double_elimination', ids(4), reset.slice(0, -1), { grandFinal: 'double' })).slice(0, 2)).toEqual([[1, 'p1'], [1, 'p2']]);
  });

  it('the same places as brackets-manager’s final standings, played out with the same results', async () => {
    const cases: ['single_elimination' | 'double_elimination', StageSettings, Record<string, unknown>][] = [
      ['single_elimination', {}, {}],
      ['single_elimination', { thirdPlaceMatch: true }, { consolationFinal: true }],
      ['double_elimination', { grandFinal: 'simple' }, { grandFinal: 'simple' }],
      ['double_elimination', { grandFinal: 'double' }, { grandFinal: 'double' }],
      ['double_elimination', { grandFinal: 'none' }, { grandFinal: 'none' }],
    ];
    for (const [format, settings, managerSettings] of cases) {
      for (const n of [4, 5, 8, 11, 16, 23, 32]) {
        for (const salt of [1, 2]) {
          const seed = (id: string) => Number(id.slice(1));
          // The coin the brackets-manager comparison uses: same place, same two seeds, same winner.
          const played = playOut(format, n, settings, (a, b, match) => aWins(match.bracket ?? '-', match.roundNumber, match.position, seed(a), seed(b), salt) !== seed(a) < seed(b));
          const rows = standings(format, ids(n), played, settings);
          const ranks = await (await playManager(format, n, 2 ** Math.ceil(Math.log2(n)), managerSettings, salt)).ranks();
          expect(ranks.size).toBe(n);
          // Ours are competition ranks (1, 2, 3, 3, 5), theirs dense (1, 2, 3, 3, 4): compare the groups in order.
          const groups = (pairs: [number, number][]) => {
            const byRank = new Map<number, number[]>();
            for (const [id, rank] of pairs) byRank.set(rank, [...(byRank.get(rank) ?? []), id]);
            return [...byRank.entries()].sort(([x], [y]) => x - y).map(([, list]) => list.sort((x, y) => x - y));
          };
          expect(groups(rows.map((row) => [seed(row.participantId), row.rank])), `${format} ${JSON.stringify(settings)} N=${n} salt ${salt}`).toEqual(groups([...ranks]));
        }
      }
    }
  });

  it('property: every rank is one more than the number of participants who went out later (or won)', () => {
    fc.assert(
      fc.property(fc.constantFrom<'single_elimination' | 'double_elimination'>('single_elimination', 'double_elimination'), fc.integer({ min: 2, max: 80 }), fc.integer(), (format, n, seed) => {
        const random = mulberry32(seed);
        const played = playOut(format, n, {}, () => random() < 0.3);
        const rows = standings(format, ids(n), played);
        // When each went out: the index of the match it lost for the last time (the champion: never).
        const exit = new Map<string, number>(ids(n).map((id) => [id, Infinity]));
        played.forEach((match, position) => {
          if (match.isFreeWin || match.winner === null) return;
          const loser = match.winner === match.participantA ? match.participantB! : match.participantA!;
          if (match.loserTo == null || match.bracket === 'grand_final') exit.set(loser, position);
        });
        const round = (position: number) => (position === Infinity ? Infinity : [played[position].bracket, played[position].roundNumber].join());
        for (const row of rows) {
          const mine = exit.get(row.participantId)!;
          // Out in the same round of the same bracket: level; out in a later round (or never): above.
          const above = rows.filter((other) => exit.get(other.participantId)! > mine && round(exit.get(other.participantId)!) !== round(mine)).length;
          expect(row.rank, `${row.participantId} in ${format} of ${n}`).toBe(above + 1);
        }
        expect(rows.filter((row) => row.rank === 1)).toHaveLength(1);
        expect(rows.filter((row) => row.rank === 2)).toHaveLength(1);
      }),
      { numRuns: 120 },
    );
  });
});

describe('computeStandings: properties over random round robins', () => {
  it('ranks are a competition ranking consistent with the tiebreakers, and the input order does not matter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.integer(), fc.constantFrom<StageSettings['tiebreakers']>(undefined, ['points', 'head_to_head', 'wins'], ['points', 'buchholz', 'score_for']), (n, seed, tiebreakers) => {
        const random = mulberry32(seed);
        const matches: StandingsDuel[] = [];
        for (let i = 1; i <= n; i++) for (let j = i + 1; j <= n; j++) if (random() < 0.8) matches.push(duel(`p${i}`, `p${j}`, Math.floor(random() * 3), Math.floor(random() * 3)));
        const rows = standings('league', ids(n), matches, { tiebreakers });
        expect(rows.reduce((sum, row) => sum + row.wins, 0)).toBe(rows.reduce((sum, row) => sum + row.losses, 0));
        rows.forEach((row, i) => {
          if (i === 0) expect(row.rank).toBe(1);
          else expect(row.rank === rows[i - 1].rank || row.rank === i + 1).toBe(true);
          // Points come first: never a row with more points below.
          if (i > 0 && row.rank !== rows[i - 1].rank) expect(rows[i - 1].points).toBeGreaterThanOrEqual(row.points);
        });
        const shuffledParticipants = [...ids(n)].map((id, i) => ({ participantId: id, seed: i + 1 })).reverse();
        const again = computeStandings({ format: 'league', settings: resolvedSettings('league', { tiebreakers }), participants: shuffledParticipants, matches: [...matches].reverse() });
        expect(again).toEqual(rows);
      }),
      { numRuns: 150 },
    );
  });
});

describe('computeStandings: cost', () => {
  it('a 1,024-participant swiss stage after 10 rounds, and a played-out 1,024 double elimination, in milliseconds', () => {
    const n = 1024;
    const random = mulberry32(42);
    const participants = ids(n);
    const matches: StandingsMatch[] = [];
    const history: SwissHistoryEntry[] = [];
    const settings = resolvedSettings('swiss', {}, n);
    const record = (pairing: SwissPairing) => {
      for (const [a, b] of pairing.pairs) {
        history.push({ a, b });
        const roll = random();
        matches.push(duel(a, b, roll < 0.45 ? 2 : roll < 0.55 ? 1 : 0, roll < 0.45 ? 0 : roll < 0.55 ? 1 : 2));
      }
    };
    record(swissFirstRound(participants));
    for (let round = 2; round <= settings.rounds!; round++) {
      const rows = computeStandings({ format: 'swiss', settings, participants: seeded(participants), matches });
      record(swissNextRound({ standings: rows, history, roundNumber: round, rounds: settings.rounds! })!);
    }
    const time = (run: () => unknown) => {
      const samples: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        run();
        samples.push(performance.now() - started);
      }
      return samples.sort((x, y) => x - y)[3];
    };
    const swissMs = time(() => computeStandings({ format: 'swiss', settings, participants: seeded(participants), matches }));
    const bracket = playOut('double_elimination', n, {}, () => random() < 0.3);
    const deMs = time(() => standings('double_elimination', participants, bracket));
    console.log(`computeStandings, 1,024 participants (median of 7): swiss after ${settings.rounds} rounds (${matches.length} matches) ${swissMs.toFixed(1)} ms; double elimination played out (${bracket.length} matches) ${deMs.toFixed(1)} ms`);
    // Generous bounds for a loaded CI machine; the figures printed are what to look at.
    expect(swissMs).toBeLessThan(250);
    expect(deMs).toBeLessThan(250);
  });
});
