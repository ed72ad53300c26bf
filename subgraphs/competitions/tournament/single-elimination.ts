// Single elimination: a bracket of P = the next power of two ≥ N slots in standard seed order, so
// the P − N byes fall to the top seeds; P − 1 matches, and a third-place match on request.
import { link, newDuel, newRound, seedSlot, settleByes } from './duels.ts';
import { eliminationRoundName, THIRD_PLACE_ROUND_NAME } from './round-names.ts';
import { nextPowerOfTwo, standardBracketOrder } from './seeding.ts';
import type { GeneratedDuel, GeneratedRound } from './types.ts';

export interface EliminationBracket {
  rounds: GeneratedRound[];
  /** Per round, its duels in position order. */
  duels: GeneratedDuel[][];
}

/**
 * The winners bracket (the only one in single elimination), byes not yet settled. Round 1 pairs the
 * standard order two by two, top seed in slot a; later, match i takes the winners of matches 2i − 1
 * (slot a) and 2i (slot b) of the round before.
 */
export function buildWinnersBracket(participants: readonly string[]): EliminationBracket {
  const size = nextPowerOfTwo(participants.length);
  const roundCount = Math.log2(size);
  const order = standardBracketOrder(size);
  const rounds: GeneratedRound[] = [];
  const duels: GeneratedDuel[][] = [];
  for (let number = 1; number <= roundCount; number++) {
    const round = newRound(`wb:${number}`, null, number, eliminationRoundName(number, roundCount), 'winners');
    const count = size / 2 ** number;
    const current = Array.from({ length: count }, (_, index) => newDuel(round, `wb:${number}:${index + 1}`, index + 1));
    current.forEach((duel, index) => {
      if (number === 1) {
        seedSlot(duel, 'a', order[2 * index], participants);
        seedSlot(duel, 'b', order[2 * index + 1], participants);
      } else {
        link(duels[number - 2][2 * index], 'winner', duel, 'a');
        link(duels[number - 2][2 * index + 1], 'winner', duel, 'b');
      }
    });
    rounds.push(round);
    duels.push(current);
  }
  return { rounds, duels };
}

export interface SingleEliminationOptions {
  thirdPlaceMatch: boolean;
}

export function singleElimination(participants: readonly string[], options: SingleEliminationOptions): { rounds: GeneratedRound[]; matches: GeneratedDuel[] } {
  const { rounds, duels } = buildWinnersBracket(participants);
  const matches = duels.flat();
  // With fewer than four, one semi-final is a bye and has no loser to play for third place.
  if (options.thirdPlaceMatch && participants.length >= 4) {
    const round = newRound('3p:1', null, 1, THIRD_PLACE_ROUND_NAME, 'third_place');
    const match = newDuel(round, '3p:1:1', 1);
    const semis = duels[duels.length - 2];
    link(semis[0], 'loser', match, 'a');
    link(semis[1], 'loser', match, 'b');
    rounds.push(round);
    matches.push(match);
  }
  settleByes(matches);
  return { rounds, matches };
}
