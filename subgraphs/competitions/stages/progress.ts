// What a match report moves beyond the bracket, in the report's own transaction: the stage reads
// `completed` once its last match is (a swiss stage once its last round is, too), and `running` again
// when a correction gives it a match to play; the event's state follows its matches and stages:
// `live` at its first live or completed match, `completed` when its last stage completes (and `live`
// again when a correction reopens one). A swiss round that the report completes has the next one
// paired (swiss-rounds.ts). docs/tournaments.md ("Stages and the event follow") describes the rules.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { Change, EventState } from '../events/event-write.ts';
import type { SqlStatement } from '../../../platform/db/database.ts';
import { stageSettingsView, type GroupKey, type StageSeeding } from './settings.ts';
import { chainNextStage, rankedRows, storedRows } from './chain.ts';
import { addsUp, computeStageStandings, readStandingsInputs, standingsFromStored, standingsWrites, storedAdjustments, type StandingsMatchInput } from './standings.ts';
import { pairNextSwissRound, type SwissStage } from './swiss-rounds.ts';
import { OPEN_STAGE_MATCHES_SQL, REPORT_INPUTS_SQL, SET_STAGE_STATUS_SQL, storedStandingOf, type StandingsMatchRow, type StoredStandingRow } from './statements.ts';
import { SET_EVENT_STATE_SQL } from '../events/statements.ts';

/** A reported match as a full row of its group (what the standings count of it). */
const row = (m: TouchedMatch, groupId: string | null): StandingsMatchRow => ({ isFreeWin: false, ...m, groupId });

/** Match statuses that end a match: nothing more is played in it. */
const FINISHED = new Set(['completed', 'cancelled']);
/** Event states a match result moves on from. */
const BEFORE_LIVE = new Set(['draft', 'scheduled']);

export type StageOfReport = SwissStage;

/** A match the report wrote, as it leaves it. */
export type TouchedMatch = Pick<StandingsMatchRow, 'id' | 'status' | 'participantAId' | 'participantBId' | 'scoreA' | 'scoreB' | 'forfeit' | 'opponents'> & Partial<Pick<StandingsMatchRow, 'isFreeWin'>>;

/** Whether a match other than the reported ones is still to be played, and what else completes with the stage. */
type OpenMatches = { open: boolean; rounds: number; otherStages: number };

/** What a round robin or league report's standings move by, read with the match (REPORT_INPUTS_SQL). */
export interface ReportInputs extends OpenMatches {
  stored: StoredStandingRow[];
  theirMatches: StandingsMatchInput[];
}

type CompletedMatchTuple = [participantAId: string | null, participantBId: string | null, scoreA: number | null, scoreB: number | null, forfeit: string | null, isFreeWin: boolean];
/**
 * REPORT_INPUTS_SQL, read beside the plan's read of the match so that a round robin or league report
 * waits for one read, not two in turn; null for a match that is not a duel of such a running stage.
 */
export async function prefetchReportInputs(ctx: SubgraphContext, eventId: string, matchId: string): Promise<ReportInputs | null> {
  const [inputs] = await ctx.sql<OpenMatches & { stored: unknown[][]; theirMatches: CompletedMatchTuple[] }>(REPORT_INPUTS_SQL, [matchId, eventId]);
  if (!inputs) return null;
  const theirMatches = inputs.theirMatches.map(([participantAId, participantBId, scoreA, scoreB, forfeit, isFreeWin]) => ({ status: 'completed', participantAId, participantBId, scoreA, scoreB, forfeit, isFreeWin }));
  return { open: inputs.open, rounds: inputs.rounds, otherStages: inputs.otherStages, stored: inputs.stored.map(storedStandingOf), theirMatches };
}

/**
 * What the report moves beyond its matches: the standings of the reported match's group (or stage),
 * the next swiss round, the stage's status and the event's state. `touched`: the reported match
 * first, then the matches its result moved; `reported`: the reported match as it was before.
 */
