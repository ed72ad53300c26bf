// Swiss: round 1 is drawn by seed at generation (top half against bottom half); each later round is
// paired from the standings by swissNextRound (pairSwissRound), which the caller runs once the
// previous round is over.
import { ApiError } from '../../../platform/api/errors.ts';
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

// Step budgets, so that a round of 256 pairs in tens of milliseconds whatever its history: each
// ordered search stops after SEARCH_BUDGET steps (a step tries one opponent), all of a round's
// searches together after SEARCH_BUDGET_TOTAL, and the local search's re-pairings of three pairs
// after IMPROVE_BUDGET tries. Correctness does not depend on them: a maximum matching decides
// whether a pairing without rematches exists and supplies one when the searches run out.
const SEARCH_BUDGET = 10_000;
const SEARCH_BUDGET_TOTAL = 20_000;
const IMPROVE_BUDGET = 5_000;
/** Up to this many players to pair, the cheapest pairing is computed exactly (cheapestPairing). */
const EXACT_FIELD = 16;

export interface SwissNextRoundInput {
  /** Best-ranked first, ties already broken by the stage's tiebreakers (computeStandings' rows fit). */
  standings: readonly SwissStanding[];
  /** Every pair already played, and every bye. */
  history: readonly SwissHistoryEntry[];
  /** The round to pair (2 or later; round 1 is swissFirstRound). */
  roundNumber: number;
  /** The stage's `rounds` setting. */
  rounds: number;
}

/** The next round's pairing, or null once `rounds` rounds have been played (the stage is over). */
export function swissNextRound(input: SwissNextRoundInput): SwissPairing | null {
  if (input.roundNumber > input.rounds) return null;
  return pairSwissRound(input.standings, input.history, input.roundNumber);
}

/**
 * Pairs a later round from the standings (best-ranked first, ties already broken by the stage's
 * tiebreakers) and the pairs already played. Rules, in order of strength:
 * - never a rematch; if any pairing without one exists it is found (a maximum matching proves it
 *   either way), otherwise 409 no_pairing_without_rematch;
 * - for an odd count, the bye goes to the lowest-ranked participant who has not had one (if all
 *   have, the lowest-ranked), unless the others then cannot be paired without a rematch, in which
 *   case the next one up;
 * - floats (pairs across score groups) as cheap as possible, a float costing the square of the
 *   number of score groups it spans: a group with an odd count, or whose members cannot all be paired
 *   without rematches, floats members down to the next group;
 * - inside a score group, the top half meets the bottom half in order (1st v (g/2+1)th, …); a
 *   floater meets the best-ranked of the group below.
 * How: an ordered search takes the best-ranked unpaired participant and tries opponents in that
 * order of preference, backtracking on rematches; if it runs out of steps, the maximum matching's
 * pairing is taken instead. The same search, pruned by a cost bound raised one at a time from the
 * least the odd-sized groups force, then looks for the cheapest pairing (iterative deepening), and a
 * local search re-pairs a float with one or two other pairs while that makes the floats cheaper.
 * Guarantees: a pairing whenever one exists; no two pairs of it could swap opponents for cheaper
 * floats; the cheapest pairing for up to 16 players to pair (computed exactly, then the preferred
 * pairing at that cost), a good one for larger fields.
 */
