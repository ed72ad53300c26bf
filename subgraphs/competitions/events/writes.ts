// Seven of the nine competition writes of the interface (stages/writes.ts has the other two, matches/live-writes.ts the three overlays follow): what each reads and checks (its plan, through Prisma's model API)
// and the statements it has runEventWrite apply in the event's transaction (its statements.ts).
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { notFound, validationFailed } from '../../../platform/api/errors.ts';
import type { Db } from '../../../platform/db/database.ts';
import { validate } from '../../../platform/api/validation.ts';
import { runEventWrite, type EventState, type WriteResult } from './event-write.ts';
import { assertOpen, CLOSED_STATES, conflict, sameJson, unchanged, type Preconditions } from './write-rules.ts';
import { DELETE_PARTICIPANT_SQL, INSERT_INVITATION_SQL, LINEUP_SQL, PUBLISH_EVENT_SQL, REPLACE_MAP_POOL_SQL, REPLACE_PLAYDAY_STAFF_SQL, REPLACE_VETO_CONFIGURATIONS_SQL, UPDATE_PARTICIPANT_SQL } from './statements.ts';
import {
  invitationInput,
  lineupInput,
  participantChangeInput,
  publishInput,
  staffInput,
  vetoInput,
} from '../inputs.ts';
import { normaliseVeto } from './veto.ts';

// ── publish ──────────────────────────────────────────────────────────────────
export const PUBLISHABLE_STATES = ['draft'];

export function publishEvent(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  validate(publishInput, body ?? {});
  return runEventWrite(ctx, {
    operation: 'publishEvent',
    eventId,
    ...pre,
    request: {},
    async plan(db, event) {
      if (!PUBLISHABLE_STATES.includes(event.state)) {
        throw conflict(`Only a draft event can be published; this one is ${event.state}.`, 'not_publishable');
      }
      const stages = await db.stage.count({ where: { eventId } });
      if (stages === 0) throw conflict('An event needs at least one stage before it is published.', 'no_stages');
      return {
        resourceId: eventId,
        changed: true,
        changes: [{ type: 'event.published', resourceType: 'event', resourceId: eventId, payload: { state: 'scheduled' } }],
        statements: [{ text: PUBLISH_EVENT_SQL, values: [eventId] }],
      };
    },
  });
}

// ── veto settings ────────────────────────────────────────────────────────────
export function updateVetoSettings(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(vetoInput, body);
  return runEventWrite(ctx, {
    operation: 'updateVetoSettings',
    eventId,
    ...pre,
    request: input,
    async plan(db, event) {
      assertOpen(event);
      const currentPool = (await db.eventMapPool.findMany({ where: { eventId }, orderBy: { position: 'asc' } })).map((row) => row.mapId);
      const pool = input.mapPool ?? currentPool;
      if (input.mapPool) {
        const known = await db.map.findMany({ where: { id: { in: input.mapPool } }, select: { id: true } });
        const knownIds = new Set(known.map((map) => map.id));
        const unknown = input.mapPool.map((mapId, index) => ({ mapId, index })).filter(({ mapId }) => !knownIds.has(mapId));
        if (unknown.length) throw validationFailed('Unknown maps in mapPool.', unknown.map(({ index }) => ({ field: `mapPool.${index}`, issue: 'unknown map' })));
      }
      if (pool.length === 0) throw validationFailed('The event has no map pool: send mapPool.', [{ field: 'mapPool', issue: 'required while the event has no map pool' }]);
      const configurations = input.configurations
        .map((config, index) => ({ bestOf: config.bestOf, steps: normaliseVeto(config.steps, pool.length, config.bestOf, `configurations.${index}`) }))
        .sort((a, b) => a.bestOf - b.bestOf);
      const current = (await db.vetoConfiguration.findMany({ where: { eventId }, orderBy: { bestOf: 'asc' } })).map((row) => ({ bestOf: row.bestOf, steps: row.steps }));
      if (sameJson(pool, currentPool) && sameJson(configurations, current)) return unchanged(eventId);
      const [deletePool, insertPool] = REPLACE_MAP_POOL_SQL;
      const [deleteConfigurations, insertConfigurations] = REPLACE_VETO_CONFIGURATIONS_SQL;
      return {
        resourceId: eventId,
        changed: true,
        changes: [{ type: 'veto.updated', resourceType: 'veto_settings', resourceId: eventId, payload: { mapPool: pool, configurations } }],
        statements: [
          ...(sameJson(pool, currentPool) ? [] : [{ text: deletePool, values: [eventId] }, { text: insertPool, values: [eventId, pool] }]),
          { text: deleteConfigurations, values: [eventId] },
          {
            text: insertConfigurations,
            values: [eventId, configurations.map((config) => config.bestOf), configurations.map((config) => JSON.stringify(config.steps))],
          },
        ],
      };
    },
  });
}

