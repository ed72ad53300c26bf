// Properties of generated stages over field sizes 2..256 and every format and setting, plus a few
// exact cases. The comparison with brackets-manager lives in tournament-brackets-manager.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
} from '../platform/api/errors.ts';
import {
  generateStage,
  MAX_STAGE_MATCHES,
  resolvedSettings,
  snakeDistribution,
  TooFewParticipantsError,
  type GeneratedDuel,
  type GeneratedFfaMatch,
  type GeneratedStage,
  type StageFormat,
  type StageSettings,
} from '../subgraphs/competitions/tournament/index.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const nextPow2 = (n: number) => 2 ** Math.ceil(Math.log2(n));
const generate = (format: StageFormat, n: number, settings: StageSettings = {}, groups?: { key: string; participants: string[] }[]) =>
  generateStage({ format, settings: resolvedSettings(format, settings, n), participants: ids(n), groups });
const duels = (stage: GeneratedStage) => stage.matches.filter((m): m is GeneratedDuel => m.kind === 'duel');
const RUNS = { numRuns: 60 };

/** Rounds, positions, keys and links: what every generated stage must satisfy. */
function checkStructure(stage: GeneratedStage) {
  const keys = new Set(stage.matches.map((m) => m.key));
  expect(keys.size).toBe(stage.matches.length);
  expect(new Set(stage.rounds.map((r) => r.key)).size).toBe(stage.rounds.length);
  // Round numbers contiguous from 1 within each (group, bracket).
  const numbers = new Map<string, number[]>();
  for (const round of stage.rounds) {
    const scope = `${round.groupKey}/${round.bracket}`;
    numbers.set(scope, [...(numbers.get(scope) ?? []), round.number]);
  }
  for (const list of numbers.values()) expect(list).toEqual(list.map((_, i) => i + 1));
  // Every match sits in a listed round it agrees with; positions contiguous from 1 in each round.
  const rounds = new Map(stage.rounds.map((r) => [r.key, r]));
  const positions = new Map<string, number[]>();
  for (const match of stage.matches) {
    const round = rounds.get(match.roundKey)!;
    expect(round).toBeDefined();
    expect([match.roundNumber, match.bracket, match.groupKey]).toEqual([round.number, round.bracket, round.groupKey]);
    positions.set(round.key, [...(positions.get(round.key) ?? []), match.position]);
  }
  for (const round of stage.rounds) {
    const list = (positions.get(round.key) ?? []).sort((a, b) => a - b);
    expect(list.length, `round ${round.key} has matches`).toBeGreaterThan(0);
    expect(list).toEqual(list.map((_, i) => i + 1));
  }
  // Links: each destination exists, each slot is fed at most once, and sources are their inverse.
  const byKey = new Map(duels(stage).map((m) => [m.key, m]));
  const fed = new Set<string>();
  for (const match of byKey.values()) {
    for (const [outcome, to] of [['winner', match.winnerTo], ['loser', match.loserTo]] as const) {
      if (!to) continue;
      const target = byKey.get(to.matchKey)!;
      expect(target, `${match.key} → ${to.matchKey}`).toBeDefined();
      const slot = `${to.matchKey}/${to.slot}`;
      expect(fed.has(slot), `${slot} fed twice`).toBe(false);
      fed.add(slot);
      expect(to.slot === 'a' ? target.sourceA : target.sourceB).toEqual({ type: outcome, matchKey: match.key });
    }
    for (const [slot, source] of [['a', match.sourceA], ['b', match.sourceB]] as const) {
      if (!source || source.type === 'seed') continue;
      const from = byKey.get(source.matchKey)!;
      expect(source.type === 'winner' ? from.winnerTo : from.loserTo).toEqual({ matchKey: match.key, slot });
    }
    // Free wins and only they may start completed; a completed free win's winner is its participant.
    if (match.status === 'completed') expect(match.isFreeWin).toBe(true);
    if (match.winner !== null) expect([match.participantA, match.participantB]).toContain(match.winner);
  }
}