export function pairSwissRound(standings: readonly SwissStanding[], history: readonly SwissHistoryEntry[], roundNumber: number): SwissPairing {
  const ids = standings.map((standing) => standing.participantId);
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  if (index.size !== n) throw new TypeError('A participant appears twice in the standings.');
  // Score groups, best first, each with its members in rank order.
  const scores = [...new Set(standings.map((standing) => standing.points))].sort((x, y) => y - x);
  const levelOf = new Map(scores.map((points, l) => [points, l]));
  const level = Int32Array.from(standings, (standing) => levelOf.get(standing.points)!);
  const members: number[][] = scores.map(() => []);
  for (let i = 0; i < n; i++) members[level[i]].push(i);
  const met = new Uint8Array(n * n);
  const hadBye = new Uint8Array(n);
  for (const entry of history) {
    const a = index.get(entry.a);
    if (a === undefined) continue; // someone no longer in the stage
    if (entry.b === null) {
      hadBye[a] = 1;
      continue;
    }
    const b = index.get(entry.b);
    if (b !== undefined) met[a * n + b] = met[b * n + a] = 1;
  }
  // For each score group, the other groups in order of preference: the nearest score first, a
  // float down before a float up.
  const levelOrder = scores.map((own, ownLevel) =>
    scores
      .map((_, other) => other)
      .filter((other) => other !== ownLevel)
      .sort((x, y) => Math.abs(scores[x] - own) - Math.abs(scores[y] - own) || y - x),
  );
  const cost = (a: number, b: number) => (level[a] - level[b]) ** 2;

  const byeCandidates: (number | null)[] = [];
  if (n % 2 === 0) byeCandidates.push(null);
  else {
    for (let i = n - 1; i >= 0; i--) if (!hadBye[i]) byeCandidates.push(i);
    for (let i = n - 1; i >= 0; i--) if (hadBye[i]) byeCandidates.push(i);
  }
  for (const bye of byeCandidates) {
    const out = new Uint8Array(n);
    if (bye !== null) out[bye] = 1;
    const partner = maximumMatching(n, met, out);
    if (partner === null) continue;
    const pairs = bestPairing({ n, met, out, level, members, levelOrder, cost }, partner);
    return { pairs: pairs.map(([a, b]): [string, string] => [ids[a], ids[b]]), bye: bye === null ? null : ids[bye] };
  }
  throw new ApiError('conflict', `Round ${roundNumber} cannot be paired without a rematch.`, [{ field: 'rounds', issue: 'no_pairing_without_rematch' }]);
}

interface Field {
  n: number;
  /** met[a·n + b]: a and b have played. */
  met: Uint8Array;
  /** 1: not to be paired (the bye). */
  out: Uint8Array;
  level: Int32Array;
  /** Each score group's members, in rank order. */
  members: number[][];
  levelOrder: number[][];
  cost: (a: number, b: number) => number;
}

/**
 * From a pairing known to exist (`fallback`, partner per index), the best one the bounded searches
 * find: pairs [a, b] with a better-ranked, in rank order of a.
 */
