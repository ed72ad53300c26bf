// Standings: the ranking of one stage (or one group of it) from its completed matches, recomputed
// whenever a result is reported. Pure (no clock, no storage) and O(n log n + matches) per
// tiebreaker, so a 1,024-participant stage costs a few milliseconds inside the report transaction.
// The rules organisers see are in docs/tournaments.md, "Standings".
import { nextPowerOfTwo } from './seeding.ts';
import { DEFAULT_POINTS, type PointsTable, type ResolvedStageSettings, type Tiebreaker } from './settings.ts';
import type { Bracket, MatchLink, StageFormat } from './types.ts';

export interface StandingsParticipant {
  participantId: string;
  /** The participant's seed in the stage (1 = best). */
  seed: number;
}

/** A completed duel. */
export interface StandingsDuel {
  kind?: 'duel';
  participantA: string | null;
  participantB: string | null;
  /** Not counted when absent or null (a bye, a forfeit without a technical score). */
  scoreA?: number | null;
  scoreB?: number | null;
  /** null: a draw when isDraw, otherwise a match nobody won (both forfeited): a loss for both. */
  winner: string | null;
  isDraw?: boolean;
  /** A bye: a win for its one participant, no score, no opponent. */
  isFreeWin?: boolean;
  /** Won without playing: a win and a loss like any other, with the score given if any. */
  isForfeit?: boolean;
  /** Elimination formats: where the match sits and where its winner and loser went. */
  bracket?: Bracket | null;
  roundNumber?: number;
  winnerTo?: MatchLink | null;
  loserTo?: MatchLink | null;
  isGrandFinalReset?: boolean;
}

/** A completed free-for-all match. */
export interface StandingsFfaMatch {
  kind: 'ffa';
  /** Every opponent with its place (1 = first; equal places share the place's points). */
  results: { participantId: string; place: number; score?: number | null }[];
  /** A match left with one participant: a win, earning first place in a full match. */
  isFreeWin?: boolean;
}

export type StandingsMatch = StandingsDuel | StandingsFfaMatch;

export interface PointAdjustment {
  participantId: string;
  /** Added to the participant's points (negative for a penalty). */
  points: number;
}

/** A participant's record over completed duels, as matches would count it (points come from the stage's table). */
export interface MatchTotals {
  played: number;
  wins: number;
  draws: number;
  losses: number;
  scoreFor: number;
  scoreAgainst: number;
}

export interface ComputeStandingsInput {
  format: StageFormat;
  settings: ResolvedStageSettings;
  /** The stage's (or group's) participants. */
  participants: readonly StandingsParticipant[];
  /**
   * Its completed matches (scheduled or cancelled ones are left out by the caller). With `totals`,
   * only those a tiebreaker still reads: the matches between participants level before head_to_head.
   */
  matches: readonly StandingsMatch[];
  adjustments?: readonly PointAdjustment[];
  /**
   * Each participant's record counted beforehand (a store can sum it without sending every match):
   * duel formats without buchholz only. Absent participants have played nothing.
   */
  totals?: ReadonlyMap<string, MatchTotals>;
  /**
   * Head-to-head values counted beforehand, with `totals`: a participant listed keeps its value, and
   * `matches` need not cover its run (a run a report left as it was keeps its mini-table).
   */
  headToHead?: ReadonlyMap<string, number>;
}

export interface StandingRow {
  /** Competition ranking: tied rows share a rank and the next rank skips (1, 2, 2, 4). */
  rank: number;
  participantId: string;
  seed: number;
  played: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  scoreFor: number;
  scoreAgainst: number;
  scoreDifference: number;
  /** Each tiebreaker's value, in the stage's order (empty for elimination formats). */
  tiebreakers: Partial<Record<Tiebreaker, number>>;
  /** Among the first `qualifiers` rows, when the setting is set. */
  qualified: boolean;
}

interface Totals {
  row: StandingRow;
  /** Sum of the points of every opponent met (buchholz). */
  buchholz: number;
}