/** Each participant exactly once in the winners bracket's round 1, the byes to the top seeds. */
function checkFirstRound(stage: GeneratedStage, n: number) {
  const first = duels(stage).filter((m) => m.bracket === 'winners' && m.roundNumber === 1);
  const present = first.flatMap((m) => [m.participantA, m.participantB]).filter((id) => id !== null);
  expect([...present].sort()).toEqual(ids(n).sort());
  const byes = first.filter((m) => m.isFreeWin);
  expect(byes.length).toBe(nextPow2(n) - n);
  expect(byes.map((m) => m.winner).sort()).toEqual(ids(nextPow2(n) - n).sort());
  for (const bye of byes) {
    expect(bye.status).toBe('completed');
    expect(bye.participantB).toBeNull();
    expect(bye.loserTo).toBeNull();
    // Its winner already stands in round 2.
    const next = duels(stage).find((m) => m.key === bye.winnerTo!.matchKey)!;
    expect(bye.winnerTo!.slot === 'a' ? next.participantA : next.participantB).toBe(bye.winner);
  }
}

const size = fc.integer({ min: 2, max: 256 });

describe('single elimination', () => {
  it('P − 1 matches, N − 1 of them played, byes to the top seeds, an optional third-place match', () => {
    fc.assert(
      fc.property(size, fc.boolean(), (n, thirdPlaceMatch) => {
        const stage = generate('single_elimination', n, { thirdPlaceMatch });
        checkStructure(stage);
        checkFirstRound(stage, n);
        const third = thirdPlaceMatch && n >= 4 ? 1 : 0;
        expect(stage.matches.length).toBe(nextPow2(n) - 1 + third);
        expect(stage.matches.filter((m) => !m.isFreeWin).length).toBe(n - 1 + third);
        expect(stage.rounds.length).toBe(Math.log2(nextPow2(n)) + third);
      }),
      RUNS,
    );
  });

  it('standard seed order, round names and the third-place match of 16', () => {
    const stage = generate('single_elimination', 16, { thirdPlaceMatch: true });
    const first = duels(stage).filter((m) => m.roundNumber === 1 && m.bracket === 'winners');
    expect(first.map((m) => [m.participantA, m.participantB].map((id) => Number(id!.slice(1))))).toEqual([
      [1, 16], [8, 9], [4, 13], [5, 12], [2, 15], [7, 10], [3, 14], [6, 11],
    ]);
    expect(stage.rounds.map((r) => r.name)).toEqual(['Round of 16', 'Quarter-finals', 'Semi-finals', 'Final', 'Third-place match']);
    const third = duels(stage).find((m) => m.bracket === 'third_place')!;
    expect([third.sourceA, third.sourceB]).toEqual([{ type: 'loser', matchKey: 'wb:3:1' }, { type: 'loser', matchKey: 'wb:3:2' }]);
    expect(generate('single_elimination', 64).rounds[0].name).toBe('Round of 64');
  });

  it('three participants: one bye, no third-place match', () => {
    const stage = generate('single_elimination', 3, { thirdPlaceMatch: true });
    expect(stage.matches.length).toBe(3);
    const [bye, real, final] = duels(stage);
    expect([bye.isFreeWin, bye.status, bye.winner]).toEqual([true, 'completed', 'p1']);
    expect([real.participantA, real.participantB, real.status]).toEqual(['p2', 'p3', 'scheduled']);
    expect([final.participantA, final.participantB]).toEqual(['p1', null]);
  });
});