function bestPairing(field: Field, fallback: Int32Array): [number, number][] {
  const { n, met, out, level, members, levelOrder, cost } = field;
  const players: number[] = [];
  for (let i = 0; i < n; i++) if (!out[i]) players.push(i);
  // Each float changes the parity of two score groups and costs 1 at least, so k odd groups among
  // the unpaired cost ⌈k/2⌉ at least; kept up to date as players are paired.
  const unpaired = members.map((group) => group.filter((i) => !out[i]).length);
  let oddGroups = unpaired.reduce((sum, count) => sum + (count & 1), 0);
  const take = (i: number, delta: 1 | -1) => {
    oddGroups -= unpaired[level[i]] & 1;
    unpaired[level[i]] -= delta;
    oddGroups += unpaired[level[i]] & 1;
  };
  const lower = Math.ceil(oddGroups / 2);

  /**
   * Fills `into` with the opponents for `top` among the unused, best first (Dutch order inside its
   * group, then by group), leaving out groups whose float would cost `allowance` or more; their count.
   */
  const preferences = (top: number, used: Uint8Array, into: Int32Array, allowance: number): number => {
    const own = level[top];
    const group = members[own];
    let size = 0;
    for (const i of group) if (i !== top && !used[i]) into[size++] = i;
    // Counting `top` as its group's first member: the member half a group below first, then on
    // down, then the ones above that half (rotated into place).
    if (size > 2) {
      const half = Math.floor((size + 1) / 2);
      const head = into.slice(0, half - 1).reverse();
      into.copyWithin(0, half - 1, size);
      into.set(head, size - head.length);
    }
    for (const other of levelOrder[own]) {
      if ((other - own) ** 2 >= allowance) continue;
      for (const i of members[other]) if (!used[i]) into[size++] = i;
    }
    return size;
  };

  /**
   * Depth-first in preference order, pruned by `bound`: the first pairing found that costs less than
   * `bound`, or null if there is none or the step budget ran out first.
   */
  const buffers: Int32Array[] = [];
  let remaining = SEARCH_BUDGET_TOTAL;
  const search = (bound: number): [number, number][] | null => {
    const used = new Uint8Array(out);
    let budget = Math.min(SEARCH_BUDGET, remaining);
    const current: [number, number][] = [];
    const step = (cursor: number, depth: number, spent: number): boolean => {
      while (cursor < n && used[cursor]) cursor++;
      if (cursor === n) return true;
      if (spent + Math.ceil(oddGroups / 2) >= bound || --budget < 0) return false;
      used[cursor] = 1;
      take(cursor, 1);
      const into = (buffers[depth] ??= new Int32Array(n));
      const count = preferences(cursor, used, into, bound - spent);
      let found = false;
      for (let c = 0; c < count && !found && budget > 0; c++) {
        const opponent = into[c];
        const paid = spent + cost(cursor, opponent);
        if (met[cursor * n + opponent] || paid >= bound) continue;
        budget--;
        used[opponent] = 1;
        take(opponent, 1);
        current.push([cursor, opponent]);
        found = step(cursor + 1, depth + 1, paid);
        if (!found) {
          current.pop();
          take(opponent, -1);
          used[opponent] = 0;
        }
      }
      if (found) return true;
      take(cursor, -1);
      used[cursor] = 0;
      return false;
    };
    const found = budget > 0 && step(0, 0, 0);
    remaining -= Math.min(SEARCH_BUDGET, remaining) - budget;
    // A search that found a pairing leaves its players taken: give them back for the next one.
    if (found) for (const [a, b] of current) take(a, -1), take(b, -1);
    return found ? current : null;
  };

  /**
   * Cheapens a pairing by re-pairing the players of two or three pairs, one of them a float, while
   * that lowers the cost (the ordered search can float more than needed when a rematch forces a
   * choice early, and the matching ignores score groups altogether). Exchanges between two pairs
   * run to the end, so no two pairs of the result can swap partners for cheaper floats; re-pairings
   * of three are tried within the budget.
   */
  const improve = (pairs: [number, number][]): [number, number][] => {
    let budget = IMPROVE_BUDGET;
    const six = new Int32Array(6);
    /** Re-pairs the players in six[0..size) the first cheaper way without a rematch; false if none. */
    const repair = (chosen: number[], size: 4 | 6): boolean => {
      let before = 0;
      for (const c of chosen) before += cost(pairs[c][0], pairs[c][1]);
      const ways = size === 4 ? PAIRINGS_OF_4 : PAIRINGS_OF_6;
      for (let w = 0; w < ways.length; w += size) {
        let after = 0;
        for (let x = w; x < w + size && after < before; x += 2) {
          const a = six[ways[x]];
          const b = six[ways[x + 1]];
          after += met[a * n + b] ? before : cost(a, b);
        }
        if (after >= before) continue;
        for (let x = 0; x < size; x += 2) pairs[chosen[x / 2]] = [six[ways[w + x]], six[ways[w + x + 1]]];
        return true;
      }
      return false;
    };
    /** Swaps partners between a float and any other pair while that is cheaper, to a fixed point. */
    const exchange = () => {
      for (let again = true; again; ) {
        again = false;
        for (let i = 0; i < pairs.length; i++) {
          for (let j = 0; j < pairs.length && cost(pairs[i][0], pairs[i][1]) > 0; j++) {
            if (j === i) continue;
            [six[0], six[1], six[2], six[3]] = [...pairs[i], ...pairs[j]];
            if (repair([i, j], 4)) again = true;
          }
        }
      }
    };
    /** One cheaper re-pairing of a float and two pairs near it (within the budget); false if none. */
    const rotate = (): boolean => {
      for (let i = 0; i < pairs.length; i++) {
        if (cost(pairs[i][0], pairs[i][1]) === 0) continue;
        [six[0], six[1]] = pairs[i];
        // Only pairs with a player in or next to the score groups this float spans can shorten it.
        const low = Math.min(level[six[0]], level[six[1]]) - 1;
        const high = Math.max(level[six[0]], level[six[1]]) + 1;
        const near: number[] = [];
        for (let j = 0; j < pairs.length; j++) {
          const [a, b] = pairs[j];
          if (j !== i && Math.max(level[a], level[b]) >= low && Math.min(level[a], level[b]) <= high) near.push(j);
        }
        for (let x = 0; x < near.length; x++) {
          [six[2], six[3]] = pairs[near[x]];
          for (let y = x + 1; y < near.length; y++) {
            [six[4], six[5]] = pairs[near[y]];
            if (--budget < 0) return false;
            if (repair([i, near[x], near[y]], 6)) return true;
          }
        }
      }
      return false;
    };
    do exchange();
    while (rotate());
    return pairs;
  };

  const total = (pairs: [number, number][]) => pairs.reduce((sum, [a, b]) => sum + cost(a, b), 0);
  if (players.length <= EXACT_FIELD) {
    // Small field: the least cost is known exactly; the ordered search, bounded by it, finds the
    // preferred pairing at that cost, or the exact one stands.
    const exact = cheapestPairing(players, met, n, cost);
    const preferred = search(total(exact) + 1);
    return (preferred ?? exact).map(([a, b]): [number, number] => (a < b ? [a, b] : [b, a])).sort((x, y) => x[0] - y[0]);
  }
  let pairs = search(Infinity);
  if (!pairs) {
    pairs = [];
    for (const a of players) if (a < fallback[a]) pairs.push([a, fallback[a]]);
  }
  // Iterative deepening: the first pairing in preference order at the least cost the bound allows,
  // from the lower bound up to the cost in hand.
  for (let bound = lower + 1; bound <= total(pairs); bound++) {
    const cheaper = search(bound);
    if (cheaper) {
      pairs = cheaper;
      break;
    }
  }
  if (total(pairs) > lower) pairs = improve(pairs);
  return pairs.map(([a, b]): [number, number] => (a < b ? [a, b] : [b, a])).sort((x, y) => x[0] - y[0]);
}

