// Swiss: round 1 is drawn by seed at generation (top half against bottom half); each later round is
// paired from the standings by pairSwissRound, which the caller runs once the previous round is over.
import { ApiError } from '../../shared/errors.ts';
import { newDuel, newRound } from './duels.ts';
import { swissRoundName } from './round-names.ts';
import type { GeneratedDuel, GeneratedRound } from './types.ts';

export interface SwissPairing {
  /** [a, b]: a is the better-ranked of the two. */
  pairs: [string, string][];
  /** Who sits out, counted a win; null for an even count. */
  bye: string | null;
}

/** Round 1 by seed: 1 v N/2+1, 2 v N/2+2, …; for an odd N the lowest seed has the bye. */
export function swissFirstRound(participants: readonly string[]): SwissPairing {
  const bye = participants.length % 2 === 1 ? participants[participants.length - 1] : null;
  const paired = bye === null ? participants : participants.slice(0, -1);
  const half = paired.length / 2;
  return { pairs: paired.slice(0, half).map((id, index): [string, string] => [id, paired[half + index]]), bye };
}

export interface SwissStanding {
  participantId: string;
  /** Match points so far; participants with equal points form a score group. */
  points: number;
}

export interface SwissHistoryEntry {
  a: string;
  /** null: `a` had a bye. */
  b: string | null;
}

// A late round can have no pairing without a rematch; the search gives up rather than hang.
const SEARCH_BUDGET = 200_000;

/**
 * Pairs a later round from the standings (best-ranked first, ties already broken by the stage's
 * tiebreakers) and the pairs already played. Rules, in order of strength:
 * - never a rematch (refused with 409 no_pairing_without_rematch if impossible);
 * - for an odd count, the bye goes to the lowest-ranked participant who has not had one (if all
 *   have, the lowest-ranked);
 * - pairs stay inside score groups; a group with an odd count, or whose members cannot all be
 *   paired without rematches, floats its lowest-ranked members down to the next group;
 * - inside a score group, the top half meets the bottom half in order (1st v (g/2+1)th, …).
 * The search takes the best-ranked unpaired participant and tries opponents in that order of
 * preference, backtracking when the rest cannot be paired.
 */
export function pairSwissRound(standings: readonly SwissStanding[], history: readonly SwissHistoryEntry[], roundNumber: number): SwissPairing {
  const ids = standings.map((standing) => standing.participantId);
  if (new Set(ids).size !== ids.length) throw new TypeError('A participant appears twice in the standings.');
  const points = new Map(standings.map((standing) => [standing.participantId, standing.points]));
  const met = new Set<string>();
  const hadBye = new Set<string>();
  for (const entry of history) {
    if (entry.b === null) hadBye.add(entry.a);
    else met.add(pairKey(entry.a, entry.b)).add(pairKey(entry.b, entry.a));
  }
  let budget = SEARCH_BUDGET;

  const pairRest = (remaining: string[]): [string, string][] | null => {
    if (remaining.length === 0) return [];
    if (--budget < 0) return null;
    const [top, ...others] = remaining;
    for (const opponent of preferenceOrder(top, others, points)) {
      if (met.has(pairKey(top, opponent))) continue;
      const rest = pairRest(others.filter((id) => id !== opponent));
      if (rest) return [[top, opponent], ...rest];
      if (budget < 0) return null;
    }
    return null;
  };

  const byeCandidates = ids.length % 2 === 0 ? [null] : [...ids.filter((id) => !hadBye.has(id)).reverse(), ...ids.filter((id) => hadBye.has(id)).reverse()];
  for (const bye of byeCandidates) {
    const pairs = pairRest(ids.filter((id) => id !== bye));
    if (pairs) return { pairs, bye };
    if (budget < 0) break;
  }
  throw new ApiError('conflict', `Round ${roundNumber} cannot be paired without a rematch.`, [{ field: 'rounds', issue: 'no_pairing_without_rematch' }]);
}

const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

/** Opponents for `top` from `others` (in rank order), best first. */
function preferenceOrder(top: string, others: string[], points: Map<string, number>): string[] {
  const own = points.get(top)!;
  const group = others.filter((id) => points.get(id) === own);
  // Dutch order inside the group (counting `top` as its first member): the member half a group
  // below first, then on down, then the ones above that half.
  const half = Math.floor((group.length + 1) / 2);
  const inGroup = [...group.slice(half - 1), ...group.slice(0, half - 1).reverse()];
  // Outside the group: the nearest score first (a float down before a float up), rank order within.
  const outside = others
    .filter((id) => points.get(id) !== own)
    .map((id, rank) => ({ id, rank, gap: Math.abs(points.get(id)! - own), below: points.get(id)! < own }))
    .sort((x, y) => x.gap - y.gap || Number(y.below) - Number(x.below) || x.rank - y.rank)
    .map((entry) => entry.id);
  return [...inGroup, ...outside];
}

/** Rounds and matches for one swiss round: the bye, if any, is a completed free win in last position. */
export function swissRoundMatches(roundNumber: number, pairing: SwissPairing, seedOf: (participantId: string) => number): { round: GeneratedRound; matches: GeneratedDuel[] } {
  const round = newRound(`sw:${roundNumber}`, null, roundNumber, swissRoundName(roundNumber), null);
  const matches = pairing.pairs.map(([a, b], index) => {
    const duel = newDuel(round, `sw:${roundNumber}:${index + 1}`, index + 1);
    if (roundNumber === 1) [duel.sourceA, duel.sourceB] = [{ type: 'seed', seed: seedOf(a) }, { type: 'seed', seed: seedOf(b) }];
    [duel.participantA, duel.participantB] = [a, b];
    return duel;
  });
  if (pairing.bye !== null) {
    const duel = newDuel(round, `sw:${roundNumber}:${matches.length + 1}`, matches.length + 1);
    if (roundNumber === 1) duel.sourceA = { type: 'seed', seed: seedOf(pairing.bye) };
    Object.assign(duel, { participantA: pairing.bye, isFreeWin: true, status: 'completed', winner: pairing.bye });
    matches.push(duel);
  }
  return { round, matches };
}
