// The stored standings of a stage the platform started: computed by the engine (computeStandings)
// from the stage's completed matches and adjustments, per group when the stage plays groups, and
// written in the transaction of the write that moved them (the start, a report, an adjustment), only
// the rows that changed, with one `standings.updated` change per stage or group that moved. Reads
// are then one indexed query. docs/tournaments.md ("Standings") describes the rules.
import { newId } from '../shared/crypto.ts';
import type { SubgraphContext } from '../shared/context.ts';
import type { SqlStatement } from '../shared/db/database.ts';
import type { Change } from './event-write.ts';
import { chainNextStage, rankedRows } from './stage-chain.ts';
import { stageSettingsView, type StageSeeding } from './stage-start.ts';
import {
  DELETE_STANDINGS_SQL,
  LEVEL_MATCHES_SQL,
  STAGE_ADJUSTMENTS_SQL,
  STANDINGS_MATCHES_SQL,
  STORED_STANDINGS_SQL,
  UPSERT_STANDINGS_SQL,
  type StandingsMatchRow,
  type StoredStandingRow,
} from './statements.ts';
import {
  computeStandings,
  DEFAULT_POINTS,
  winnerSlot,
  type Bracket,
  type MatchTotals,
  type ResolvedStageSettings,
  type StageFormat,
  type StandingRow,
  type StandingsMatch,
  type Tiebreaker,
} from './tournament/index.ts';

export interface StandingsStage {
  id: string;
  format: string;
  status: string;
  seeding: unknown;
}

/** Formats whose standings (elimination) or pairing (swiss) need each match's bracket and round. */
const ROUND_FORMATS = new Set(['single_elimination', 'double_elimination', 'swiss']);

/** Standings are computed for stages the platform started (a frozen seeding); others keep what was entered. */
export const hasComputedStandings = (stage: StandingsStage) => stage.status !== 'pending' && stage.seeding != null;

/** The group key of a standing: the group, or null for a stage without groups. */
export type GroupKey = string | null;

/** What the standings read of a match row (a head_to_head read leaves out all but the result). */
export type StandingsMatchInput = Pick<StandingsMatchRow, 'status' | 'participantAId' | 'participantBId' | 'scoreA' | 'scoreB' | 'forfeit' | 'isFreeWin'> &
  Partial<Pick<StandingsMatchRow, 'opponents' | 'bracket' | 'roundNumber' | 'winnerToMatchId' | 'loserToMatchId'>>;

/** A match as the standings count it: completed ones only (null otherwise). */
export function standingsMatch(row: StandingsMatchInput): StandingsMatch | null {
  if (row.status !== 'completed') return null;
  if (row.opponents) {
    const results = row.opponents.filter((o) => o.place != null).map((o) => ({ participantId: o.participantId, place: o.place! }));
    return { kind: 'ffa', results, isFreeWin: row.isFreeWin };
  }
  const forfeit = row.forfeit as 'a' | 'b' | null;
  // The fields winnerSlot reads, named as it names them (no copy of the row: this runs per match).
  const slot = winnerSlot({ status: row.status, isFreeWin: row.isFreeWin, participantA: row.participantAId, participantB: row.participantBId, scoreA: row.scoreA, scoreB: row.scoreB, forfeit });
  return {
    participantA: row.participantAId,
    participantB: row.participantBId,
    scoreA: row.scoreA,
    scoreB: row.scoreB,
    winner: slot === 'a' ? row.participantAId : slot === 'b' ? row.participantBId : null,
    isDraw: slot === null && !row.isFreeWin && !forfeit && row.scoreA !== null && row.scoreA === row.scoreB,
    isFreeWin: row.isFreeWin,
    isForfeit: forfeit !== null,
    // Absent outside elimination and swiss stages (STANDINGS_MATCHES_SQL.resultsOnly).
    bracket: (row.bracket ?? null) as Bracket | null,
    roundNumber: row.roundNumber ?? undefined,
    winnerTo: row.winnerToMatchId ? { matchKey: row.winnerToMatchId, slot: 'a' } : null,
    loserTo: row.loserToMatchId ? { matchKey: row.loserToMatchId, slot: 'a' } : null,
    isGrandFinalReset: row.bracket === 'grand_final' && row.roundNumber === 2,
  };
}

/** Each group's participants (best seed first), or the stage's under the key null. */
export function standingsGroups(seeding: StageSeeding): Map<GroupKey, string[]> {
  return seeding.groups?.length ? new Map(seeding.groups.map((group) => [group.groupId, group.participantIds])) : new Map([[null, seeding.participantIds]]);
}

