// What a match report moves beyond the bracket, in the report's own transaction: the stage reads
// `completed` once its last match is (a swiss stage once its last round is, too), and `running` again
// when a correction gives it a match to play; the event's state follows its matches and stages:
// `live` at its first live or completed match, `completed` when its last stage completes (and `live`
// again when a correction reopens one). A swiss round that the report completes has the next one
// paired (swiss-rounds.ts). docs/tournaments.md ("Stages and the event follow") describes the rules.
import type { SubgraphContext } from '../shared/context.ts';
import type { Change, EventState } from './event-write.ts';
import type { SqlStatement } from '../shared/db/database.ts';
import { stageSettingsView } from './stage-start.ts';
import { pairNextSwissRound, type ReportedMatch, type SwissStage } from './swiss-rounds.ts';
import { OPEN_STAGE_MATCHES_SQL, SET_EVENT_STATE_SQL, SET_STAGE_STATUS_SQL } from './statements.ts';

/** Match statuses that end a match: nothing more is played in it. */
const FINISHED = new Set(['completed', 'cancelled']);
/** Event states a match result moves on from. */
const BEFORE_LIVE = new Set(['draft', 'scheduled']);

export type StageOfReport = SwissStage;

/** The matches a report wrote, with their statuses after it. */
export type Touched = { id: string; status: string }[];

export async function stageFollowUps(
  ctx: SubgraphContext,
  event: EventState,
  stage: StageOfReport,
  reported: ReportedMatch,
  touched: Touched,
): Promise<{ changes: Change[]; statements: SqlStatement[] }> {
  const changes: Change[] = [];
  const statements: SqlStatement[] = [];
  // A swiss round just completed: the next one is paired now.
  const paired = await pairNextSwissRound(ctx, event.id, stage, reported);
  if (paired) {
    statements.push(...paired.statements);
    const payload = { stageId: stage.id, groupId: paired.groupId, roundNumber: paired.roundNumber, matchCount: paired.matchCount };
    changes.push({ type: 'stage.round_paired', resourceType: 'stage', resourceId: stage.id, payload });
  }
  const [open] = await ctx.sql<{ matches: number; rounds: number; otherStages: number }>(OPEN_STAGE_MATCHES_SQL, [stage.id, touched.map((m) => m.id)]);
  const stageDone =
    !paired &&
    stage.status === 'running' &&
    open.matches === 0 &&
    touched.every((m) => FINISHED.has(m.status)) &&
    // A swiss stage pairs round after round: it is over when its last round is.
    (stage.format !== 'swiss' || open.rounds >= (stageSettingsView(stage).rounds ?? 0));
  // A correction can give a completed stage a match to play again (a grand-final reset it now needs).
  const reopened = stage.status === 'completed' && (open.matches > 0 || !touched.every((m) => FINISHED.has(m.status)));
  if (stageDone) {
    statements.push({ text: SET_STAGE_STATUS_SQL, values: [stage.id, 'completed'] });
    changes.push({ type: 'stage.completed', resourceType: 'stage', resourceId: stage.id, payload: { stageId: stage.id, format: stage.format } });
  } else if (reopened) {
    statements.push({ text: SET_STAGE_STATUS_SQL, values: [stage.id, 'running'] });
    changes.push({ type: 'stage.reopened', resourceType: 'stage', resourceId: stage.id, payload: { stageId: stage.id, format: stage.format } });
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