describe('double elimination', () => {
  it('winners bracket P − 1, losers bracket P − 2, grand finals 0, 1 or 2; N − 1 + N − 2 losers matches played', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 256 }), fc.constantFrom('simple', 'double', 'none' as const), (n, grandFinal) => {
        const stage = generate('double_elimination', n, { grandFinal });
        checkStructure(stage);
        checkFirstRound(stage, n);
        const p = nextPow2(n);
        const of = (bracket: string) => duels(stage).filter((m) => m.bracket === bracket);
        expect(of('winners').length).toBe(p - 1);
        expect(of('losers').length).toBe(p - 2);
        expect(of('grand_final').length).toBe({ simple: 1, double: 2, none: 0 }[grandFinal]);
        // Every winners-bracket loser drops once; all but one are knocked out by a played losers match.
        expect(of('losers').filter((m) => !m.isFreeWin).length).toBe(n - 2);
        expect(of('winners').filter((m) => !m.isFreeWin).every((m) => m.loserTo?.matchKey.startsWith('lb:'))).toBe(true);
        // The losers final is the last losers round and feeds the grand final (or nothing with none).
        const lbFinal = of('losers').at(-1)!;
        expect(stage.rounds.find((r) => r.key === lbFinal.roundKey)!.name).toBe('Losers final');
        expect(lbFinal.winnerTo?.matchKey ?? null).toBe(grandFinal === 'none' ? null : 'gf:1:1');
        const reset = of('grand_final').find((m) => m.isGrandFinalReset);
        if (grandFinal === 'double') {
          expect([reset!.roundNumber, reset!.sourceA, reset!.sourceB]).toEqual([2, { type: 'loser', matchKey: 'gf:1:1' }, { type: 'winner', matchKey: 'gf:1:1' }]);
        } else expect(reset).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('two participants: the final alone', () => {
    const stage = generate('double_elimination', 2, { grandFinal: 'double' });
    expect(stage.matches.length).toBe(1);
    expect(stage.rounds.map((r) => r.name)).toEqual(['Final']);
  });

  it('round names and the byes of 5 carried into the losers bracket', () => {
    const stage = generate('double_elimination', 5, { grandFinal: 'double' });
    expect(stage.rounds.map((r) => r.name)).toEqual(['Quarter-finals', 'Semi-finals', 'Final', 'Losers round 1', 'Losers round 2', 'Losers round 3', 'Losers final', 'Grand final', 'Grand final reset']);
    const byKey = new Map(duels(stage).map((m) => [m.key, m]));
    // Losers round 1: nobody v loser of 4 v 5 (a free win still to come) and nobody v nobody.
    expect(byKey.get('lb:1:1')).toMatchObject({ isFreeWin: true, status: 'scheduled', sourceA: null, sourceB: { type: 'loser', matchKey: 'wb:1:2' } });
    expect(byKey.get('lb:1:2')).toMatchObject({ isFreeWin: true, status: 'completed', winner: null, winnerTo: null });
    // The slot that nobody feeds makes the next losers match a free win in turn.
    expect(byKey.get('lb:2:2')).toMatchObject({ isFreeWin: true, sourceA: { type: 'loser', matchKey: 'wb:2:1' }, sourceB: null });
  });
});

function checkRoundRobin(stage: GeneratedStage, members: string[], legs: 1 | 2, groupKey: string | null) {
  const n = members.length;
  const mine = duels(stage).filter((m) => m.groupKey === groupKey);
  const rounds = stage.rounds.filter((r) => r.groupKey === groupKey);
  expect(rounds.length).toBe((n - 1 + (n % 2)) * legs);
  expect(rounds.map((r) => r.name)).toEqual(rounds.map((_, i) => `Matchday ${i + 1}`));
  const byRound = new Map<string, GeneratedDuel[]>();
  for (const match of mine) byRound.set(match.roundKey, [...(byRound.get(match.roundKey) ?? []), match]);
  for (const round of rounds) {
    const inRound = byRound.get(round.key) ?? [];
    const playing = inRound.flatMap((m) => [m.participantA, m.participantB]);
    expect([inRound.length, new Set(playing).size]).toEqual([Math.floor(n / 2), playing.length]);
  }
  const ordered = new Map<string, number>();
  const problems: string[] = [];
  const memberSet = new Set(members);
  for (const match of mine) {
    if (!memberSet.has(match.participantA!) || !memberSet.has(match.participantB!)) problems.push(`${match.key}: a stranger`);
    if (match.bracket !== null || match.winnerTo || match.loserTo || match.isFreeWin || match.status !== 'scheduled') problems.push(`${match.key}: not a plain match`);
    const key = `${match.participantA}>${match.participantB}`;
    ordered.set(key, (ordered.get(key) ?? 0) + 1);
  }
  // Each pair meets `legs` times; with two legs once each way round.
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const there = ordered.get(`${members[i]}>${members[j]}`) ?? 0;
      const back = ordered.get(`${members[j]}>${members[i]}`) ?? 0;
      if (there + back !== legs || (legs === 2 && there !== 1)) problems.push(`${members[i]} v ${members[j]}: ${there} + ${back}`);
    }
  }
  expect(problems).toEqual([]);
}

