// Double elimination: the single-elimination winners bracket, a losers bracket fed by its losers,
// and a grand final. The losers bracket follows brackets-manager's structure (and its orderings), so
// brackets drawn by either agree: losers round 1 pairs the winners-bracket round-1 losers; then
// each pair of rounds is a "major" round (losers-bracket survivors between themselves) followed by a
// "minor" round where the losers of the next winners round drop in, in slot a, against the major
// round's winners. The losers dropping in are reordered per round (reverse, half shift, …; table
// below) so that two participants who met in the winners bracket do not meet again at once.
import { link, newDuel, newRound, settleByes } from './duels.ts';
import { grandFinalRoundName, losersRoundName } from './round-names.ts';
import type { GrandFinalType } from './settings.ts';
import { buildWinnersBracket } from './single-elimination.ts';
import type { GeneratedDuel, GeneratedRound } from './types.ts';

type Ordering = 'natural' | 'reverse' | 'half_shift' | 'reverse_half_shift' | 'pair_flip';

const reorder: Record<Ordering, <T>(items: T[]) => T[]> = {
  natural: (items) => [...items],
  reverse: (items) => [...items].reverse(),
  half_shift: (items) => [...items.slice(items.length / 2), ...items.slice(0, items.length / 2)],
  reverse_half_shift: (items) => [...items.slice(0, items.length / 2).reverse(), ...items.slice(items.length / 2).reverse()],
  pair_flip: (items) => items.flatMap((_, i) => (i % 2 === 0 ? [items[i + 1], items[i]] : [])),
};

// brackets-manager's defaultMinorOrdering, by bracket size: [losers round 1, then each minor round].
const LOSER_ORDERINGS: Record<number, Ordering[]> = {
  4: ['natural', 'reverse'],
  8: ['natural', 'reverse', 'natural'],
  16: ['natural', 'reverse_half_shift', 'reverse', 'natural'],
  32: ['natural', 'reverse', 'half_shift', 'natural', 'natural'],
  64: ['natural', 'reverse', 'half_shift', 'reverse', 'natural', 'natural'],
  128: ['natural', 'reverse', 'half_shift', 'pair_flip', 'pair_flip', 'pair_flip', 'natural'],
};

/**
 * Beyond 128 brackets-manager has no table (it falls back to 'natural' everywhere, which lets
 * winners-bracket opponents meet again at once); we extend the 128 pattern with more pair flips.
 */
export function loserOrderings(size: number): Ordering[] {
  if (LOSER_ORDERINGS[size]) return LOSER_ORDERINGS[size];
  const roundCount = Math.log2(size);
  return ['natural', 'reverse', 'half_shift', ...Array<Ordering>(Math.max(0, roundCount - 4)).fill('pair_flip'), 'natural'];
}

export interface DoubleEliminationOptions {
  grandFinal: GrandFinalType;
}

export function doubleElimination(participants: readonly string[], options: DoubleEliminationOptions): { rounds: GeneratedRound[]; matches: GeneratedDuel[] } {
  const winners = buildWinnersBracket(participants);
  const rounds = [...winners.rounds];
  const matches = winners.duels.flat();
  const size = 2 ** winners.rounds.length;
  // Two participants: the final alone decides (as in brackets-manager); there is nobody to drop.
  if (size === 2) {
    settleByes(matches);
    return { rounds, matches };
  }
  const orderings = loserOrderings(size);
  const pairCount = winners.rounds.length - 1;
  const roundCount = 2 * pairCount;
  const losers: GeneratedDuel[][] = [];
  const addRound = (count: number) => {
    const number = losers.length + 1;
    const round = newRound(`lb:${number}`, null, number, losersRoundName(number, roundCount), 'losers');
    const current = Array.from({ length: count }, (_, index) => newDuel(round, `lb:${number}:${index + 1}`, index + 1));
    rounds.push(round);
    losers.push(current);
    matches.push(...current);
    return current;
  };
  for (let pair = 0; pair < pairCount; pair++) {
    const count = size / 2 ** (pair + 2);
    const major = addRound(count);
    if (pair === 0) {
      const dropping = reorder[orderings[0]](winners.duels[0]);
      major.forEach((duel, index) => {
        link(dropping[2 * index], 'loser', duel, 'a');
        link(dropping[2 * index + 1], 'loser', duel, 'b');
      });
    } else {
      const previous = losers[losers.length - 2];
      major.forEach((duel, index) => {
        link(previous[2 * index], 'winner', duel, 'a');
        link(previous[2 * index + 1], 'winner', duel, 'b');
      });
    }
    const minor = addRound(count);
    // The last minor round has one winners-bracket loser: nothing to reorder.
    const ordering = pair === pairCount - 1 ? 'natural' : orderings[1 + pair];
    const dropping = reorder[ordering](winners.duels[pair + 1]);
    minor.forEach((duel, index) => {
      link(dropping[index], 'loser', duel, 'a');
      link(major[index], 'winner', duel, 'b');
    });
  }
  if (options.grandFinal !== 'none') {
    const round = newRound('gf:1', null, 1, grandFinalRoundName(1), 'grand_final');
    const final = newDuel(round, 'gf:1:1', 1);
    link(winners.duels[winners.duels.length - 1][0], 'winner', final, 'a');
    link(losers[losers.length - 1][0], 'winner', final, 'b');
    rounds.push(round);
    matches.push(final);
    if (options.grandFinal === 'double') {
      const resetRound = newRound('gf:2', null, 2, grandFinalRoundName(2), 'grand_final');
      const reset = newDuel(resetRound, 'gf:2:1', 1);
      reset.isGrandFinalReset = true;
      // Played only when the losers-bracket champion won the first: then its loser is the
      // winners-bracket champion, who keeps slot a as in the first (as brackets-manager does).
      link(final, 'loser', reset, 'a');
      link(final, 'winner', reset, 'b');
      rounds.push(resetRound);
      matches.push(reset);
    }
  }
  settleByes(matches);
  return { rounds, matches };
}