/** The ranked rows: best first, tied rows by seed. */
export function computeStandings(input: ComputeStandingsInput): StandingRow[] {
  const { format, settings, participants, matches } = input;
  const index = new Map<string, number>();
  const totals: Totals[] = participants.map((participant, i) => {
    if (index.has(participant.participantId)) throw new TypeError(`${participant.participantId} appears twice in the standings.`);
    index.set(participant.participantId, i);
    const row: StandingRow = {
      rank: 0,
      participantId: participant.participantId,
      seed: participant.seed,
      played: 0,
      wins: 0,
      draws: 0,
      losses: 0,
      points: 0,
      scoreFor: 0,
      scoreAgainst: 0,
      scoreDifference: 0,
      tiebreakers: {},
      qualified: false,
    };
    return { row, buchholz: 0 };
  });
  const at = (id: string | null): number | null => {
    if (id === null) return null;
    const i = index.get(id);
    if (i === undefined) throw new TypeError(`${id} plays a match of the standings but is not one of its participants.`);
    return i;
  };
  const elimination = format === 'single_elimination' || format === 'double_elimination';
  const table: PointsTable = elimination ? { win: 0, draw: 0, loss: 0 } : (settings.points ?? DEFAULT_POINTS);
  const perMatch = settings.participantsPerMatch ?? participants.length;

  if (input.totals) {
    if (elimination || format === 'ffa' || (settings.tiebreakers ?? []).includes('buchholz')) throw new TypeError('Counted totals serve duel formats ranked without buchholz.');
    for (const { row } of totals) {
      const counted = input.totals.get(row.participantId);
      if (!counted) continue;
      Object.assign(row, counted);
      row.points = counted.wins * table.win + counted.draws * table.draw + counted.losses * table.loss;
    }
  }
  for (const match of input.totals ? [] : matches) {
    if (match.kind === 'ffa') {
      countFfa(match, totals, at, settings.pointsByPlace ?? null, perMatch);
      continue;
    }
    const a = at(match.participantA);
    const b = at(match.participantB);
    const winner = at(match.winner);
    if (winner !== null && winner !== a && winner !== b) throw new TypeError(`${match.winner} won a match it did not play.`);
    if (a === null || b === null) {
      // A bye (or a free win with nobody): a win for the one participant, nothing else.
      const alone = a ?? b;
      if (alone === null || winner !== alone) continue;
      const row = totals[alone].row;
      row.played++;
      row.wins++;
      row.points += table.win;
      continue;
    }
    for (const [own, scored, conceded] of [
      [a, match.scoreA, match.scoreB],
      [b, match.scoreB, match.scoreA],
    ] as const) {
      const row = totals[own].row;
      row.played++;
      if (winner === own) [row.wins, row.points] = [row.wins + 1, row.points + table.win];
      else if (winner === null && match.isDraw) [row.draws, row.points] = [row.draws + 1, row.points + table.draw];
      else [row.losses, row.points] = [row.losses + 1, row.points + table.loss];
      row.scoreFor += scored ?? 0;
      row.scoreAgainst += conceded ?? 0;
    }
  }
  for (const adjustment of input.adjustments ?? []) totals[at(adjustment.participantId)!].row.points += adjustment.points;
  for (const { row } of totals) row.scoreDifference = row.scoreFor - row.scoreAgainst;

  const ordered = elimination ? rankElimination(format, totals, matches, at) : rankByTiebreakers(settings.tiebreakers ?? ['points', 'seed'], totals, matches, at, table, input.headToHead);
  const qualifiers = settings.qualifiers ?? 0;
  return ordered.map((row, position) => ({ ...row, qualified: position < qualifiers }));
}

function countFfa(match: StandingsFfaMatch, totals: Totals[], at: Lookup, pointsByPlace: number[] | null, perMatch: number): void {
  const size = match.results.length;
  for (const { participantId, place, score } of match.results) {
    const row = totals[at(participantId)!].row;
    row.played++;
    if (place === 1) row.wins++;
    else row.losses++;
    // A free win earns first place in a full match; otherwise the place's points in this match.
    row.points += pointsByPlace ? (pointsByPlace[place - 1] ?? 0) : Math.max(0, (match.isFreeWin ? perMatch : size) - place);
    row.scoreFor += score ?? 0;
  }
}

/** A participant's index, null for nobody; throws for someone who is not a participant. */
type Lookup = (id: string | null) => number | null;