export interface ComputeOptions {
  format: string;
  settings: ResolvedStageSettings;
  seeding: StageSeeding;
  /** The groups to compute; every group of the seeding when absent. */
  groups?: readonly GroupKey[];
  matches: readonly StandingsMatchRow[];
  /** Adjustment points per participant. */
  adjustments: ReadonlyMap<string, number>;
  /** The stage is completed: the first `qualifiers` rows of each group are qualified (never before). */
  final: boolean;
}

/** The standings of each group asked for, ranked. */
export function computeStageStandings(options: ComputeOptions): Map<GroupKey, StandingRow[]> {
  const { seeding, settings } = options;
  const members = standingsGroups(seeding);
  const seedOf = new Map(seeding.participantIds.map((id, index) => [id, index + 1]));
  const byGroup = new Map<GroupKey, StandingsMatch[]>();
  for (const row of options.matches) {
    const match = standingsMatch(row);
    if (!match) continue;
    const key = members.has(row.groupId) ? row.groupId : null;
    (byGroup.get(key) ?? byGroup.set(key, []).get(key)!).push(match);
  }
  const result = new Map<GroupKey, StandingRow[]>();
  for (const key of options.groups ?? [...members.keys()]) {
    const ids = members.get(key);
    if (!ids) continue;
    const rows = computeStandings({
      format: options.format as StageFormat,
      settings: options.final ? settings : { ...settings, qualifiers: null },
      participants: ids.map((participantId) => ({ participantId, seed: seedOf.get(participantId)! })),
      matches: byGroup.get(key) ?? [],
      adjustments: ids.filter((id) => options.adjustments.has(id)).map((participantId) => ({ participantId, points: options.adjustments.get(participantId)! })),
    });
    result.set(key, rows);
  }
  return result;
}

/** A computed row as stored. */
function storedOf(row: StandingRow, adjustmentPoints: number): Omit<StoredStandingRow, 'id' | 'groupId'> {
  return {
    participantId: row.participantId,
    rank: row.rank,
    seed: row.seed,
    played: row.played,
    wins: row.wins,
    draws: row.draws,
    losses: row.losses,
    points: row.points,
    scoreFor: row.scoreFor,
    scoreAgainst: row.scoreAgainst,
    scoreDifference: row.scoreDifference,
    adjustmentPoints,
    tiebreakers: Object.entries(row.tiebreakers).map(([name, value]) => ({ name, value: value! })),
    qualified: row.qualified,
  };
}

const SAME_FIELDS = ['rank', 'seed', 'played', 'wins', 'draws', 'losses', 'points', 'scoreFor', 'scoreAgainst', 'scoreDifference', 'adjustmentPoints', 'qualified'] as const;
function same(stored: StoredStandingRow, next: Omit<StoredStandingRow, 'id' | 'groupId'>): boolean {
  return SAME_FIELDS.every((field) => stored[field] === next[field]) && JSON.stringify(stored.tiebreakers) === JSON.stringify(next.tiebreakers);
}

/**
 * The writes that bring the stored standings of the computed groups to `computed`: one upsert of the
 * rows that changed, a delete of rows of participants no longer in them, and a `standings.updated`
 * change per group that moved, naming the participants whose row changed.
 */
export function standingsWrites(eventId: string, stageId: string, computed: Map<GroupKey, StandingRow[]>, stored: readonly StoredStandingRow[], adjustments: ReadonlyMap<string, number>): { statements: SqlStatement[]; changes: Change[] } {
  const storedOfGroup = new Map<GroupKey, Map<string, StoredStandingRow>>();
  for (const row of stored) {
    const group = storedOfGroup.get(row.groupId) ?? storedOfGroup.set(row.groupId, new Map()).get(row.groupId)!;
    group.set(row.participantId, row);
  }
  const upserts: StoredStandingRow[] = [];
  const deleted: string[] = [];
  const changes: Change[] = [];
  for (const [groupId, rows] of computed) {
    const before = storedOfGroup.get(groupId) ?? new Map<string, StoredStandingRow>();
    const moved: string[] = [];
    for (const row of rows) {
      const next = storedOf(row, adjustments.get(row.participantId) ?? 0);
      const current = before.get(row.participantId);
      if (current && same(current, next)) continue;
      upserts.push({ ...next, id: current?.id ?? newId('std'), groupId });
      moved.push(row.participantId);
    }
    const kept = new Set(rows.map((row) => row.participantId));
    for (const row of before.values()) if (!kept.has(row.participantId)) deleted.push(row.id);
    if (moved.length || before.size !== kept.size) {
      changes.push({ type: 'standings.updated', resourceType: 'standings', resourceId: groupId ?? stageId, payload: { stageId, groupId, participantIds: moved } });
    }
  }
  const statements: SqlStatement[] = [];
  if (deleted.length) statements.push({ text: DELETE_STANDINGS_SQL, values: [deleted] });
  if (upserts.length) {
    const column = <K extends keyof StoredStandingRow>(key: K) => upserts.map((row) => row[key]);
    statements.push({
      text: UPSERT_STANDINGS_SQL,
      values: [
        eventId,
        stageId,
        column('id'),
        column('groupId'),
        column('participantId'),
        column('rank'),
        column('seed'),
        column('played'),
        column('wins'),
        column('draws'),
        column('losses'),
        column('points'),
        column('scoreFor'),
        column('scoreAgainst'),
        column('adjustmentPoints'),
        upserts.map((row) => JSON.stringify(row.tiebreakers)),
        column('qualified'),
      ],
    });
  }
  return { statements, changes };
}