// ── invitations ──────────────────────────────────────────────────────────────
/** A team named in a body (an invitation's, a registration's) is one that exists: else 400 naming teamId. */
async function assertTeam(db: Db, teamId: string): Promise<void> {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { id: true } });
  if (!team) throw validationFailed('teamId is not a team.', [{ field: 'teamId', issue: 'unknown team' }]);
}

export async function stageAndGroupOf(db: Db, eventId: string, stageId: string | null | undefined, groupId: string | null | undefined) {
  if (stageId) {
    const stage = await db.stage.findUnique({ where: { id: stageId }, select: { eventId: true } });
    if (!stage || stage.eventId !== eventId) throw validationFailed('stageId is not a stage of this event.', [{ field: 'stageId', issue: 'not a stage of this event' }]);
  }
  if (groupId) {
    const group = await db.group.findUnique({ where: { id: groupId }, select: { stageId: true } });
    if (!group || group.stageId !== stageId) throw validationFailed('groupId is not a group of that stage.', [{ field: 'groupId', issue: 'not a group of stageId' }]);
  }
}

/** A team that does not take part in the event yet: else 409 already_participant. */
export async function assertNotParticipant(db: Db, eventId: string, teamId: string): Promise<void> {
  if (await db.participant.count({ where: { eventId, teamId } })) throw conflict('The team already takes part in this event.', 'already_participant');
}

/**
 * What inviting a team and registering it both require: the event open, the stage and group (if
 * named) of this event, an existing team that does not take part yet.
 */
export async function assertRegistrable(db: Db, event: EventState, teamId: string, stageId: string | null | undefined, groupId: string | null | undefined): Promise<void> {
  assertOpen(event);
  await stageAndGroupOf(db, event.id, stageId, groupId);
  await assertTeam(db, teamId);
  await assertNotParticipant(db, event.id, teamId);
}

export function createInvitation(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(invitationInput, body);
  return runEventWrite(ctx, {
    operation: 'createInvitation',
    eventId,
    ...pre,
    request: input,
    async plan(db, event) {
      await assertRegistrable(db, event, input.teamId, input.stageId, input.groupId);
      if (await db.invitation.count({ where: { eventId, teamId: input.teamId, status: 'pending' } })) throw conflict('The team already has a pending invitation to this event.', 'already_invited');
      const invitationId = newId('inv');
      return {
        resourceId: invitationId,
        changed: true,
        changes: [{ type: 'invitation.created', resourceType: 'invitation', resourceId: invitationId, payload: { invitationId, teamId: input.teamId, stageId: input.stageId ?? null, groupId: input.groupId ?? null } }],
        statements: [{ text: INSERT_INVITATION_SQL, values: [invitationId, eventId, input.teamId, input.stageId ?? null, input.groupId ?? null, input.message ?? null] }],
      };
    },
  });
}

// ── participants ─────────────────────────────────────────────────────────────
async function participantOf(db: Db, eventId: string, participantId: string) {
  const participant = await db.participant.findUnique({ where: { id: participantId } });
  if (!participant || participant.eventId !== eventId) throw notFound('The participant');
  return participant;
}

