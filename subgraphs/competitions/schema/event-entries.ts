// Who takes part in an event and how it is shown: participants with their lineups, invitations, the
// broadcast configuration and playdays with their staff. Read through an event the caller may see.
import { foundOr } from '../../shared/errors.ts';
import { builder } from '../builder.ts';
import { ParticipantStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../shared/demand-control.ts';
import { keysetPage } from '../../shared/pagination.ts';
import { Event } from './event.ts';
import { pageType } from './page.ts';

const cursorArgs = { cursor: { description: 'meta.nextCursor of the previous page' }, limit: { description: '1–100, default 20' } };

export const LineupMember = builder.prismaObject('LineupMember', {
  description: 'A member of a participant’s lineup.',
  fields: (t) => ({
    userId: t.exposeID('userId'),
    role: t.exposeString('role'),
    displayName: t.string({ resolve: async (member, _args, ctx) => (await ctx.loaders.user.load(member.userId))?.displayName ?? '' }),
  }),
});

export const Participant = builder.prismaObject('Participant', {
  description: 'A team taking part in an event.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    teamId: t.exposeID('teamId'),
    name: t.string({ description: "The team's name.", resolve: async (participant, _args, ctx) => (await ctx.loaders.team.load(participant.teamId))?.name ?? '' }),
    logoUrl: t.string({ nullable: true, description: "The team's logo.", resolve: async (participant, _args, ctx) => (await ctx.loaders.team.load(participant.teamId))?.logoUrl ?? null }),
    status: t.expose('status', { type: ParticipantStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    lineup: t.field({ type: [LineupMember], resolve: (participant, _args, ctx) => ctx.loaders.lineupByParticipant.load(participant.id) }),
  }),
});

export const Invitation = builder.prismaObject('Invitation', {
  description: 'An invitation of a team to an event, a stage or a group.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    teamId: t.exposeID('teamId'),
    stageId: t.exposeID('stageId', { nullable: true }),
    groupId: t.exposeID('groupId', { nullable: true }),
    status: t.exposeString('status'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const Broadcast = builder.prismaObject('BroadcastConfig', {
  name: 'Broadcast',
  description: "An event's broadcast configuration, for overlays.",
  fields: (t) => ({
    eventId: t.exposeID('eventId'),
    streamUrl: t.exposeString('streamUrl', { nullable: true }),
    youtubeUrl: t.exposeString('youtubeUrl', { nullable: true }),
    overlayTheme: t.exposeString('overlayTheme'),
    primaryColor: t.exposeString('primaryColor', { nullable: true }),
    delaySeconds: t.exposeInt('delaySeconds'),
    showScores: t.exposeBoolean('showScores'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const PlaydayStaff = builder.prismaObject('PlaydayStaff', {
  fields: (t) => ({ userId: t.exposeID('userId'), role: t.exposeString('role') }),
});

export const Playday = builder.prismaObject('Playday', {
  description: 'A broadcast day of an event: its live match, the score shown on the overlay, its staff.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    name: t.exposeString('name'),
    date: t.expose('date', { type: 'DateTime' }),
    liveMatchId: t.exposeID('liveMatchId', { nullable: true }),
    overlayScoreA: t.exposeInt('overlayScoreA', { nullable: true }),
    overlayScoreB: t.exposeInt('overlayScoreB', { nullable: true }),
    staff: t.field({ type: [PlaydayStaff], resolve: (playday, _args, ctx) => ctx.loaders.staffByPlayday.load(playday.id) }),
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