/**
 * The stage's matches (of some groups; all when null) and adjustments, read once for the standings.
 * `changing`: when given, only the completed matches and these are read (what the standings count);
 * a swiss group's next pairing needs all of them.
 */
export async function readStandingsInputs(
  ctx: SubgraphContext,
  eventId: string,
  stage: { id: string; format: string; status: string },
  groups: readonly GroupKey[] | null,
  changing?: readonly string[],
  options: { matches?: boolean } = {},
) {
  const stageId = stage.id;
  // A stage without groups keeps its matches under the group null: read them all.
  const groupFilter = groups && groups.every((group) => group !== null) ? (groups as string[]) : null;
  const text = ROUND_FORMATS.has(stage.format) ? STANDINGS_MATCHES_SQL.withRounds : STANDINGS_MATCHES_SQL.resultsOnly;
  // A started stage's stored rows carry each participant's adjustments (every adjustment rewrites
  // them): only a start reads the adjustments themselves.
  const started = stage.status !== 'pending';
  const [matches, adjustmentRows, stored] = await Promise.all([
    options.matches === false ? [] : ctx.sql<StandingsMatchRow>(text, [eventId, stageId, groupFilter, changing !== undefined, changing ?? []]),
    started ? null : ctx.sql<{ participantId: string; points: number }>(STAGE_ADJUSTMENTS_SQL, [eventId, stageId]),
    ctx.sql<StoredStandingRow>(STORED_STANDINGS_SQL, [eventId, stageId, groupFilter]),
  ]);
  const adjustments = adjustmentRows ? adjustmentRows.map((row) => [row.participantId, row.points] as const) : stored.filter((row) => row.adjustmentPoints).map((row) => [row.participantId, row.adjustmentPoints] as const);
  return { matches, adjustments: new Map(adjustments), stored };
}

/**
 * Every group's standings of a started stage recomputed from what is stored, with an adjustment
 * about to be written (`extra`): the writes that bring them there.
 */
export async function recomputedStandings(
  ctx: SubgraphContext,
  eventId: string,
  stage: StandingsStage & { settings: unknown },
  extra: { participantId: string; points: number },
): Promise<{ statements: SqlStatement[]; changes: Change[] }> {
  const inputs = await readStandingsInputs(ctx, eventId, stage, null, []);
  const adjustments = new Map(inputs.adjustments);
  adjustments.set(extra.participantId, (adjustments.get(extra.participantId) ?? 0) + extra.points);
  const standings = computeStageStandings({
    format: stage.format,
    settings: stageSettingsView(stage),
    seeding: stage.seeding as StageSeeding,
    matches: inputs.matches,
    adjustments,
    final: stage.status === 'completed',
  });
  const written = standingsWrites(eventId, stage.id, standings, inputs.stored, adjustments);
  // Qualification of a completed stage may move: the stage chained to it follows (or refuses, started).
  if (stage.status === 'completed' && written.changes.length) {
    const rows = rankedRows(standings);
    const chained = await chainNextStage(ctx, eventId, stage, true, rows);
    return { statements: [...written.statements, ...chained.statements], changes: [...written.changes, ...chained.changes] };
  }
  return written;
}

// ── a report's standings from the stored rows ────────────────────────────────
/**
 * Round robin and league standings (without buchholz) add up match by match: the stored rows already
 * hold every participant's record, so a report only moves its two participants' records by what its
 * result changed, and reads just the matches between participants still level when head_to_head
 * comes. A report in a 64-team league then reads 64 stored rows, not 2,016 matches.
 */
export const addsUp = (format: string, settings: ResolvedStageSettings) => (format === 'round_robin' || format === 'league') && !(settings.tiebreakers ?? []).includes('buchholz');

