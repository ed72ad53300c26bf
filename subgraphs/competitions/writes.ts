// The nine competition writes: what each checks and changes inside runEventWrite's transaction.
import type { SubgraphContext } from '../shared/context.ts';
import { newId } from '../shared/crypto.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import type { Prisma } from '../shared/db/generated/client.ts';
import { validate } from '../shared/validation.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { runEventWrite, type LockedEvent, type Tx, type WriteResult } from './event-write.ts';
import {
  invitationInput,
  lineupInput,
  participantChangeInput,
  publishInput,
  staffInput,
  stageInput,
  standingAdjustmentInput,
  vetoInput,
} from './inputs.ts';
import { normaliseVeto } from './veto.ts';

export interface Preconditions {
  ifMatch?: string | null;
  idempotencyKey?: string | null;
}

const conflict = (message: string, issue: string) => new ApiError('conflict', message, [{ issue }]);
const CLOSED_STATES = ['completed', 'cancelled'];

function assertOpen(event: LockedEvent) {
  if (CLOSED_STATES.includes(event.state)) throw conflict(`The event is ${event.state}: its structure can no longer change.`, 'event_closed');
}

const sameJson = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

// ── publish ──────────────────────────────────────────────────────────────────
export const PUBLISHABLE_STATES = ['draft'];

