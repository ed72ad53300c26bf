// The competition writes of the interface that shape a stage: creating one with its groups, and
// adjusting a participant's standing in it. What each reads and checks (its plan) and the statements
// it has runEventWrite apply in the event's transaction.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { validationFailed } from '../../../platform/api/errors.ts';
import type { SqlStatement } from '../../../platform/db/database.ts';
import { validate } from '../../../platform/api/validation.ts';
import { runEventWrite, type Change, type WriteResult } from '../events/event-write.ts';
import { assertOpen, type Preconditions } from '../events/write-rules.ts';
import { stageAndGroupOf } from '../events/writes.ts';
import { SET_FIRST_STAGE_SQL } from '../events/statements.ts';
import { ADD_STANDING_POINTS_SQL, INSERT_GROUPS_SQL, INSERT_STAGE_SQL, INSERT_STANDING_ADJUSTMENT_SQL } from './statements.ts';
import { stageInput, standingAdjustmentInput } from '../inputs.ts';
import { hasComputedStandings, recomputedStandings } from './standings.ts';
import { parseStageSettings } from '../tournament/index.ts';

// ── stages ───────────────────────────────────────────────────────────────────
export function createStage(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(stageInput, body);
  const settings = parseStageSettings(input.format, input.settings);
  return runEventWrite(ctx, {
    operation: 'createStage',
    eventId,
    ...pre,
    request: input,
    async plan(_db, event) {
      assertOpen(event);
      const stageId = newId('stg');
      const groups = (input.groups ?? []).map((group) => ({ id: newId('grp'), name: group.name }));
      const timestamp = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);
      return {
        resourceId: stageId,
        changed: true,
        changes: [{ type: 'stage.created', resourceType: 'stage', resourceId: stageId, payload: { stageId, name: input.name, format: input.format, bestOf: input.bestOf, groupIds: groups.map((g) => g.id), settings } }],
        statements: [
          { text: INSERT_STAGE_SQL, values: [stageId, eventId, input.name, input.format, input.bestOf, timestamp(input.startsAt), timestamp(input.endsAt), JSON.stringify(settings)] },
          ...(groups.length ? [{ text: INSERT_GROUPS_SQL, values: [eventId, stageId, groups.map((g) => g.id), groups.map((g) => g.name)] }] : []),
          { text: SET_FIRST_STAGE_SQL, values: [eventId, stageId] },
        ],
      };
    },
  });
}

// ── standing adjustments ─────────────────────────────────────────────────────
export function createStandingAdjustment(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(standingAdjustmentInput, body);
  return runEventWrite(ctx, {
    operation: 'createStandingAdjustment',
    eventId,
    ...pre,
    request: input,
    async plan(db) {
      await stageAndGroupOf(db, eventId, input.stageId, input.groupId);
      const participant = await db.participant.findUnique({ where: { id: input.participantId }, select: { eventId: true, selectedGroupIds: true } });
      if (!participant || participant.eventId !== eventId) throw validationFailed('participantId is not a participant of this event.', [{ field: 'participantId', issue: 'not a participant of this event' }]);
      // A participant belongs to a stage (group) when it stands or plays there, or chose that group.
      const where = { stageId: input.stageId, ...(input.groupId ? { groupId: input.groupId } : {}) };
      const [standing, matches] = await Promise.all([
        db.standing.findFirst({ where: { ...where, participantId: input.participantId }, select: { id: true, groupId: true } }),
        db.match.count({ where: { ...where, OR: [{ participantAId: input.participantId }, { participantBId: input.participantId }] } }),
      ]);
      const chose = input.groupId ? participant.selectedGroupIds.includes(input.groupId) : false;
      if (!standing && !matches && !chose) {
        throw validationFailed(`The participant does not take part in that ${input.groupId ? 'group' : 'stage'}.`, [{ field: 'participantId', issue: `not in this ${input.groupId ? 'group' : 'stage'}` }]);
      }
      const adjustmentId = newId('adj');
      // A started stage's standings are recomputed with the adjustment (ranks may move); a standing
      // entered by hand takes the points as they are.
      const stage = await db.stage.findUniqueOrThrow({ where: { id: input.stageId }, select: { id: true, format: true, status: true, settings: true, seeding: true } });
      const standings = hasComputedStandings(stage)
        ? await recomputedStandings(ctx, eventId, stage, { participantId: input.participantId, points: input.points })
        : handEntered(standing, input);
      return {
        resourceId: adjustmentId,
        changed: true,
        changes: [
          { type: 'standing.adjusted', resourceType: 'standing_adjustment', resourceId: adjustmentId, payload: { adjustmentId, participantId: input.participantId, stageId: input.stageId, groupId: input.groupId ?? null, points: input.points } },
          ...standings.changes,
        ],
        statements: [
          {
            text: INSERT_STANDING_ADJUSTMENT_SQL,
            values: [adjustmentId, eventId, input.stageId, input.groupId ?? null, input.participantId, input.points, input.reason ?? null],
          },
          ...standings.statements,
        ],
      };
    },
  });
}

/** A standing entered by hand takes the points as they are (nothing ranks it again): its table moved. */
function handEntered(standing: { id: string; groupId: string | null } | null, input: { participantId: string; stageId: string; points: number }): { statements: SqlStatement[]; changes: Change[] } {
  if (!standing) return { statements: [], changes: [] };
  return {
    statements: [{ text: ADD_STANDING_POINTS_SQL, values: [standing.id, input.points] }],
    changes: [
      { type: 'standings.updated', resourceType: 'standings', resourceId: standing.groupId ?? input.stageId, payload: { stageId: input.stageId, groupId: standing.groupId, participantIds: [input.participantId] } },
    ],
  };
}