describe('round robin and league', () => {
  it('league: every pair meets legs times, nobody twice in a round, one rest per round for odd counts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.constantFrom(1, 2 as const), (n, legs) => {
        const stage = generate('league', n, { legs });
        checkStructure(stage);
        checkRoundRobin(stage, ids(n), legs, null);
      }),
      { numRuns: 40 },
    );
  });

  it('round robin per group, sources naming stage seeds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 96 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom(1, 2 as const), (n, groupCount, legs) => {
        const count = Math.min(groupCount, Math.floor(n / 2));
        // Snake the seeds into groups, as an organiser's draw would.
        const groups = Array.from({ length: count }, (_, g) => ({ key: `g${g + 1}`, participants: [] as string[] }));
        snakeDistribution(n, count).forEach((g, i) => groups[g].participants.push(`p${i + 1}`));
        // Over the bound of matches a start may generate: refused (tested below), not drawn.
        fc.pre(groups.reduce((sum, group) => sum + (group.participants.length * (group.participants.length - 1) * legs) / 2, 0) <= MAX_STAGE_MATCHES);
        const stage = generate('round_robin', n, { legs }, groups);
        checkStructure(stage);
        for (const group of groups) checkRoundRobin(stage, group.participants, legs, group.key);
        for (const match of duels(stage)) {
          expect(match.sourceA).toEqual({ type: 'seed', seed: Number(match.participantA!.slice(1)) });
          expect(match.sourceB).toEqual({ type: 'seed', seed: Number(match.participantB!.slice(1)) });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('home and away balanced within one: each plays slot a ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ times in a single leg', () => {
    for (let n = 2; n <= 30; n++) {
      const home = new Map<string, number>();
      for (const m of duels(generate('league', n))) home.set(m.participantA!, (home.get(m.participantA!) ?? 0) + 1);
      const games = n - 1;
      for (const id of ids(n)) expect(Math.abs(2 * (home.get(id) ?? 0) - games)).toBeLessThanOrEqual(2);
    }
  });
});

describe('swiss round 1', () => {
  it('top half against bottom half, the bye (a completed free win) to the lowest seed', () => {
    fc.assert(
      fc.property(size, (n) => {
        const stage = generate('swiss', n);
        checkStructure(stage);
        expect(stage.rounds).toEqual([{ key: 'sw:1', groupKey: null, number: 1, name: 'Round 1', bracket: null }]);
        const matches = duels(stage);
        const paired = n - (n % 2);
        matches.slice(0, paired / 2).forEach((m, i) => expect([m.participantA, m.participantB]).toEqual([`p${i + 1}`, `p${i + 1 + paired / 2}`]));
        const present = matches.flatMap((m) => [m.participantA, m.participantB]).filter((id) => id !== null);
        expect(present.sort()).toEqual(ids(n).sort());
        if (n % 2 === 1) expect(matches.at(-1)).toMatchObject({ participantA: `p${n}`, participantB: null, isFreeWin: true, status: 'completed', winner: `p${n}` });
        else expect(matches.every((m) => !m.isFreeWin)).toBe(true);
      }),
      RUNS,
    );
  });

  it('refuses more rounds than can be played without rematches', () => {
    expect(() => generate('swiss', 4, { rounds: 4 })).toThrow(expect.objectContaining({ code: 'validation_failed', details: [expect.objectContaining({ field: 'settings.rounds' })] }));
    expect(generate('swiss', 4, { rounds: 3 }).matches.length).toBe(2);
  });
});