const ZERO: MatchTotals = { played: 0, wins: 0, draws: 0, losses: 0, scoreFor: 0, scoreAgainst: 0 };
const RECORD_FIELDS = Object.keys(ZERO) as (keyof MatchTotals)[];

/** What one match counts for its participants, as the engine counts any match (nothing unless completed). */
function recordsOf(format: string, settings: ResolvedStageSettings, row: StandingsMatchRow): StandingRow[] {
  const match = standingsMatch(row);
  if (!match) return [];
  const participants = [row.participantAId, row.participantBId].filter((id) => id !== null).map((participantId, i) => ({ participantId, seed: i + 1 }));
  return computeStandings({ format: format as StageFormat, settings: { ...settings, tiebreakers: ['seed'], qualifiers: null }, participants, matches: [match] });
}

/**
 * One group's standings after a report of one match (`before` → `after`) from its stored rows, or
 * null when they do not hold every participant of the group (the caller counts from the matches).
 */
export async function standingsFromStored(
  ctx: SubgraphContext,
  eventId: string,
  stage: { id: string; format: string },
  options: { settings: ResolvedStageSettings; seeding: StageSeeding; groupId: GroupKey; stored: readonly StoredStandingRow[]; before: StandingsMatchRow; after: StandingsMatchRow; adjustments: ReadonlyMap<string, number> },
): Promise<StandingRow[] | null> {
  const { settings, seeding, groupId, adjustments } = options;
  const members = standingsGroups(seeding).get(groupId) ?? [];
  const stored = new Map(options.stored.filter((row) => row.groupId === groupId).map((row) => [row.participantId, row]));
  if (stored.size !== members.length || !members.every((id) => stored.has(id))) return null;
  const seedOf = new Map(seeding.participantIds.map((id, index) => [id, index + 1]));
  const totals = new Map(members.map((id) => [id, Object.fromEntries(RECORD_FIELDS.map((field) => [field, stored.get(id)![field]])) as unknown as MatchTotals]));
  for (const [rows, sign] of [
    [recordsOf(stage.format, settings, options.before), -1],
    [recordsOf(stage.format, settings, options.after), 1],
  ] as const) {
    for (const row of rows) {
      const record = totals.get(row.participantId);
      if (!record) return null;
      for (const field of RECORD_FIELDS) record[field] += sign * row[field];
    }
  }
  // Head to head reads the matches between participants level on every tiebreaker before it.
  const tiebreakers = settings.tiebreakers ?? [];
  const headToHead = tiebreakers.indexOf('head_to_head');
  let level: StandingsMatch[] = [];
  if (headToHead > 0) {
    const table = settings.points ?? DEFAULT_POINTS;
    const keyOf = (id: string) => {
      const t = totals.get(id)!;
      const value: Record<Exclude<Tiebreaker, 'head_to_head' | 'buchholz'>, number> = {
        points: t.wins * table.win + t.draws * table.draw + t.losses * table.loss + (adjustments.get(id) ?? 0),
        score_difference: t.scoreFor - t.scoreAgainst,
        score_for: t.scoreFor,
        wins: t.wins,
        seed: seedOf.get(id)!,
      };
      return tiebreakers
        .slice(0, headToHead)
        .map((name) => value[name as keyof typeof value])
        .join(' ');
    };
    const sets = new Map<string, string[]>();
    for (const id of members) {
      const key = keyOf(id);
      (sets.get(key) ?? sets.set(key, []).get(key)!).push(id);
    }
    const setOf = new Map<string, number>();
    [...sets.values()].filter((ids) => ids.length > 1).forEach((ids, index) => ids.forEach((id) => setOf.set(id, index)));
    if (setOf.size) {
      const rows = await ctx.sql<StandingsMatchInput>(LEVEL_MATCHES_SQL, [eventId, stage.id, groupId === null ? null : [groupId], JSON.stringify(Object.fromEntries(setOf)), [options.after.id]]);
      const { participantAId: a, participantBId: b } = options.after;
      const own = a !== null && b !== null && setOf.has(a) && setOf.get(a) === setOf.get(b) ? [options.after] : [];
      level = [...rows, ...own].map(standingsMatch).filter((match) => match !== null);
    }
  } else if (headToHead === 0) {
    // Ranked by head to head first: every match counts.
    return null;
  }
  return computeStandings({
    format: stage.format as StageFormat,
    settings: { ...settings, qualifiers: null },
    participants: members.map((participantId) => ({ participantId, seed: seedOf.get(participantId)! })),
    matches: level,
    totals,
    adjustments: members.filter((id) => adjustments.has(id)).map((participantId) => ({ participantId, points: adjustments.get(participantId)! })),
  });
}
