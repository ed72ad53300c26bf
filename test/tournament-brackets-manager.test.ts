// The engine's brackets against brackets-manager's for the same seeding: the same rounds and round
// sizes, the same byes, the same round-1 pairs, and, played out with the same outcomes, the same two
// seeds in every match, which pins down every winner and loser destination.
// Where the engine deliberately differs:
// - brackets-manager refuses a field that is not a power of two; it is given the field padded with
//   BYEs (seeds beyond N), which is what the engine does itself;
// - double elimination beyond 128 slots: brackets-manager has no loser-drop ordering table and falls
//   back to 'natural'; the engine extends the 128 pattern (double-elimination.ts), so only the
//   winners bracket and the round sizes are compared there;
// - round robin: both use a circle method, but rounds come out in a different order and with other
//   home/away choices; the round count, round sizes and the set of pairs are compared;
// - grand final reset: brackets-manager always readies the second grand final and leaves it to its
//   user to skip it when the winners-bracket champion won the first; the engine marks it
//   (isGrandFinalReset) and its simulation skips it in that case, as the simulation of
//   brackets-manager does.
import { describe, expect, it } from 'vitest';
import { generateStage, resolvedSettings, type GeneratedDuel, type StageFormat, type StageSettings } from '../subgraphs/competitions/tournament/index.ts';
import { playGenerated, playManager } from './support/tournament-simulation.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const nextPow2 = (n: number) => 2 ** Math.ceil(Math.log2(n));
const generate = (format: StageFormat, n: number, settings: StageSettings = {}) =>
  generateStage({ format, settings: resolvedSettings(format, settings), participants: ids(n) });

function engineStructure(matches: GeneratedDuel[]) {
  const roundSizes = new Map<string, number[]>();
  const byes = new Set<string>();
  for (const m of matches) {
    const bracket = m.bracket ?? '-';
    const sizes = roundSizes.get(bracket) ?? [];
    sizes[m.roundNumber - 1] = (sizes[m.roundNumber - 1] ?? 0) + 1;
    roundSizes.set(bracket, sizes);
    const place = `${bracket}/${m.roundNumber}/${m.position}`;
    if (m.sourceA === null) byes.add(`${place}/a`);
    if (m.sourceB === null) byes.add(`${place}/b`);
  }
  return { roundSizes, byes };
}

const seedOf = (id: string | null) => (id === null ? null : Number(id.slice(1)));

async function compareElimination(format: 'single_elimination' | 'double_elimination', n: number, settings: StageSettings, managerSettings: Record<string, unknown>, fullCompare = true) {
  const size = nextPow2(n);
  const stage = generate(format, n, settings);
  const duels = stage.matches as GeneratedDuel[];
  for (const salt of [1, 2]) {
    const { before, after } = await playManager(format, n, size, managerSettings, salt);
    const mine = engineStructure(duels);
    if (!fullCompare) {
      expect(mine.roundSizes, `round sizes N=${n}`).toEqual(before.roundSizes);
      const winners = (played: Map<string, unknown>) => new Map([...played].filter(([place]) => place.startsWith('winners/')));
      expect(winners(playGenerated(stage.matches, ids(n), salt)), `winners bracket N=${n}`).toEqual(winners(after));
      continue;
    }
    expect(mine.roundSizes, `round sizes N=${n}`).toEqual(before.roundSizes);
    expect(mine.byes, `byes N=${n}`).toEqual(before.byes);
    // Round 1: the same seeds, in the same slots.
    const firstRound = (matches: { place: string; a: number | null; b: number | null }[]) => matches.filter((m) => m.place.startsWith('winners/1/'));
    expect(firstRound(duels.map((m) => ({ place: `winners/1/${m.position}`, a: seedOf(m.participantA), b: seedOf(m.participantB), round: m.roundNumber, bracket: m.bracket })).filter((m) => m.round === 1 && m.bracket === 'winners').map(({ place, a, b }) => ({ place, a, b })))).toEqual(firstRound(before.matches));
    const played = playGenerated(stage.matches, ids(n), salt);
    expect(played, `played N=${n} salt=${salt}`).toEqual(after);
    if (format === 'single_elimination') expect(played.size).toBe(n - 1 + (settings.thirdPlaceMatch ? 1 : 0));
    // n − 1 winners-bracket and n − 2 losers-bracket matches are played, then the grand final(s).
    else if (n > 2) expect(played.size - (2 * n - 3 + (settings.grandFinal === 'none' ? 0 : 1))).toBeOneOf(settings.grandFinal === 'double' ? [0, 1] : [0]);
  }
}

describe('single elimination against brackets-manager', () => {
  it('N = 2..64: structure, byes, round 1 and every destination', async () => {
    for (let n = 2; n <= 64; n++) await compareElimination('single_elimination', n, {}, {});
  });
  it('with a third-place match (consolation final), N = 4..40', async () => {
    for (let n = 4; n <= 40; n++) await compareElimination('single_elimination', n, { thirdPlaceMatch: true }, { consolationFinal: true });
  });
  it('a few large fields up to 256', async () => {
    for (const n of [100, 128, 129, 200, 256]) await compareElimination('single_elimination', n, {}, {});
  });
});

describe('double elimination against brackets-manager', () => {
  it('N = 2..64, simple grand final', async () => {
    for (let n = 2; n <= 64; n++) await compareElimination('double_elimination', n, { grandFinal: 'simple' }, { grandFinal: 'simple' });
  });
  it('N = 3..40, double grand final (reset) and none', async () => {
    for (let n = 3; n <= 40; n++) {
      await compareElimination('double_elimination', n, { grandFinal: 'double' }, { grandFinal: 'double' });
      await compareElimination('double_elimination', n, { grandFinal: 'none' }, { grandFinal: 'none' });
    }
  });
  it('large fields: 65, 100, 128 in full; 129 and 256 (no brackets-manager ordering table) winners bracket and sizes', async () => {
    for (const n of [65, 100, 128]) await compareElimination('double_elimination', n, {}, { grandFinal: 'simple' });
    for (const n of [129, 256]) await compareElimination('double_elimination', n, {}, { grandFinal: 'simple' }, false);
  });
});

describe('round robin against brackets-manager', () => {
  it('N = 2..40, one and two legs: round count, round sizes, the pairs', async () => {
    for (let n = 2; n <= 40; n++) {
      for (const legs of [1, 2] as const) {
        const stage = generate('round_robin', n, { legs });
        const { before } = await playManager('round_robin', n, n, { groupCount: 1, roundRobinMode: legs === 2 ? 'double' : 'simple' }, 0);
        const mine = engineStructure(stage.matches as GeneratedDuel[]);
        expect(mine.roundSizes.get('-'), `N=${n} legs=${legs}`).toEqual(before.roundSizes.get('-'));
        const pairs = (list: [number | null, number | null][]) => list.map(([a, b]) => [Math.min(a!, b!), Math.max(a!, b!)].join('-')).sort();
        expect(pairs((stage.matches as GeneratedDuel[]).map((m) => [seedOf(m.participantA), seedOf(m.participantB)]))).toEqual(pairs(before.matches.map((m) => [m.a, m.b])));
      }
    }
  });
});