/**
 * The cheapest pairing of `players` without a rematch, by dynamic programming over the subsets still
 * to pair (2^m · m steps: 16 players take about a million), pairing the first of each subset with
 * each possible partner. The caller knows a pairing exists.
 */
function cheapestPairing(players: number[], met: Uint8Array, n: number, cost: (a: number, b: number) => number): [number, number][] {
  const m = players.length;
  const full = (1 << m) - 1;
  const best = new Float64Array(full + 1).fill(Infinity);
  const partner = new Int8Array(full + 1);
  best[0] = 0;
  for (let mask = 1; mask <= full; mask++) {
    const i = 31 - Math.clz32(mask & -mask);
    const rest = mask & ~(1 << i);
    for (let j = i + 1; j < m; j++) {
      if (!(rest & (1 << j)) || met[players[i] * n + players[j]]) continue;
      const candidate = best[rest & ~(1 << j)] + cost(players[i], players[j]);
      if (candidate < best[mask]) [best[mask], partner[mask]] = [candidate, j];
    }
  }
  const pairs: [number, number][] = [];
  for (let mask = full; mask; ) {
    const i = 31 - Math.clz32(mask & -mask);
    const j = partner[mask];
    pairs.push([players[i], players[j]]);
    mask &= ~(1 << i) & ~(1 << j);
  }
  return pairs;
}

