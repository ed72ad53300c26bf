// Organiser writes (extensions of the interface): an event's life from its creation to the teams that
// take part. Creating an event has no event to lock yet: it takes the same steps as runEventWrite
// (scope, installation, a user's permission, Idempotency-Key, one transaction with its change-log row)
// against the organisation. The others are event writes (event-write.ts); a team's player answers an
// invitation with no scope and no If-Match, admitted by playing in the invited team.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { installationFor, requireScope, type Authority } from '../../../platform/domain/authority.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { forbidden, notFound, validationFailed } from '../../../platform/api/errors.ts';
import { idempotentTransaction } from '../../../platform/domain/idempotency.ts';
import { newChangeId, NOTIFY_CHANGES } from '../../../platform/domain/change-log.ts';
import type { Db, SqlStatement } from '../../../platform/db/database.ts';
import { validate } from '../../../platform/api/validation.ts';
import { assertOrganiserAuthority, idempotencyScope, runEventWrite, type Change, type EventState, type WriteResult } from './event-write.ts';
import { createEventInput, NEW_EVENT_DEFAULTS, participantInput, SLUG_MAX, updateEventInput } from '../inputs.ts';
import { ANSWER_INVITATION_SQL, INSERT_EVENT_SQL, INSERT_PARTICIPANT_SQL, LOCK_ORGANISATION_SQL, SLUG_FREE_SQL, UPDATE_EVENT_SQL } from './statements.ts';
import { WRITES } from '../write-contracts.ts';
import { assertNotParticipant, assertRegistrable } from './writes.ts';
import { assertOpen, conflict, unchanged, type Preconditions } from './write-rules.ts';

const slugTaken = () => conflict('Another event of this organisation has this slug.', 'slug_taken');
const onSlugGuard = (check: string) => (check === 'slug_taken' ? slugTaken() : undefined);

/** The slug a name gives: ASCII lower case and digits joined by hyphens ("Spring Cup 2027" → spring-cup-2027); "event" when nothing is left. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
  return slug || 'event';
}

const timestamp = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : null);

// ── create ───────────────────────────────────────────────────────────────────
export async function createEvent(ctx: SubgraphContext, organisationId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(createEventInput, body);
  const contract = WRITES.createEvent;
  const authority = await ctx.authority();
  requireScope(authority, contract.scope);
  // As every event write: an installation on the organisation (an unknown one has none), and a user's permission there.
  await assertOrganiserAuthority(ctx, authority, contract.scope, organisationId);
  const scope = idempotencyScope(authority, contract.method, 'createEvent', pre.idempotencyKey, { organisationId, request: input });
  const explicit = input.slug != null;
  const eventId = newId('evt');
  const result: WriteResult = { resourceId: eventId, revision: 1, updated: true, replayed: false };
  // Every writer of a slug (creations, updateEvent) takes the organisation's lock first, so the slug
  // chosen or checked under it is still free at commit.
  const statements: SqlStatement[] = [
    { text: LOCK_ORGANISATION_SQL, values: [organisationId] },
    ...(explicit ? [{ text: SLUG_FREE_SQL, values: [organisationId, input.slug, eventId] }] : []),
    {
      text: INSERT_EVENT_SQL,
      values: [
        eventId,
        organisationId,
        input.slug ?? slugOf(input.name),
        !explicit,
        eventId.slice(4, 14).toLowerCase().replace(/[^a-z0-9]/g, '0'),
        input.name,
        NEW_EVENT_DEFAULTS.type,
        input.visibility ?? NEW_EVENT_DEFAULTS.visibility,
        NEW_EVENT_DEFAULTS.state,
        NEW_EVENT_DEFAULTS.platform,
        NEW_EVENT_DEFAULTS.currency,
        input.game ?? null,
        input.timezone ?? NEW_EVENT_DEFAULTS.timezone,
        timestamp(input.startsAt),
        newChangeId(),
        timestamp(input.endsAt),
      ],
    },
    NOTIFY_CHANGES,
  ];
  const { body: answer, replayed } = await idempotentTransaction(ctx, scope, { status: contract.status, body: result }, statements, onSlugGuard);
  return { ...answer, replayed };
}

// ── update ───────────────────────────────────────────────────────────────────
const EVENT_FIELDS = ['name', 'slug', 'description', 'game', 'timezone', 'startsAt', 'endsAt', 'visibility', 'logoUrl', 'bannerUrl', 'primaryColor', 'secondaryColor'] as const;

export function updateEvent(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(updateEventInput, body);
  return runEventWrite(ctx, {
    operation: 'updateEvent',
    eventId,
    ...pre,
    request: input,
    onGuard: onSlugGuard,
    async plan(db, event) {
      const current = await db.event.findUniqueOrThrow({ where: { id: eventId } });
      const before: Record<(typeof EVENT_FIELDS)[number], string | null> = {
        ...current,
        startsAt: timestamp(current.startsAt),
        endsAt: timestamp(current.endsAt),
      };
      const after = { ...before };
      for (const field of EVENT_FIELDS) {
        const value = input[field];
        if (value === undefined) continue;
        after[field] = field === 'startsAt' || field === 'endsAt' ? timestamp(value) : field.endsWith('Color') && value ? value.toLowerCase() : value;
      }
      if (after.startsAt && after.endsAt && Date.parse(after.endsAt) < Date.parse(after.startsAt)) {
        const field = input.endsAt !== undefined ? 'endsAt' : 'startsAt';
        throw validationFailed(`${field}: the event must not end before it starts.`, [{ field, issue: field === 'endsAt' ? 'must not be before startsAt' : 'must not be after endsAt' }]);
      }
      const fields = EVENT_FIELDS.filter((field) => after[field] !== before[field]);
      if (fields.length === 0) return unchanged(eventId);
      const statements: SqlStatement[] = [];
      if (fields.includes('slug')) {
        // Checked under the organisation's lock, which creations take too (guard slug_taken → 409).
        statements.push({ text: LOCK_ORGANISATION_SQL, values: [event.organisationId] }, { text: SLUG_FREE_SQL, values: [event.organisationId, after.slug, eventId] });
      }
      statements.push({ text: UPDATE_EVENT_SQL, values: [eventId, ...EVENT_FIELDS.map((field) => after[field])] });
      return {
        resourceId: eventId,
        changed: true,
        changes: [{ type: 'event.updated', resourceType: 'event', resourceId: eventId, payload: { fields } }],
        statements,
      };
    },
  });
}

// ── registration ─────────────────────────────────────────────────────────────
/** The participant a registration creates, once its team is known to be registrable. */
function registration(event: EventState, teamId: string, groupId: string | null, invitationId: string | null) {
  const participantId = newId('par');
  const [insertParticipant, insertLineup] = INSERT_PARTICIPANT_SQL;
  return {
    participantId,
    change: {
      type: 'participant.created',
      resourceType: 'participant',
      resourceId: participantId,
      payload: { participantId, teamId, status: 'registered', groupId, invitationId },
    } satisfies Change,
    statements: [
      { text: insertParticipant, values: [participantId, event.id, teamId, groupId ? [groupId] : []] },
      { text: insertLineup, values: [participantId, teamId] },
    ],
  };
}