export function updateParticipant(ctx: SubgraphContext, eventId: string, participantId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(participantChangeInput, body);
  return runEventWrite(ctx, {
    operation: 'updateParticipant',
    eventId,
    ...pre,
    request: { participantId, input },
    async plan(db) {
      const participant = await participantOf(db, eventId, participantId);
      let value: unknown;
      if (input.action === 'status') {
        if (participant.status === input.status) return unchanged(participantId);
        value = input.status;
      } else if (input.action === 'selected_groups') {
        const groups = await db.group.findMany({ where: { id: { in: input.groupIds } }, select: { id: true, eventId: true } });
        const ofEvent = new Set(groups.filter((g) => g.eventId === eventId).map((g) => g.id));
        const bad = input.groupIds.map((groupId, index) => ({ groupId, index })).filter(({ groupId }) => !ofEvent.has(groupId));
        if (bad.length) throw validationFailed('groupIds holds groups that are not groups of this event.', bad.map(({ index }) => ({ field: `groupIds.${index}`, issue: 'not a group of this event' })));
        if (sameJson(participant.selectedGroupIds, input.groupIds)) return unchanged(participantId);
        value = input.groupIds;
      } else {
        if (sameJson(participant.signupAnswers, input.answers)) return unchanged(participantId);
        value = JSON.stringify(input.answers);
      }
      return {
        resourceId: participantId,
        changed: true,
        changes: [{ type: 'participant.updated', resourceType: 'participant', resourceId: participantId, payload: { participantId, action: input.action } }],
        statements: [{ text: UPDATE_PARTICIPANT_SQL[input.action], values: [participantId, value] }],
      };
    },
  });
}

export function deleteParticipant(ctx: SubgraphContext, eventId: string, participantId: string, pre: Preconditions): Promise<WriteResult> {
  return runEventWrite(ctx, {
    operation: 'deleteParticipant',
    eventId,
    ...pre,
    request: { participantId },
    async plan(db) {
      await participantOf(db, eventId, participantId);
      // Free-for-all matches place their participants in opponents (JSON) rather than in sides a and b.
      // A participant is of one event, so only that event's matches are searched (the JSON test is no index's).
      const placed = await db.match.count({ where: { eventId, OR: [{ participantAId: participantId }, { participantBId: participantId }, { opponents: { array_contains: [{ participantId }] } }] } });
      if (placed) throw conflict('The participant is placed in matches: a registration can only be removed before placement.', 'placed_in_matches');
      return {
        resourceId: participantId,
        changed: true,
        changes: [{ type: 'participant.deleted', resourceType: 'participant', resourceId: participantId, payload: { participantId } }],
        statements: [{ text: DELETE_PARTICIPANT_SQL, values: [participantId] }],
      };
    },
  });
}

// ── lineups ──────────────────────────────────────────────────────────────────
const MAX_LINEUP = 10;