function rankByTiebreakers(tiebreakers: readonly Tiebreaker[], totals: Totals[], matches: readonly StandingsMatch[], at: Lookup, table: PointsTable, known?: ReadonlyMap<string, number>): StandingRow[] {
  const n = totals.length;
  // Buchholz: the opponents' points (adjustments included), summed over every match played; a
  // free-for-all match counts each other participant of the match as an opponent.
  if (tiebreakers.includes('buchholz')) {
    for (const match of matches) {
      if (match.kind === 'ffa') {
        const ids = match.results.map((result) => at(result.participantId)!);
        const sum = ids.reduce((total, i) => total + totals[i].row.points, 0);
        for (const i of ids) totals[i].buchholz += sum - totals[i].row.points;
        continue;
      }
      const a = at(match.participantA);
      const b = at(match.participantB);
      if (a === null || b === null) continue; // a bye has no opponent: it adds nothing
      totals[a].buchholz += totals[b].row.points;
      totals[b].buchholz += totals[a].row.points;
    }
  }
  const order = Array.from({ length: n }, (_, i) => i);
  // Runs of `order` still tied on every tiebreaker so far: [start, end).
  let ties: [number, number][] = n > 1 ? [[0, n]] : [];
  const value = new Float64Array(n);
  for (const tiebreaker of tiebreakers) {
    if (tiebreaker === 'head_to_head') {
      headToHead(order, ties, totals, matches, at, table, value);
      for (const [participantId, counted] of known ?? []) value[at(participantId)!] = counted;
    }
    else for (let i = 0; i < n; i++) value[i] = plainValue(tiebreaker, totals[i]);
    for (let i = 0; i < n; i++) totals[i].row.tiebreakers[tiebreaker] = value[i];
    // The seed ranks the lower number first; every other tiebreaker the higher value.
    const sign = tiebreaker === 'seed' ? 1 : -1;
    const next: [number, number][] = [];
    for (const [start, end] of ties) {
      const run = order.slice(start, end).sort((x, y) => sign * (value[x] - value[y]));
      order.splice(start, end - start, ...run);
      for (let from = start, i = start + 1; i <= end; i++) {
        if (i < end && value[order[i]] === value[order[from]]) continue;
        if (i - from > 1) next.push([from, i]);
        from = i;
      }
    }
    ties = next;
  }
  // Rows tied on every tiebreaker share the rank of the first of them and are listed by seed.
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) rank[i] = i + 1;
  for (const [start, end] of ties) {
    const run = order.slice(start, end).sort((x, y) => totals[x].row.seed - totals[y].row.seed || compareIds(totals[x].row.participantId, totals[y].row.participantId));
    order.splice(start, end - start, ...run);
    for (let i = start; i < end; i++) rank[i] = start + 1;
  }
  return order.map((i, position) => ({ ...totals[i].row, rank: rank[position] }));
}

function plainValue(tiebreaker: Exclude<Tiebreaker, 'head_to_head'>, totals: Totals): number {
  const { row } = totals;
  switch (tiebreaker) {
    case 'points':
      return row.points;
    case 'score_difference':
      return row.scoreDifference;
    case 'score_for':
      return row.scoreFor;
    case 'wins':
      return row.wins;
    case 'buchholz':
      return totals.buchholz;
    case 'seed':
      return row.seed;
  }
}

/**
 * Head to head, for every participant in a run of `order` still tied: the points it earned in the
 * matches between members of its run (a mini-table of exactly the tied set, however many they are);
 * 0 for a participant tied with nobody. In a free-for-all, a point for every other member of the run
 * it finished ahead of in a match they both played.
 */
