// Round robin (per group) and league (the whole stage): the circle method. Seed 1 stays put while
// the others rotate one place per round; with an odd count a phantom joins and whoever meets it
// rests that round (no match is made for the rest). Seed 1 alternates slots round by round and the
// others' slots follow the rotation, so home and away (a and b) stay balanced. A second leg repeats
// the first leg's rounds in order with a and b swapped.
import { newDuel, newRound } from './duels.ts';
import { matchdayName } from './round-names.ts';
import type { GeneratedDuel, GeneratedRound } from './types.ts';

/** The pairings of a single leg as seed pairs (1-based), one array per round, slot a first. */
function circlePairings(count: number): [number, number][][] {
  const seats = Array.from({ length: count + (count % 2) }, (_, index) => index + 1);
  const phantom = count % 2 === 1 ? seats.length : null;
  const rounds: [number, number][][] = [];
  for (let round = 0; round < seats.length - 1; round++) {
    const pairs: [number, number][] = [];
    for (let i = 0; i < seats.length / 2; i++) {
      const first = seats[i];
      const second = seats[seats.length - 1 - i];
      if (first === phantom || second === phantom) continue;
      // Alternating the fixed seat's slot, and the others' by their table side, balances home and away.
      const swap = i === 0 ? round % 2 === 1 : i % 2 === 1;
      pairs.push(swap ? [second, first] : [first, second]);
    }
    rounds.push(pairs);
    // Rotate everyone but seat 0 clockwise.
    seats.splice(1, 0, seats.pop()!);
  }
  return rounds;
}

export interface RoundRobinOptions {
  legs: 1 | 2;
  groupKey: string | null;
}

export function roundRobin(participants: readonly string[], options: RoundRobinOptions): { rounds: GeneratedRound[]; matches: GeneratedDuel[] } {
  const single = circlePairings(participants.length);
  const legs = options.legs === 2 ? [...single, ...single.map((pairs) => pairs.map(([a, b]): [number, number] => [b, a]))] : single;
  const prefix = options.groupKey === null ? 'rr' : `${options.groupKey}/rr`;
  const rounds: GeneratedRound[] = [];
  const matches: GeneratedDuel[] = [];
  legs.forEach((pairs, index) => {
    const number = index + 1;
    const round = newRound(`${prefix}:${number}`, options.groupKey, number, matchdayName(number), null);
    rounds.push(round);
    pairs.forEach(([a, b], position) => {
      const duel = newDuel(round, `${prefix}:${number}:${position + 1}`, position + 1);
      duel.sourceA = { type: 'seed', seed: a };
      duel.sourceB = { type: 'seed', seed: b };
      duel.participantA = participants[a - 1];
      duel.participantB = participants[b - 1];
      matches.push(duel);
    });
  });
  return { rounds, matches };
}