export async function stageFollowUps(
  ctx: SubgraphContext,
  event: EventState,
  stage: StageOfReport,
  groupId: string | null,
  touched: TouchedMatch[],
  reported?: TouchedMatch,
  prefetched?: ReportInputs | null,
): Promise<{ changes: Change[]; statements: SqlStatement[] }> {
  const changes: Change[] = [];
  const statements: SqlStatement[] = [];
  const seeding = stage.seeding as StageSeeding;
  const settings = stageSettingsView(stage);
  const grouped = Boolean(seeding.groups?.length);
  const after = new Map(touched.map((m) => [m.id, m]));
  const overlay = (rows: StandingsMatchRow[]) => rows.map((row) => (after.has(row.id) ? { ...row, ...after.get(row.id) } : row));
  // The group's matches as the report leaves them: its standings, and its next swiss round.
  const group: GroupKey[] = [grouped ? groupId : null];
  // Swiss pairs from every match of the group; the other formats' standings count the completed ones.
  const changing = stage.format === 'swiss' ? undefined : touched.map((m) => m.id);
  // A round robin or league report moves the stored rows by its one match's result, from what was
  // read with the match (standings.ts); a completed stage's correction recounts, its
  // qualification may move; without those inputs (the stage changed between the two reads) the
  // report counts from the matches.
  const incremental = prefetched != null && reported !== undefined && stage.status === 'running' && touched.length === 1 && !touched[0].opponents && addsUp(stage.format, settings);
  // The stage's open matches are counted meanwhile: they decide whether it completes.
  const [inputs, [open]] = incremental
    ? [{ stored: prefetched.stored, adjustments: storedAdjustments(prefetched.stored), matches: [] }, [prefetched]]
    : await Promise.all([
        readStandingsInputs(ctx, event.id, stage, grouped ? group : null, changing),
        ctx.sql<OpenMatches>(OPEN_STAGE_MATCHES_SQL, [stage.id, touched.map((m) => m.id)]),
      ]);
  let adjustments = inputs.adjustments;
  const compute = (final: boolean, rows: StandingsMatchRow[], groups?: GroupKey[]) =>
    computeStageStandings({ format: stage.format, settings, seeding, groups, matches: rows, adjustments, final });
  const fromStored = incremental
    ? standingsFromStored(stage.format, { settings, seeding, groupId: group[0], stored: inputs.stored, before: row(reported, groupId), after: row(touched[0], groupId), adjustments, theirMatches: prefetched.theirMatches })
    : null;
  // Stored rows that do not hold the whole group (or head to head ranking first): count the matches.
  const matches = overlay(fromStored ? [] : incremental ? (await readStandingsInputs(ctx, event.id, stage, grouped ? group : null, changing)).matches : inputs.matches);
  let standings = fromStored ? new Map([[group[0], fromStored]]) : compute(stage.status === 'completed', matches, group);
  let stored = inputs.stored;

  // A swiss round just completed: the next one is paired now.
  const paired = pairNextSwissRound(event.id, stage, group[0], matches, standings.get(group[0])!);
  const stageDone =
    !paired &&
    stage.status === 'running' &&
    !open.open &&
    touched.every((m) => FINISHED.has(m.status)) &&
    // A swiss stage pairs round after round: it is over when its last round is.
    (stage.format !== 'swiss' || open.rounds >= (settings.rounds ?? 0));
  // A correction can give a completed stage a match to play again (a grand-final reset it now needs).
  const reopened = stage.status === 'completed' && (open.open || !touched.every((m) => FINISHED.has(m.status)));
  // Qualification is final with the stage: completing (or reopening) it marks (or clears) the
  // qualifiers of every group, not only the reported one.
  if ((stageDone || reopened) && settings.qualifiers) {
    if (grouped || incremental) {
      const all = await readStandingsInputs(ctx, event.id, stage, null, touched.map((m) => m.id));
      adjustments = all.adjustments;
      standings = compute(stageDone, overlay(all.matches));
      stored = all.stored;
    } else standings = compute(stageDone, matches, group);
  }
  // The standings first: a consumer reads the table the new round was paired from.
  const written = standingsWrites(event.id, stage.id, standings, stored, adjustments);
  statements.push(...written.statements);
  changes.push(...written.changes);
  if (paired) {
    statements.push(...paired.statements);
    const payload = { stageId: stage.id, groupId: paired.groupId, roundNumber: paired.roundNumber, matchCount: paired.matchCount };
    changes.push({ type: 'stage.round_paired', resourceType: 'stage', resourceId: stage.id, payload });
  }
  if (stageDone) {
    statements.push({ text: SET_STAGE_STATUS_SQL, values: [stage.id, 'completed'] });
    changes.push({ type: 'stage.completed', resourceType: 'stage', resourceId: stage.id, payload: { stageId: stage.id, format: stage.format } });
  } else if (reopened) {
    statements.push({ text: SET_STAGE_STATUS_SQL, values: [stage.id, 'running'] });
    changes.push({ type: 'stage.reopened', resourceType: 'stage', resourceId: stage.id, payload: { stageId: stage.id, format: stage.format } });
  }
  // A stage completed (or reopened, or corrected while completed) moves the seeding of the stage
  // that chains to it: shown while that stage is pending, refused once it has started.
  const completedAfter = stageDone || (stage.status === 'completed' && !reopened);
  if (stageDone || reopened || (completedAfter && written.changes.length)) {
    const rows = rankedRows(standings);
    const others = grouped && standings.size < (seeding.groups?.length ?? 0) ? (await storedRows(ctx, event.id, stage.id)).filter((row) => !standings.has(row.groupId)) : [];
    const chained = await chainNextStage(ctx, event.id, stage, completedAfter, [...rows, ...others]);
    statements.push(...chained.statements);
    changes.push(...chained.changes);
  }

  const played = touched.some((m) => m.status === 'live' || m.status === 'completed');
  const state =
    stageDone && open.otherStages === 0 ? 'completed' : reopened && event.state === 'completed' ? 'live' : BEFORE_LIVE.has(event.state) && played ? 'live' : null;
  if (state && state !== event.state) {
    statements.push({ text: SET_EVENT_STATE_SQL, values: [event.id, state] });
    changes.push({ type: 'event.updated', resourceType: 'event', resourceId: event.id, payload: { fields: ['state'], state, previousState: event.state } });
  }
  return { changes, statements };
}