describe('ffa', () => {
  it('every participant in exactly one match, ⌈N / per match⌉ matches, sizes differing by at most one', () => {
    fc.assert(
      fc.property(size, fc.option(fc.integer({ min: 2, max: 64 }), { nil: undefined }), (n, participantsPerMatch) => {
        const stage = generate('ffa', n, participantsPerMatch === undefined ? {} : { participantsPerMatch });
        checkStructure(stage);
        const matches = stage.matches as GeneratedFfaMatch[];
        const perMatch = participantsPerMatch ?? n;
        expect(matches.length).toBe(Math.ceil(n / perMatch));
        expect(matches.flatMap((m) => m.opponents).sort()).toEqual(ids(n).sort());
        const sizes = matches.map((m) => m.opponents.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(perMatch);
        for (const m of matches) expect(m.isFreeWin).toBe(m.opponents.length === 1);
        expect(stage.rounds.map((r) => r.name)).toEqual(['Round 1']);
      }),
      RUNS,
    );
  });

  it('snakes the seeds: 10 in lobbies of 4', () => {
    const matches = generate('ffa', 10, { participantsPerMatch: 4 }).matches as GeneratedFfaMatch[];
    expect(matches.map((m) => m.opponents.map((id) => Number(id.slice(1))))).toEqual([[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]);
  });
});

describe('groups', () => {
  const snakeGroups = (n: number, count: number) => {
    const groups = Array.from({ length: count }, (_, g) => ({ key: `g${g + 1}`, participants: [] as string[] }));
    snakeDistribution(n, count).forEach((g, i) => groups[g].participants.push(`p${i + 1}`));
    return groups;
  };
  it('swiss and ffa play each group separately: round 1 of a group is the group drawn alone, sources naming stage seeds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 128 }), fc.integer({ min: 2, max: 8 }), fc.constantFrom('swiss' as const, 'ffa' as const), (n, count, format) => {
        fc.pre(n >= count * 2);
        const groups = snakeGroups(n, count);
        const settings = format === 'ffa' ? { participantsPerMatch: 4 } : {};
        const smallest = Math.min(...groups.map((group) => group.participants.length));
        const stage = generateStage({ format, settings: resolvedSettings(format, settings, smallest), participants: ids(n), groups });
        checkStructure(stage);
        for (const group of groups) {
          const alone = generateStage({ format, settings: resolvedSettings(format, settings, smallest), participants: group.participants });
          const mine = stage.matches.filter((m) => m.groupKey === group.key);
          expect(stage.rounds.filter((r) => r.groupKey === group.key).map((r) => r.name)).toEqual(alone.rounds.map((r) => r.name));
          const who = (m: GeneratedStage['matches'][number]) => (m.kind === 'ffa' ? m.opponents : [m.participantA, m.participantB]);
          expect(mine.map(who)).toEqual(alone.matches.map(who));
          for (const m of mine) {
            if (m.kind !== 'duel') continue;
            if (m.sourceA?.type === 'seed') expect(`p${m.sourceA.seed}`).toBe(m.participantA);
            if (m.sourceB?.type === 'seed') expect(`p${m.sourceB.seed}`).toBe(m.participantB);
          }
        }
      }),
      RUNS,
    );
  });

  it('a league and the elimination formats ignore groups (stage creation refuses them)', () => {
    const groups = snakeGroups(8, 2);
    for (const format of ['league', 'single_elimination', 'double_elimination'] as const) {
      expect(generate(format, 8, {}, groups)).toEqual(generate(format, 8));
    }
  });

  it('swiss rounds are bounded by the smallest group', () => {
    const groups = [{ key: 'a', participants: ids(8).slice(0, 5) }, { key: 'b', participants: ids(8).slice(5) }];
    expect(() => generateStage({ format: 'swiss', settings: resolvedSettings('swiss', { rounds: 4 }), participants: ids(8), groups })).toThrow(
      expect.objectContaining({ details: [{ field: 'settings.rounds', issue: 'at most 3 for 3 participants' }] }),
    );
  });
});