export function publishEvent(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  validate(publishInput, body ?? {});
  return runEventWrite(ctx, {
    operation: 'publishEvent',
    eventId,
    ...pre,
    request: {},
    async apply(tx, event) {
      if (!PUBLISHABLE_STATES.includes(event.state)) {
        throw conflict(`Only a draft event can be published; this one is ${event.state}.`, 'not_publishable');
      }
      const stages = await tx.stage.count({ where: { eventId } });
      if (stages === 0) throw conflict('An event needs at least one stage before it is published.', 'no_stages');
      await tx.event.update({ where: { id: eventId }, data: { state: 'scheduled' } });
      return { resourceId: eventId, changed: true, changes: [{ type: 'event.published', resourceType: 'event', resourceId: eventId, payload: { state: 'scheduled' } }] };
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
    async apply(tx, event) {
      assertOpen(event);
      const currentPool = (await tx.eventMapPool.findMany({ where: { eventId }, orderBy: { position: 'asc' } })).map((row) => row.mapId);
      const pool = input.mapPool ?? currentPool;
      if (input.mapPool) {
        const known = await tx.map.findMany({ where: { id: { in: input.mapPool } }, select: { id: true } });
        const knownIds = new Set(known.map((map) => map.id));
        const unknown = input.mapPool.map((mapId, index) => ({ mapId, index })).filter(({ mapId }) => !knownIds.has(mapId));
        if (unknown.length) throw validationFailed('Unknown maps in mapPool.', unknown.map(({ index }) => ({ field: `mapPool.${index}`, issue: 'unknown map' })));
      }
      if (pool.length === 0) throw validationFailed('The event has no map pool: send mapPool.', [{ field: 'mapPool', issue: 'required while the event has no map pool' }]);
      const configurations = input.configurations
        .map((config, index) => ({ bestOf: config.bestOf, steps: normaliseVeto(config.steps, pool.length, config.bestOf, `configurations.${index}`) }))
        .sort((a, b) => a.bestOf - b.bestOf);
      const current = (await tx.vetoConfiguration.findMany({ where: { eventId }, orderBy: { bestOf: 'asc' } })).map((row) => ({ bestOf: row.bestOf, steps: row.steps }));
      if (sameJson(pool, currentPool) && sameJson(configurations, current)) return { resourceId: eventId, changed: false, changes: [] };
      if (!sameJson(pool, currentPool)) {
        await tx.eventMapPool.deleteMany({ where: { eventId } });
        await tx.eventMapPool.createMany({ data: pool.map((mapId, index) => ({ eventId, mapId, position: index + 1 })) });
      }
      await tx.vetoConfiguration.deleteMany({ where: { eventId } });
      await tx.vetoConfiguration.createMany({ data: configurations.map((config) => ({ eventId, bestOf: config.bestOf, steps: config.steps as unknown as Prisma.InputJsonValue })) });
      return { resourceId: eventId, changed: true, changes: [{ type: 'veto.updated', resourceType: 'veto_settings', resourceId: eventId, payload: { mapPool: pool, configurations } }] };
    },
  });
}

// ── stages ───────────────────────────────────────────────────────────────────
export function createStage(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(stageInput, body);
  return runEventWrite(ctx, {
    operation: 'createStage',
    eventId,
    ...pre,
    request: input,
    async apply(tx, event) {
      assertOpen(event);
      const stageId = newId('stg');
      // The stage goes last: its position is computed in the insert (the event row is locked).
      await tx.$executeRaw`
        INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position, status, "startsAt", "endsAt", "createdAt")
        SELECT ${stageId}, ${eventId}, ${input.name}, ${input.format}, ${input.bestOf}, COALESCE(MAX(position), 0) + 1, 'pending',
               ${input.startsAt ? new Date(input.startsAt) : null}::timestamp, ${input.endsAt ? new Date(input.endsAt) : null}::timestamp,
               now() AT TIME ZONE 'UTC'
        FROM "Stage" WHERE "eventId" = ${eventId}`;
      const groups = (input.groups ?? []).map((group, index) => ({ id: newId('grp'), eventId, stageId, name: group.name, position: index + 1 }));
      if (groups.length) await tx.group.createMany({ data: groups });
      await tx.event.updateMany({ where: { id: eventId, firstStageId: null }, data: { firstStageId: stageId } });
      return {
        resourceId: stageId,
        changed: true,
        changes: [{ type: 'stage.created', resourceType: 'stage', resourceId: stageId, payload: { stageId, name: input.name, format: input.format, bestOf: input.bestOf, groupIds: groups.map((g) => g.id) } }],
      };
    },
  });
}

// ── invitations ──────────────────────────────────────────────────────────────
async function stageAndGroupOf(tx: Tx, eventId: string, stageId: string | null | undefined, groupId: string | null | undefined) {
  if (stageId) {
    const stage = await tx.stage.findUnique({ where: { id: stageId }, select: { eventId: true } });
    if (!stage || stage.eventId !== eventId) throw validationFailed('stageId is not a stage of this event.', [{ field: 'stageId', issue: 'not a stage of this event' }]);
  }
  if (groupId) {
    const group = await tx.group.findUnique({ where: { id: groupId }, select: { stageId: true } });
    if (!group || group.stageId !== stageId) throw validationFailed('groupId is not a group of that stage.', [{ field: 'groupId', issue: 'not a group of stageId' }]);
  }
}

export function createInvitation(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(invitationInput, body);
  return runEventWrite(ctx, {
    operation: 'createInvitation',
    eventId,
    ...pre,
    request: input,
    async apply(tx, event) {
      assertOpen(event);
      await stageAndGroupOf(tx, eventId, input.stageId, input.groupId);
      const team = await tx.team.findUnique({ where: { id: input.teamId }, select: { id: true } });
      if (!team) throw validationFailed('teamId is not a team.', [{ field: 'teamId', issue: 'unknown team' }]);
      if (await tx.participant.count({ where: { eventId, teamId: input.teamId } })) throw conflict('The team already takes part in this event.', 'already_participant');
      if (await tx.invitation.count({ where: { eventId, teamId: input.teamId, status: 'pending' } })) throw conflict('The team already has a pending invitation to this event.', 'already_invited');
      const invitationId = newId('inv');
      await tx.invitation.create({ data: { id: invitationId, eventId, teamId: input.teamId, stageId: input.stageId, groupId: input.groupId, message: input.message, status: 'pending' } });
      return {
        resourceId: invitationId,
        changed: true,
        changes: [{ type: 'invitation.created', resourceType: 'invitation', resourceId: invitationId, payload: { invitationId, teamId: input.teamId, stageId: input.stageId ?? null, groupId: input.groupId ?? null } }],
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
    async apply(tx) {
      await stageAndGroupOf(tx, eventId, input.stageId, input.groupId);
      const participant = await tx.participant.findUnique({ where: { id: input.participantId }, select: { eventId: true, selectedGroupIds: true } });
      if (!participant || participant.eventId !== eventId) throw validationFailed('participantId is not a participant of this event.', [{ field: 'participantId', issue: 'not a participant of this event' }]);
      // A participant belongs to a stage (group) when it stands or plays there, or chose that group.
      const where = { stageId: input.stageId, ...(input.groupId ? { groupId: input.groupId } : {}) };
      const [standing, matches] = await Promise.all([
        tx.standing.findFirst({ where: { ...where, participantId: input.participantId }, select: { id: true } }),
        tx.match.count({ where: { ...where, OR: [{ participantAId: input.participantId }, { participantBId: input.participantId }] } }),
      ]);
      const chose = input.groupId ? participant.selectedGroupIds.includes(input.groupId) : false;
      if (!standing && !matches && !chose) {
        throw validationFailed(`The participant does not take part in that ${input.groupId ? 'group' : 'stage'}.`, [{ field: 'participantId', issue: `not in this ${input.groupId ? 'group' : 'stage'}` }]);
      }
      const adjustmentId = newId('adj');
      await tx.standingAdjustment.create({ data: { id: adjustmentId, eventId, stageId: input.stageId, groupId: input.groupId, participantId: input.participantId, points: input.points, reason: input.reason } });
      if (standing) await tx.standing.update({ where: { id: standing.id }, data: { points: { increment: input.points } } });
      return {
        resourceId: adjustmentId,
        changed: true,
        changes: [{ type: 'standing.adjusted', resourceType: 'standing_adjustment', resourceId: adjustmentId, payload: { adjustmentId, participantId: input.participantId, stageId: input.stageId, groupId: input.groupId ?? null, points: input.points } }],
      };
    },
  });
}

// ── participants ─────────────────────────────────────────────────────────────
async function participantOf(tx: Tx, eventId: string, participantId: string) {
  const participant = await tx.participant.findUnique({ where: { id: participantId } });
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
    async apply(tx) {
      const participant = await participantOf(tx, eventId, participantId);
      let data: Prisma.ParticipantUpdateInput;
      if (input.action === 'status') {
        if (participant.status === input.status) return { resourceId: participantId, changed: false, changes: [] };
        data = { status: input.status };
      } else if (input.action === 'selected_groups') {
        const groups = await tx.group.findMany({ where: { id: { in: input.groupIds } }, select: { id: true, eventId: true } });
        const ofEvent = new Set(groups.filter((g) => g.eventId === eventId).map((g) => g.id));
        const bad = input.groupIds.map((groupId, index) => ({ groupId, index })).filter(({ groupId }) => !ofEvent.has(groupId));
        if (bad.length) throw validationFailed('groupIds holds groups that are not groups of this event.', bad.map(({ index }) => ({ field: `groupIds.${index}`, issue: 'not a group of this event' })));
        if (sameJson(participant.selectedGroupIds, input.groupIds)) return { resourceId: participantId, changed: false, changes: [] };
        data = { selectedGroupIds: input.groupIds };
      } else {
        if (sameJson(participant.signupAnswers, input.answers)) return { resourceId: participantId, changed: false, changes: [] };
        data = { signupAnswers: input.answers as Prisma.InputJsonValue };
      }
      await tx.participant.update({ where: { id: participantId }, data });
      return { resourceId: participantId, changed: true, changes: [{ type: 'participant.updated', resourceType: 'participant', resourceId: participantId, payload: { participantId, action: input.action } }] };
    },
  });
}

export function deleteParticipant(ctx: SubgraphContext, eventId: string, participantId: string, pre: Preconditions): Promise<WriteResult> {
  return runEventWrite(ctx, {
    operation: 'deleteParticipant',
    eventId,
    ...pre,
    request: { participantId },
    async apply(tx) {
      await participantOf(tx, eventId, participantId);
      const placed = await tx.match.count({ where: { OR: [{ participantAId: participantId }, { participantBId: participantId }] } });
      if (placed) throw conflict('The participant is placed in matches: a registration can only be removed before placement.', 'placed_in_matches');
      await tx.participant.delete({ where: { id: participantId } });
      return { resourceId: participantId, changed: true, changes: [{ type: 'participant.deleted', resourceType: 'participant', resourceId: participantId, payload: { participantId } }] };
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
    async apply(tx, event) {
      const participant = await participantOf(tx, eventId, participantId);
      if (input.operation === 'add_member') {
        const member = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: participant.teamId, userId: input.userId } } });
        if (!member) throw validationFailed('userId is not a member of the team.', [{ field: 'userId', issue: 'not a member of the team' }]);
      }
      // scope team: every open registration of this team in events of the same organisation.
      const registrations =
        input.scope === 'event'
          ? [{ id: participantId, eventId }]
          : await tx.participant.findMany({
              where: { teamId: participant.teamId, event: { organisationId: event.organisationId, state: { notIn: CLOSED_STATES } } },
              select: { id: true, eventId: true },
            });
      if (!registrations.some((r) => r.id === participantId)) registrations.push({ id: participantId, eventId });
      const changedEvents = new Set<string>();
      for (const registration of registrations) {
        const key = { participantId_userId: { participantId: registration.id, userId: input.userId } };
        const current = await tx.lineupMember.findUnique({ where: key });
        const isThis = registration.id === participantId;
        if (input.operation === 'remove_member') {
          if (!current) continue;
          await tx.lineupMember.delete({ where: key });
        } else if (input.operation === 'set_role') {
          if (!current) {
            if (isThis) throw validationFailed('userId is not in this lineup.', [{ field: 'userId', issue: 'not in the lineup' }]);
            continue;
          }
          if (current.role === input.role) continue;
          await tx.lineupMember.update({ where: key, data: { role: input.role! } });
        } else {
          if (current?.role === input.role) continue;
          if (!current && (await tx.lineupMember.count({ where: { participantId: registration.id } })) >= MAX_LINEUP) {
            if (isThis) throw conflict(`A lineup holds at most ${MAX_LINEUP} members.`, 'lineup_full');
            continue;
          }
          await tx.lineupMember.upsert({ where: key, create: { participantId: registration.id, userId: input.userId, role: input.role! }, update: { role: input.role! } });
        }
        changedEvents.add(registration.eventId);
      }
      const changed = changedEvents.size > 0;
      return {
        resourceId: participantId,
        changed,
        changes: changed ? [{ type: 'lineup.updated', resourceType: 'participant', resourceId: participantId, payload: { participantId, operation: input.operation, userId: input.userId, role: input.role ?? null, scope: input.scope } }] : [],
        alsoChangedEventIds: [...changedEvents].filter((id) => id !== eventId),
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
    async apply(tx) {
      const playday = await tx.playday.findUnique({ where: { id: playdayId }, select: { eventId: true } });
      if (!playday || playday.eventId !== eventId) throw notFound('The playday');
      const userIds = [...new Set(input.staff.map((s) => s.userId))];
      const known = new Set((await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true } })).map((u) => u.id));
      const unknown = input.staff.map((s, index) => ({ ...s, index })).filter((s) => !known.has(s.userId));
      if (unknown.length) throw validationFailed('Unknown users in staff.', unknown.map(({ index }) => ({ field: `staff.${index}.userId`, issue: 'unknown user' })));
      const key = (s: { userId: string; role: string }) => `${s.userId}|${s.role}`;
      const current = await tx.playdayStaff.findMany({ where: { playdayId }, select: { userId: true, role: true } });
      if (sameJson(current.map(key).sort(), input.staff.map(key).sort())) return { resourceId: playdayId, changed: false, changes: [] };
      await tx.playdayStaff.deleteMany({ where: { playdayId } });
      await tx.playdayStaff.createMany({ data: input.staff.map((s) => ({ playdayId, userId: s.userId, role: s.role })) });
      return { resourceId: playdayId, changed: true, changes: [{ type: 'playday.staff_updated', resourceType: 'playday', resourceId: playdayId, payload: { playdayId, staff: input.staff } }] };
    },
  });
}