export function createParticipant(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(participantInput, body);
  return runEventWrite(ctx, {
    operation: 'createParticipant',
    eventId,
    ...pre,
    request: input,
    async plan(db, event) {
      await assertRegistrable(db, event, input.teamId, input.stageId, input.groupId);
      const registered = registration(event, input.teamId, input.groupId ?? null, null);
      return { resourceId: registered.participantId, changed: true, changes: [registered.change], statements: registered.statements };
    },
  });
}

// ── invitations answered by the invited team ─────────────────────────────────
/**
 * A user who plays in the invited team, through an application installed on that user or on the
 * event's organisation. Anyone else (another user, an application actor) is told nothing: 404.
 */
async function invitedPlayer(ctx: SubgraphContext, authority: Authority, event: EventState, invitationId: string): Promise<void> {
  const invitation = await ctx.db.invitation.findUnique({ where: { id: invitationId }, select: { eventId: true, teamId: true } });
  if (authority.actor.type !== 'user' || !invitation || invitation.eventId !== event.id) throw notFound('The invitation');
  const userId = authority.actor.userId;
  const member = await ctx.db.teamMember.findUnique({ where: { teamId_userId: { teamId: invitation.teamId, userId } }, select: { userId: true } });
  if (!member) throw notFound('The invitation');
  const installation =
    (await installationFor(ctx.loaders, authority.applicationId, 'user', userId)) ??
    (await installationFor(ctx.loaders, authority.applicationId, 'event', event.id, event.organisationId));
  if (!installation) throw forbidden('The application has no active installation on this user or on the organisation of this event.', 'missing_installation');
}

async function pendingInvitation(db: Db, invitationId: string) {
  const invitation = await db.invitation.findUniqueOrThrow({ where: { id: invitationId } });
  if (invitation.status !== 'pending') throw conflict(`The invitation is ${invitation.status}: only a pending invitation is answered.`, 'invitation_not_pending');
  return invitation;
}

export function acceptInvitation(ctx: SubgraphContext, eventId: string, invitationId: string, pre: Preconditions): Promise<WriteResult> {
  return runEventWrite(ctx, {
    operation: 'acceptInvitation',
    eventId,
    ...pre,
    request: { invitationId },
    admit: (authority, event) => invitedPlayer(ctx, authority, event, invitationId),
    async plan(db, event) {
      const invitation = await pendingInvitation(db, invitationId);
      assertOpen(event);
      await assertNotParticipant(db, eventId, invitation.teamId);
      const registered = registration(event, invitation.teamId, invitation.groupId, invitationId);
      return {
        resourceId: registered.participantId,
        changed: true,
        changes: [
          {
            type: 'invitation.accepted',
            resourceType: 'invitation',
            resourceId: invitationId,
            payload: { invitationId, teamId: invitation.teamId, participantId: registered.participantId, stageId: invitation.stageId, groupId: invitation.groupId },
          },
          registered.change,
        ],
        statements: [{ text: ANSWER_INVITATION_SQL, values: [invitationId, 'accepted'] }, ...registered.statements],
      };
    },
  });
}

export function declineInvitation(ctx: SubgraphContext, eventId: string, invitationId: string, pre: Preconditions): Promise<WriteResult> {
  return runEventWrite(ctx, {
    operation: 'declineInvitation',
    eventId,
    ...pre,
    request: { invitationId },
    admit: (authority, event) => invitedPlayer(ctx, authority, event, invitationId),
    async plan(db) {
      const invitation = await pendingInvitation(db, invitationId);
      return {
        resourceId: invitationId,
        changed: true,
        changes: [{ type: 'invitation.declined', resourceType: 'invitation', resourceId: invitationId, payload: { invitationId, teamId: invitation.teamId } }],
        statements: [{ text: ANSWER_INVITATION_SQL, values: [invitationId, 'declined'] }],
      };
    },
  });
}
