// The stored standings of a stage the platform started: computed by the engine (computeStandings)
// from the stage's completed matches and adjustments, per group when the stage plays groups, and
// written in the transaction of the write that moved them (the start, a report, an adjustment), only
// the rows that changed, with one `standings.updated` change per stage or group that moved. Reads
// are then one indexed query. docs/tournaments.md ("Standings") describes the rules.
import { newId } from '../../../platform/api/crypto.ts';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { SqlStatement } from '../../../platform/db/database.ts';
import type { Change } from '../events/event-write.ts';
import { chainNextStage, rankedRows } from './chain.ts';
import { stageSettingsView, type GroupKey, type StageSeeding } from './settings.ts';
import { DELETE_STANDINGS_SQL, STAGE_ADJUSTMENTS_SQL, STANDINGS_MATCHES_SQL, STORED_STANDINGS_SQL, UPSERT_STANDINGS_SQL, type StandingsMatchRow, type StoredStandingRow } from './statements.ts';
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
} from '../tournament/index.ts';

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

/** A computed row as stored (built whole: spreading a row into another costs more than the rest of the comparison). */
function storedOf(row: StandingRow, adjustmentPoints: number, id: string, groupId: GroupKey): StoredStandingRow {
  return {
    id,
    groupId,
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

/** Whether a stored row already holds what was computed (field by field: this runs for every row of a group). */
function same(stored: StoredStandingRow, next: StoredStandingRow): boolean {
  if (
    stored.rank !== next.rank ||
    stored.seed !== next.seed ||
    stored.played !== next.played ||
    stored.wins !== next.wins ||
    stored.draws !== next.draws ||
    stored.losses !== next.losses ||
    stored.points !== next.points ||
    stored.scoreFor !== next.scoreFor ||
    stored.scoreAgainst !== next.scoreAgainst ||
    stored.scoreDifference !== next.scoreDifference ||
    stored.adjustmentPoints !== next.adjustmentPoints ||
    stored.qualified !== next.qualified ||
    stored.tiebreakers.length !== next.tiebreakers.length
  ) {
    return false;
  }
  for (let i = 0; i < next.tiebreakers.length; i++) {
    if (stored.tiebreakers[i].name !== next.tiebreakers[i].name || stored.tiebreakers[i].value !== next.tiebreakers[i].value) return false;
  }
  return true;
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
      const current = before.get(row.participantId);
      const next = storedOf(row, adjustments.get(row.participantId) ?? 0, current?.id ?? newId('std'), groupId);
      if (current && same(current, next)) continue;
      upserts.push(next);
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
  if (upserts.length) statements.push({ text: UPSERT_STANDINGS_SQL, values: [eventId, stageId, JSON.stringify(upserts)] });
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
) {
  const stageId = stage.id;
  // A stage without groups keeps its matches under the group null: read them all.
  const groupFilter = groups && groups.every((group) => group !== null) ? (groups as string[]) : null;
  const text = ROUND_FORMATS.has(stage.format) ? STANDINGS_MATCHES_SQL.withRounds : STANDINGS_MATCHES_SQL.resultsOnly;
  // A started stage's stored rows carry each participant's adjustments (every adjustment rewrites
  // them): only a start reads the adjustments themselves.
  const started = stage.status !== 'pending';
  const [matches, adjustmentRows, stored] = await Promise.all([
    ctx.sql<StandingsMatchRow>(text, [eventId, stageId, groupFilter, changing !== undefined, changing ?? []]),
    started ? null : ctx.sql<{ participantId: string; points: number }>(STAGE_ADJUSTMENTS_SQL, [eventId, stageId]),
    ctx.sql<StoredStandingRow>(STORED_STANDINGS_SQL, [eventId, stageId, groupFilter]),
  ]);
  const adjustments = adjustmentRows ? new Map(adjustmentRows.map((row) => [row.participantId, row.points] as const)) : storedAdjustments(stored);
  return { matches, adjustments, stored };
}

/** Each participant's adjustment points as its stored standing carries them. */
export const storedAdjustments = (stored: readonly StoredStandingRow[]) => new Map(stored.filter((row) => row.adjustmentPoints).map((row) => [row.participantId, row.adjustmentPoints] as const));

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
 * hold every participant's record and head-to-head value, so a report only moves its two
 * participants' records by what its result changed, and their head-to-head values and those of the
 * runs they left or joined by their matches. A report in a 64-team league then reads 64 stored rows
 * and the two participants' matches, not 2,016 matches.
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

export interface FromStoredOptions {
  settings: ResolvedStageSettings;
  seeding: StageSeeding;
  groupId: GroupKey;
  stored: readonly StoredStandingRow[];
  /** The reported match before and after the report. */
  before: StandingsMatchRow;
  after: StandingsMatchRow;
  adjustments: ReadonlyMap<string, number>;
  /** With head_to_head after the first tiebreaker: the completed matches the reported match's participants played, it left out (REPORT_INPUTS_SQL). */
  theirMatches?: readonly StandingsMatchInput[];
}

/**
 * One group's standings after a report of one match (`before` → `after`) from its stored rows, or
 * null when they do not hold every participant of the group (or a head-to-head value), or head to
 * head ranks first: the caller counts from the matches.
 */
export function standingsFromStored(format: string, options: FromStoredOptions): StandingRow[] | null {
  const { settings, seeding, groupId, adjustments } = options;
  const members = standingsGroups(seeding).get(groupId) ?? [];
  const stored = new Map(options.stored.filter((row) => row.groupId === groupId).map((row) => [row.participantId, row]));
  if (stored.size !== members.length || !members.every((id) => stored.has(id))) return null;
  const seedOf = new Map(seeding.participantIds.map((id, index) => [id, index + 1]));
  const recordOf = (id: string): MatchTotals => {
    const { played, wins, draws, losses, scoreFor, scoreAgainst } = stored.get(id)!;
    return { played, wins, draws, losses, scoreFor, scoreAgainst };
  };
  const previous = new Map(members.map((id) => [id, recordOf(id)]));
  const totals = new Map(members.map((id) => [id, recordOf(id)]));
  const moved = new Set<string>();
  for (const [rows, sign] of [
    [recordsOf(format, settings, options.before), -1],
    [recordsOf(format, settings, options.after), 1],
  ] as const) {
    for (const row of rows) {
      const record = totals.get(row.participantId);
      if (!record) return null;
      for (const field of RECORD_FIELDS) record[field] += sign * row[field];
      moved.add(row.participantId);
    }
  }
  const tiebreakers = settings.tiebreakers ?? [];
  const position = tiebreakers.indexOf('head_to_head');
  // Ranked by head to head first: every match counts.
  if (position === 0) return null;
  let headToHead: Map<string, number> | undefined;
  if (position > 0) {
    headToHead = headToHeadAfter(options, { members, stored, seedOf, previous, totals, moved, levelBy: tiebreakers.slice(0, position) });
    if (!headToHead) return null;
  }
  return computeStandings({
    format: format as StageFormat,
    settings: { ...settings, qualifiers: null },
    participants: members.map((participantId) => ({ participantId, seed: seedOf.get(participantId)! })),
    matches: [],
    totals,
    headToHead,
    adjustments: members.filter((id) => adjustments.has(id)).map((participantId) => ({ participantId, points: adjustments.get(participantId)! })),
  });
}

/**
 * Every member's head-to-head value after the report (the points it earned in the matches between
 * members of its run: those level with it on every tiebreaker before head_to_head), from the stored
 * values: a participant the report did not move gains its points against the moved participants
 * that joined its run and loses those against the ones that left it; a moved participant counts its
 * matches against its new run. Undefined when a stored row has no head-to-head value.
 */
function headToHeadAfter(
  options: FromStoredOptions,
  input: {
    members: readonly string[];
    stored: ReadonlyMap<string, StoredStandingRow>;
    seedOf: ReadonlyMap<string, number>;
    /** Each member's record before the report and after it. */
    previous: ReadonlyMap<string, MatchTotals>;
    totals: ReadonlyMap<string, MatchTotals>;
    /** The participants whose record the report moved. */
    moved: ReadonlySet<string>;
    /** The tiebreakers before head_to_head: equal values on all of them make a run. */
    levelBy: readonly Tiebreaker[];
  },
): Map<string, number> | undefined {
  const { members, stored, seedOf, moved } = input;
  const { adjustments } = options;
  const table = options.settings.points ?? DEFAULT_POINTS;
  const valueOf = (name: Tiebreaker, id: string, t: MatchTotals) => {
    switch (name) {
      case 'points':
        return t.wins * table.win + t.draws * table.draw + t.losses * table.loss + (adjustments.get(id) ?? 0);
      case 'score_difference':
        return t.scoreFor - t.scoreAgainst;
      case 'score_for':
        return t.scoreFor;
      case 'wins':
        return t.wins;
      case 'seed':
        return seedOf.get(id)!;
      default:
        throw new TypeError(`${name} does not add up match by match.`);
    }
  };
  // The values of the tiebreakers before head_to_head, as one key: equal keys make a run.
  const keyOf = (id: string, records: ReadonlyMap<string, MatchTotals>) => {
    const t = records.get(id)!;
    let key = '';
    for (const name of input.levelBy) key += `${valueOf(name, id, t)} `;
    return key;
  };
  // Points each participant earned against each moved participant (and a moved one against anyone).
  const earned = new Map<string, Map<string, number>>();
  const add = (own: string, other: string, points: number) => {
    const row = earned.get(own) ?? earned.set(own, new Map()).get(own)!;
    row.set(other, (row.get(other) ?? 0) + points);
  };
  for (const row of [...(options.theirMatches ?? []), options.after]) {
    const match = standingsMatch(row);
    if (!match || match.kind === 'ffa' || match.participantA === null || match.participantB === null) continue;
    for (const [own, other] of [[match.participantA, match.participantB], [match.participantB, match.participantA]]) {
      add(own, other, match.winner === own ? table.win : match.winner === null && match.isDraw ? table.draw : table.loss);
    }
  }
  const against = (own: string, other: string) => earned.get(own)?.get(other) ?? 0;
  const keyBefore = new Map(members.map((id) => [id, keyOf(id, input.previous)]));
  const keyAfter = new Map(members.map((id) => [id, keyOf(id, input.totals)]));
  const runAfter = new Map<string, string[]>();
  for (const id of members) (runAfter.get(keyAfter.get(id)!) ?? runAfter.set(keyAfter.get(id)!, []).get(keyAfter.get(id)!)!).push(id);
  const values = new Map<string, number>();
  for (const id of members) {
    const run = runAfter.get(keyAfter.get(id)!)!;
    if (moved.has(id)) {
      values.set(id, run.length > 1 ? run.reduce((sum, other) => (other === id ? sum : sum + against(id, other)), 0) : 0);
      continue;
    }
    const storedValue = stored.get(id)!.tiebreakers.find((entry) => entry.name === 'head_to_head')?.value;
    if (storedValue === undefined) return undefined;
    let value = storedValue;
    for (const other of moved) {
      if (keyBefore.get(other) === keyBefore.get(id)) value -= against(id, other);
      if (keyAfter.get(other) === keyAfter.get(id)) value += against(id, other);
    }
    values.set(id, value);
  }
  return values;
}