describe('refusals', () => {
  it('bounds what one start generates: more than 1,024 participants, or a round robin of more than 4,096 matches, is 409', () => {
    const refused = (input: Parameters<typeof generateStage>[0]) => {
      try {
        generateStage(input);
      } catch (error) {
        return error;
      }
      return null;
    };
    for (const format of ['single_elimination', 'double_elimination', 'swiss', 'ffa', 'league', 'round_robin'] as const) {
      expect(refused({ format, settings: resolvedSettings(format, {}), participants: ids(1_025) })).toMatchObject({ status: 409, details: [{ issue: 'too_many_participants' }] });
      // 1,024 in one table would be 523,776 matches: refused as too_many_matches below.
      if (format !== 'league' && format !== 'round_robin') expect(refused({ format, settings: resolvedSettings(format, {}), participants: ids(1_024) }), format).toBe(null);
    }
    expect(refused({ format: 'league', settings: resolvedSettings('league', {}), participants: ids(256) })).toMatchObject({ status: 409, details: [{ issue: 'too_many_matches' }] });
    // 64 teams, two legs: 4,032 matches, the largest league under the bound; 65 teams is 4,160.
    expect(refused({ format: 'league', settings: resolvedSettings('league', { legs: 2 }), participants: ids(64) })).toBe(null);
    expect(refused({ format: 'league', settings: resolvedSettings('league', { legs: 2 }), participants: ids(65) })).toMatchObject({ status: 409, details: [{ issue: 'too_many_matches' }] });
    // Groups count together: four groups of 64 in one leg are 8,064 matches.
    const groups = [0, 1, 2, 3].map((g) => ({ key: `g${g}`, participants: ids(256).slice(g * 64, g * 64 + 64) }));
    expect(refused({ format: 'round_robin', settings: resolvedSettings('round_robin', {}), participants: ids(256), groups })).toMatchObject({ details: [{ issue: 'too_many_matches' }] });
  });

  it('fewer than two participants is too_few_participants (409)', () => {
    for (const format of ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'league', 'ffa'] as const) {
      let error: unknown;
      try {
        generate(format, 1);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TooFewParticipantsError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 409, code: 'conflict', details: [{ field: 'participants', issue: 'too_few_participants' }] });
    }
    expect(() => generate('round_robin', 4, {}, [{ key: 'a', participants: ['p1', 'p2', 'p3'] }, { key: 'b', participants: ['p4'] }])).toThrow(TooFewParticipantsError);
  });

  it('a participant seeded twice or a group member not in the stage is refused', () => {
    expect(() => generateStage({ format: 'league', settings: resolvedSettings('league', {}), participants: ['x', 'y', 'x'] })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => generate('round_robin', 2, {}, [{ key: 'a', participants: ['p1', 'zz'] }])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => generate('round_robin', 4, {}, [{ key: 'a', participants: ['p1', 'p2'] }, { key: 'b', participants: ['p2', 'p3', 'p4'] }])).toThrow(expect.objectContaining({ details: [{ field: 'groups.1.participants', issue: 'participant p2 already in group 0' }] }));
    expect(() => generate('round_robin', 4, {}, [{ key: 'a', participants: ['p1', 'p2', 'p3'] }])).toThrow(expect.objectContaining({ details: [{ field: 'groups', issue: 'participants in no group: p4' }] }));
  });
});
