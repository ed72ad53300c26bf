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

// A late round can have no pairing without a rematch, and proving so (or that no cheaper pairing
// exists) can take long: each search gives up after this many steps.
const SEARCH_BUDGET = 10_000;

/**
 * Pairs a later round from the standings (best-ranked first, ties already broken by the stage's
 * tiebreakers) and the pairs already played. Rules, in order of strength:
 * - never a rematch (refused with 409 no_pairing_without_rematch if impossible);
 * - for an odd count, the bye goes to the lowest-ranked participant who has not had one (if all
 *   have, the lowest-ranked), unless the others then cannot be paired without a rematch;
 * - floats (pairs across score groups) as cheap as possible, a float costing the square of the
 *   number of groups it spans: a group with an odd count, or whose members cannot all be paired
 *   without rematches, floats members down to the next group;
 * - inside a score group, the top half meets the bottom half in order (1st v (g/2+1)th, …); a
 *   floater meets the best-ranked of the group below.
 * The search takes the best-ranked unpaired participant and tries opponents in that order of
 * preference, backtracking on rematches; a local search then re-pairs two or three pairs at a time
 * (one of them a float) while that makes the floats cheaper, and a branch and bound (pruned by the
 * cost the odd-sized groups force, within a step budget) looks for a cheaper pairing still. Small
 * fields get the cheapest pairing; large ones may stop at a good one when the budget runs out.
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
  // A float costs the square of the number of score groups it spans: two floats across one group
  // each are better than one across two (6 v 3 and 3 v 0 rather than 6 v 0).
  const levels = [...new Set(standings.map((standing) => standing.points))].sort((x, y) => y - x);
  const level = new Map(standings.map((standing) => [standing.participantId, levels.indexOf(standing.points)]));
  const floatCost = (a: string, b: string) => (level.get(a)! - level.get(b)!) ** 2;

  // Each float changes the parity of two score groups and costs 1 at least, so k odd groups cost
  // ⌈k/2⌉ at least.
  const forcedFloats = (remaining: string[]) => {
    const counts = new Map<number, number>();
    for (const id of remaining) {
      const own = points.get(id)!;
      counts.set(own, (counts.get(own) ?? 0) + 1);
    }
    let odd = 0;
    for (const count of counts.values()) odd += count % 2;
    return Math.ceil(odd / 2);
  };

  const rank = new Map(ids.map((id, index) => [id, index]));
  const pairCost = ([a, b]: [string, string]) => floatCost(a, b);
  const ordered = (a: string, b: string): [string, string] => (rank.get(a)! < rank.get(b)! ? [a, b] : [b, a]);

  /** The first pairing of `players` in preference order without a rematch (null if none), backtracking. */
  const firstPairing = (players: string[]): [string, string][] | null => {
    let budget = SEARCH_BUDGET;
    const search = (remaining: string[]): [string, string][] | null => {
      if (remaining.length === 0) return [];
      if (--budget < 0) return null;
      const [top, ...others] = remaining;
      for (const opponent of preferenceOrder(top, others, points)) {
        if (met.has(pairKey(top, opponent))) continue;
        const rest = search(others.filter((id) => id !== opponent));
        if (rest) return [[top, opponent], ...rest];
        if (budget < 0) return null;
      }
      return null;
    };
    return search(players);
  };

  /**
   * Cheapens a pairing by re-pairing the players of two or three pairs, one of them a float, while
   * that lowers the cost (a local search: the greedy first pairing can float more than needed when
   * a rematch forces a choice early).
   */
  const improve = (pairs: [string, string][]): [string, string][] => {
    const valid = (candidate: [string, string][]) => candidate.every(([a, b]) => !met.has(pairKey(a, b)));
    const total = (list: [string, string][]) => list.reduce((sum, pair) => sum + pairCost(pair), 0);
    for (let improved = true; improved; ) {
      improved = false;
      search: for (let i = 0; i < pairs.length; i++) {
        if (pairCost(pairs[i]) === 0) continue;
        for (let j = 0; j < pairs.length; j++) {
          if (j === i) continue;
          for (let k = j; k < pairs.length; k++) {
            if (k === i) continue;
            const chosen = k === j ? [i, j] : [i, j, k];
            const players = chosen.flatMap((index) => pairs[index]);
            const before = total(chosen.map((index) => pairs[index]));
            for (const candidate of perfectPairings(players)) {
              const oriented = candidate.map(([a, b]) => ordered(a, b));
              if (total(oriented) < before && valid(oriented)) {
                const kept = pairs.filter((_, index) => !chosen.includes(index));
                pairs = [...kept, ...oriented];
                improved = true;
                break search;
              }
            }
          }
        }
      }
    }
    return pairs.sort((x, y) => rank.get(x[0])! - rank.get(y[0])!);
  };

  /** A pairing cheaper than `bound` (branch and bound within a step budget), or null. */
  const cheaper = (players: string[], bound: number): [string, string][] | null => {
    let budget = SEARCH_BUDGET;
    let best: [string, string][] | null = null;
    const current: [string, string][] = [];
    const search = (remaining: string[], cost: number): void => {
      if (--budget < 0) return;
      if (remaining.length === 0) {
        [best, bound] = [[...current], cost];
        return;
      }
      if (cost + forcedFloats(remaining) >= bound) return;
      const [top, ...others] = remaining;
      for (const opponent of preferenceOrder(top, others, points)) {
        if (met.has(pairKey(top, opponent)) || cost + floatCost(top, opponent) >= bound) continue;
        current.push([top, opponent]);
        search(others.filter((id) => id !== opponent), cost + floatCost(top, opponent));
        current.pop();
        if (budget < 0) return;
      }
    };
    search(players, 0);
    return best;
  };

  const pairAll = (players: string[]): [string, string][] | null => {
    const first = firstPairing(players);
    if (!first) return null;
    const improved = improve(first);
    const cost = improved.reduce((sum, pair) => sum + pairCost(pair), 0);
    if (cost === forcedFloats(players)) return improved;
    const better = cheaper(players, cost);
    return better ? improve(better) : improved;
  };

  const byeCandidates = ids.length % 2 === 0 ? [null] : [...ids.filter((id) => !hadBye.has(id)).reverse(), ...ids.filter((id) => hadBye.has(id)).reverse()];
  for (const bye of byeCandidates) {
    const pairs = pairAll(ids.filter((id) => id !== bye));
    if (pairs) return { pairs, bye };
  }
  throw new ApiError('conflict', `Round ${roundNumber} cannot be paired without a rematch.`, [{ field: 'rounds', issue: 'no_pairing_without_rematch' }]);
}