/** Every way to split positions 0…size − 1 into pairs, flattened (3 ways for four players, 15 for six). */
function pairingsOf(positions: number[]): number[][] {
  if (positions.length === 0) return [[]];
  const [first, ...rest] = positions;
  return rest.flatMap((partner) => pairingsOf(rest.filter((p) => p !== partner)).map((pairs) => [first, partner, ...pairs]));
}
const PAIRINGS_OF_4 = Int8Array.from(pairingsOf([0, 1, 2, 3]).flat());
const PAIRINGS_OF_6 = Int8Array.from(pairingsOf([0, 1, 2, 3, 4, 5]).flat());

/**
 * A maximum matching of the players not `out`, an edge joining two who have not met (Edmonds'
 * blossom algorithm, O(n³)): their partner per index, or null when it leaves someone unpaired, which
 * proves that no pairing without a rematch exists. It starts from a greedy matching, so it usually
 * has only a few augmenting paths to find.
 */
export function maximumMatching(n: number, met: Uint8Array, out: Uint8Array): Int32Array | null {
  const match = new Int32Array(n).fill(-1);
  const edge = (a: number, b: number) => a !== b && !out[a] && !out[b] && !met[a * n + b];
  for (let a = 0; a < n; a++) {
    if (out[a] || match[a] !== -1) continue;
    for (let b = a + 1; b < n; b++) {
      if (match[b] === -1 && edge(a, b)) {
        [match[a], match[b]] = [b, a];
        break;
      }
    }
  }
  const parent = new Int32Array(n);
  const base = new Int32Array(n);
  const used = new Uint8Array(n);
  const inBlossom = new Uint8Array(n);
  const queue = new Int32Array(n);
  const lowestCommonAncestor = (a: number, b: number) => {
    const seen = new Uint8Array(n);
    for (;;) {
      a = base[a];
      seen[a] = 1;
      if (match[a] === -1) break;
      a = parent[match[a]];
    }
    for (;;) {
      b = base[b];
      if (seen[b]) return b;
      b = parent[match[b]];
    }
  };
  const markPath = (v: number, b: number, child: number) => {
    while (base[v] !== b) {
      inBlossom[base[v]] = inBlossom[base[match[v]]] = 1;
      parent[v] = child;
      child = match[v];
      v = parent[match[v]];
    }
  };
  /** An augmenting path's free end from `root` (followed back through parent), or -1. */
  const findPath = (root: number): number => {
    used.fill(0);
    parent.fill(-1);
    for (let i = 0; i < n; i++) base[i] = i;
    used[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const v = queue[head++];
      for (let to = 0; to < n; to++) {
        if (!edge(v, to) || base[v] === base[to] || match[v] === to) continue;
        if (to === root || (match[to] !== -1 && parent[match[to]] !== -1)) {
          const blossomBase = lowestCommonAncestor(v, to);
          inBlossom.fill(0);
          markPath(v, blossomBase, to);
          markPath(to, blossomBase, v);
          for (let i = 0; i < n; i++) {
            if (!inBlossom[base[i]]) continue;
            base[i] = blossomBase;
            if (!used[i]) {
              used[i] = 1;
              queue[tail++] = i;
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (match[to] === -1) return to;
          used[match[to]] = 1;
          queue[tail++] = match[to];
        }
      }
    }
    return -1;
  };
  for (let root = 0; root < n; root++) {
    if (out[root] || match[root] !== -1) continue;
    let v = findPath(root);
    if (v === -1) return null;
    while (v !== -1) {
      const previous = parent[v];
      const next = match[previous];
      [match[v], match[previous]] = [previous, v];
      v = next;
    }
  }
  return match;
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