function headToHead(order: number[], ties: [number, number][], totals: Totals[], matches: readonly StandingsMatch[], at: Lookup, table: PointsTable, value: Float64Array): void {
  value.fill(0);
  const run = new Int32Array(totals.length).fill(-1);
  ties.forEach(([start, end], r) => {
    for (let i = start; i < end; i++) run[order[i]] = r;
  });
  for (const match of matches) {
    if (match.kind === 'ffa') {
      // Within each run, by place: each finishes ahead of those with a worse place.
      const byRun = new Map<number, { i: number; place: number }[]>();
      for (const result of match.results) {
        const i = at(result.participantId)!;
        if (run[i] === -1) continue;
        const list = byRun.get(run[i]) ?? byRun.set(run[i], []).get(run[i])!;
        list.push({ i, place: result.place });
      }
      for (const list of byRun.values()) {
        list.sort((x, y) => y.place - x.place);
        for (let k = 0, worse = 0; k < list.length; k++) {
          if (k > 0 && list[k].place !== list[k - 1].place) worse = k;
          value[list[k].i] += worse;
        }
      }
      continue;
    }
    const a = at(match.participantA);
    const b = at(match.participantB);
    if (a === null || b === null || run[a] === -1 || run[a] !== run[b]) continue;
    const winner = at(match.winner);
    for (const own of [a, b]) value[own] += winner === own ? table.win : winner === null && match.isDraw ? table.draw : table.loss;
  }
}

const compareIds = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Elimination formats rank by how far each participant went: a key per participant from its last
 * completed match (its furthest), 4 per round so that within a round the champion of it, someone
 * still in it, the third-place winner, someone waiting for the third-place match and someone out
 * of it order themselves. A participant still in the stage counts as reaching the round it plays
 * next and sits just above those who went out there: the worst it can still finish.
 */
function rankElimination(format: StageFormat, totals: Totals[], matches: readonly StandingsMatch[], at: Lookup): StandingRow[] {
  const n = totals.length;
  const rounds = Math.log2(nextPowerOfTwo(Math.max(2, n)));
  const double = format === 'double_elimination';
  // Double elimination measures on the losers bracket's rounds: a winners-bracket round r loser
  // drops into losers round 1 (r = 1) or 2(r − 1).
  const losersRounds = 2 * (rounds - 1);
  const drop = (r: number) => (r === 1 ? 1 : 2 * (r - 1));
  const alive = (r: number) => 4 * r + 3;
  const out = (r: number) => 4 * r;
  const champion = double ? out(losersRounds + 2) : out(rounds + 1);
  const runnerUp = double ? out(losersRounds + 1) : out(rounds);

  const key = new Float64Array(n).fill(alive(1));
  const last = new Float64Array(n).fill(-1);
  const bracketOrder: Record<Bracket, number> = { winners: 0, losers: 1, third_place: 1, grand_final: 2 };
  for (const match of matches) {
    if (match.kind === 'ffa') throw new TypeError('A free-for-all match in an elimination stage.');
    const a = at(match.participantA);
    const b = at(match.participantB);
    const winner = at(match.winner);
    const bracket = match.bracket ?? 'winners';
    const r = match.roundNumber ?? 1;
    // A participant's path runs winners → losers → grand final, rounds upwards: its furthest match
    // is the one with the highest (bracket, round).
    const depth = bracketOrder[bracket] * 1_000 + r;
    for (const own of [a, b]) {
      if (own === null || depth < last[own]) continue;
      last[own] = depth;
      const won = winner === own;
      let value: number;
      if (bracket === 'third_place') value = won ? out(rounds - 1) + 2 : out(rounds - 1);
      else if (bracket === 'grand_final') {
        // The first grand final won by the losers-bracket champion (slot b) goes to a reset.
        const toReset = !match.isGrandFinalReset && match.winnerTo != null && winner === b;
        value = toReset ? alive(losersRounds + 1) : won ? champion : runnerUp;
      } else if (bracket === 'losers') {
        if (!won) value = out(r);
        else if (match.winnerTo == null) value = runnerUp; // no grand final: the losers-bracket champion is second
        else value = alive(r === losersRounds ? losersRounds + 1 : r + 1);
      } else if (won) {
        if (match.winnerTo == null) value = champion;
        else if (double) value = alive(r === rounds ? losersRounds + 1 : drop(r + 1));
        else value = alive(r + 1);
      } else if (match.loserTo != null) value = double ? alive(drop(r)) : out(r) + 1; // into the losers bracket, or to the third-place match
      else value = double ? runnerUp : out(r);
      key[own] = value;
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => key[y] - key[x] || totals[x].row.seed - totals[y].row.seed || compareIds(totals[x].row.participantId, totals[y].row.participantId));
  let rank = 0;
  return order.map((i, position) => {
    if (position === 0 || key[i] !== key[order[position - 1]]) rank = position + 1;
    return { ...totals[i].row, rank };
  });
}