const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

/** Every way to split an even number of players (4 or 6 here) into pairs. */
function perfectPairings(players: string[]): [string, string][][] {
  if (players.length === 0) return [[]];
  const [first, ...rest] = players;
  return rest.flatMap((partner) => perfectPairings(rest.filter((id) => id !== partner)).map((pairs): [string, string][] => [[first, partner], ...pairs]));
}

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

/**
 * The round and matches for one swiss round (keys sw:<round>:<position>): sources name the stage
 * seeds of the two participants, who are set; the bye, if any, is a completed free win in last position.
 */
export function swissRoundMatches(
  roundNumber: number,
  pairing: SwissPairing,
  seedOf: (participantId: string) => number,
  groupKey: string | null = null,
): { round: GeneratedRound; matches: GeneratedDuel[] } {
  const prefix = groupKey === null ? 'sw' : `${groupKey}/sw`;
  const round = newRound(`${prefix}:${roundNumber}`, groupKey, roundNumber, swissRoundName(roundNumber), null);
  const matches = pairing.pairs.map(([a, b], index) => {
    const duel = newDuel(round, `${prefix}:${roundNumber}:${index + 1}`, index + 1);
    [duel.sourceA, duel.sourceB] = [{ type: 'seed', seed: seedOf(a) }, { type: 'seed', seed: seedOf(b) }];
    [duel.participantA, duel.participantB] = [a, b];
    return duel;
  });
  if (pairing.bye !== null) {
    const duel = newDuel(round, `${prefix}:${roundNumber}:${matches.length + 1}`, matches.length + 1);
    duel.sourceA = { type: 'seed', seed: seedOf(pairing.bye) };
    Object.assign(duel, { participantA: pairing.bye, isFreeWin: true, status: 'completed', winner: pairing.bye });
    matches.push(duel);
  }
  return { round, matches };
}