export function changeLineup(ctx: SubgraphContext, eventId: string, participantId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(lineupInput, body);
  return runEventWrite(ctx, {
    operation: 'changeLineup',
    eventId,
    ...pre,
    request: { participantId, input },
    async plan(db, event) {
      const participant = await participantOf(db, eventId, participantId);
      if (input.operation === 'add_member') {
        const member = await db.teamMember.findUnique({ where: { teamId_userId: { teamId: participant.teamId, userId: input.userId } } });
        if (!member) throw validationFailed('userId is not a member of the team.', [{ field: 'userId', issue: 'not a member of the team' }]);
      }
      // scope team: every open registration of this team in events of the same organisation.
      const registrations: { id: string; event: EventState }[] =
        input.scope === 'event'
          ? [{ id: participantId, event }]
          : await db.participant.findMany({
              where: { teamId: participant.teamId, event: { organisationId: event.organisationId, state: { notIn: CLOSED_STATES } } },
              select: { id: true, event: { select: { id: true, organisationId: true, state: true, revision: true } } },
            });
      if (!registrations.some((r) => r.id === participantId)) registrations.push({ id: participantId, event });
      const ids = registrations.map((r) => r.id);
      const [members, sizes] = await Promise.all([
        db.lineupMember.findMany({ where: { participantId: { in: ids }, userId: input.userId } }),
        input.operation === 'add_member' ? db.lineupMember.groupBy({ by: ['participantId'], where: { participantId: { in: ids } }, _count: true }) : [],
      ]);
      const currentOf = new Map(members.map((member) => [member.participantId, member]));
      const sizeOf = new Map(sizes.map((size) => [size.participantId, size._count]));
      const statements = [];
      const changedEvents = new Map<string, EventState>();
      for (const registration of registrations) {
        const current = currentOf.get(registration.id);
        const isThis = registration.id === participantId;
        const values = [registration.id, input.userId, input.role];
        if (input.operation === 'remove_member') {
          if (!current) continue;
          statements.push({ text: LINEUP_SQL.remove, values: values.slice(0, 2) });
        } else if (input.operation === 'set_role') {
          if (!current) {
            if (isThis) throw validationFailed('userId is not in this lineup.', [{ field: 'userId', issue: 'not in the lineup' }]);
            continue;
          }
          if (current.role === input.role) continue;
          statements.push({ text: LINEUP_SQL.setRole, values });
        } else {
          if (current?.role === input.role) continue;
          if (!current && (sizeOf.get(registration.id) ?? 0) >= MAX_LINEUP) {
            if (isThis) throw conflict(`A lineup holds at most ${MAX_LINEUP} members.`, 'lineup_full');
            continue;
          }
          statements.push({ text: LINEUP_SQL.put, values });
        }
        changedEvents.set(registration.event.id, registration.event);
      }
      if (changedEvents.size === 0) return unchanged(participantId);
      return {
        resourceId: participantId,
        changed: true,
        changes: [{ type: 'lineup.updated', resourceType: 'participant', resourceId: participantId, payload: { participantId, operation: input.operation, userId: input.userId, role: input.role ?? null, scope: input.scope } }],
        statements,
        alsoChanged: [...changedEvents.values()].filter((other) => other.id !== eventId),
      };
    },
  });
}

// ── playday staff ────────────────────────────────────────────────────────────
export function replacePlaydayStaff(ctx: SubgraphContext, eventId: string, playdayId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(staffInput, body);
  return runEventWrite(ctx, {
    operation: 'replacePlaydayStaff',
    eventId,
    ...pre,
    request: { playdayId, input },
    async plan(db) {
      const playday = await db.playday.findUnique({ where: { id: playdayId }, select: { eventId: true } });
      if (!playday || playday.eventId !== eventId) throw notFound('The playday');
      const userIds = [...new Set(input.staff.map((s) => s.userId))];
      const known = new Set((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true } })).map((u) => u.id));
      const unknown = input.staff.map((s, index) => ({ ...s, index })).filter((s) => !known.has(s.userId));
      if (unknown.length) throw validationFailed('Unknown users in staff.', unknown.map(({ index }) => ({ field: `staff.${index}.userId`, issue: 'unknown user' })));
      const key = (s: { userId: string; role: string }) => `${s.userId}|${s.role}`;
      const current = await db.playdayStaff.findMany({ where: { playdayId }, select: { userId: true, role: true } });
      if (sameJson(current.map(key).sort(), input.staff.map(key).sort())) return unchanged(playdayId);
      const [deleteStaff, insertStaff] = REPLACE_PLAYDAY_STAFF_SQL;
      return {
        resourceId: playdayId,
        changed: true,
        changes: [{ type: 'playday.staff_updated', resourceType: 'playday', resourceId: playdayId, payload: { playdayId, staff: input.staff } }],
        statements: [
          { text: deleteStaff, values: [playdayId] },
          { text: insertStaff, values: [playdayId, input.staff.map((s) => s.userId), input.staff.map((s) => s.role)] },
        ],
      };
    },
  });
}
