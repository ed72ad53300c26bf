// Who takes part in an event and how it is shown: participants with their lineups, invitations, the
// broadcast configuration and playdays with their staff. Read through an event the caller may see.
import { foundOr } from '../../../platform/api/errors.ts';
import { builder } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { LineupMember as LineupMemberRow, Participant as ParticipantRow, Playday as PlaydayRow } from '../../../platform/db/generated/client.ts';
import { broadcastView, invitationView, participantView, playdayView } from '../views.ts';
import { ParticipantStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { keysetPage } from '../../../platform/api/pagination.ts';
import { Event } from './event.ts';
import { pageType } from './page.ts';

const cursorArgs = { cursor: { description: 'meta.nextCursor of the previous page' }, limit: { description: '1–100, default 20' } };

const fieldsOf = viewFields(builder);

export const LineupMember = builder.prismaObject('LineupMember', {
  description: 'A member of a participant’s lineup.',
  fields: (t) =>
    fieldsOf(t, participantView.shape.lineup.element, {}, {
      displayName: async (member: LineupMemberRow, _args: unknown, ctx: SubgraphContext) => (await ctx.loaders.user.load(member.userId))?.displayName ?? '',
    }),
});

const teamOf = (participant: ParticipantRow, ctx: SubgraphContext) => ctx.loaders.team.load(participant.teamId);

export const Participant = builder.prismaObject('Participant', {
  description: participantView.description,
  fields: (t) =>
    fieldsOf(t, participantView, { lineup: [LineupMember] }, {
      name: async (participant: ParticipantRow, _args: unknown, ctx: SubgraphContext) => (await teamOf(participant, ctx))?.name ?? '',
      logoUrl: async (participant: ParticipantRow, _args: unknown, ctx: SubgraphContext) => (await teamOf(participant, ctx))?.logoUrl ?? null,
      lineup: (participant: ParticipantRow, _args: unknown, ctx: SubgraphContext) => ctx.loaders.lineupByParticipant.load(participant.id),
    }),
});

export const Invitation = builder.prismaObject('Invitation', {
  description: invitationView.description,
  fields: (t) => fieldsOf(t, invitationView),
});

export const Broadcast = builder.prismaObject('BroadcastConfig', {
  name: 'Broadcast',
  description: broadcastView.description,
  fields: (t) => fieldsOf(t, broadcastView),
});

export const PlaydayStaff = builder.prismaObject('PlaydayStaff', {
  fields: (t) => fieldsOf(t, playdayView.shape.staff.element),
});

export const Playday = builder.prismaObject('Playday', {
  description: playdayView.description,
  fields: (t) =>
    fieldsOf(t, playdayView, { staff: [PlaydayStaff] }, {
      staff: (playday: PlaydayRow, _args: unknown, ctx: SubgraphContext) => ctx.loaders.staffByPlayday.load(playday.id),
    }),
});

const ParticipantPage = pageType('ParticipantPage', Participant);
const InvitationPage = pageType('InvitationPage', Invitation);
const PlaydayPage = pageType('PlaydayPage', Playday);

builder.objectFields(Event, (t) => ({
  participantPage: t.field({
    type: ParticipantPage,
    description: 'Participants in registration order; filter status.',
    args: { cursor: t.arg.string(cursorArgs.cursor), limit: t.arg.int(cursorArgs.limit), status: t.arg({ type: ParticipantStatusEnum }) },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `participants|${event.id}|${args.status ?? ''}`,
        args,
        order: ['createdAt', 'id'],
        where: { eventId: event.id, ...(args.status ? { status: args.status } : {}) },
        find: (where, orderBy, take) => ctx.db.participant.findMany({ where, orderBy, take }),
      }),
  }),
  participant: t.field({
    type: Participant,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.participant.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The participant'),
  }),
  invitationPage: t.field({
    type: InvitationPage,
    description: 'Invitations in creation order; filters stageId and groupId.',
    args: { cursor: t.arg.string(cursorArgs.cursor), limit: t.arg.int(cursorArgs.limit), stageId: t.arg.id(), groupId: t.arg.id() },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `invitations|${event.id}|${args.stageId ?? ''}|${args.groupId ?? ''}`,
        args,
        order: ['createdAt', 'id'],
        where: { eventId: event.id, ...(args.stageId ? { stageId: String(args.stageId) } : {}), ...(args.groupId ? { groupId: String(args.groupId) } : {}) },
        find: (where, orderBy, take) => ctx.db.invitation.findMany({ where, orderBy, take }),
      }),
  }),
  invitation: t.field({
    type: Invitation,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.invitation.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The invitation'),
  }),
  broadcast: t.field({
    type: Broadcast,
    description: 'The broadcast configuration; not_found when the event has none.',
    resolve: (event, _args, ctx) => foundOr(ctx.db.broadcastConfig.findUnique({ where: { eventId: event.id } }), 'The broadcast configuration'),
  }),
  playdayPage: t.field({
    type: PlaydayPage,
    description: 'Playdays by date.',
    args: { cursor: t.arg.string(cursorArgs.cursor), limit: t.arg.int(cursorArgs.limit) },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `playdays|${event.id}`,
        args,
        order: ['date', 'id'],
        where: { eventId: event.id },
        find: (where, orderBy, take) => ctx.db.playday.findMany({ where, orderBy, take }),
      }),
  }),
  playday: t.field({
    type: Playday,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.playday.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The playday'),
  }),
}));
