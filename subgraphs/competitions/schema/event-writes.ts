// Mutations of the competitions subgraph: the nine writes of the interface, the three live writes
// overlays follow and the organiser writes (organiser-writes.ts), with the same rules as
// their REST routes (the routes run these mutations). ifMatch carries the If-Match value ("3");
// idempotencyKey the Idempotency-Key.
import { builder } from '../builder.ts';
import type { WriteResult } from '../event-write.ts';
import { writeResultView } from '../views.ts';
import { contractOf, type WriteOperation } from '../write-contracts.ts';
import { inputTypes, viewFields } from '../../shared/zod-graphql.ts';
import {
  broadcastInput,
  createEventInput,
  participantInput,
  updateEventInput,
  invitationInput,
  lineupInput,
  matchReportInput,
  participantChangeInput,
  playdayUpdateInput,
  stageInput,
  stageSeedingInput,
  staffInput,
  standingAdjustmentInput,
  vetoInput,
} from '../inputs.ts';
import { replaceBroadcast, reportMatch, updatePlayday } from '../live-writes.ts';
import { acceptInvitation, createEvent, createParticipant, declineInvitation, updateEvent } from '../organiser-writes.ts';
import { seedStage, startStage } from '../stage-start.ts';
import {
  changeLineup,
  createInvitation,
  createStage,
  createStandingAdjustment,
  deleteParticipant,
  publishEvent,
  replacePlaydayStaff,
  updateParticipant,
  updateVetoSettings,
} from '../writes.ts';

const WriteResultRef = builder.objectRef<WriteResult>('WriteResult').implement({
  description: writeResultView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, writeResultView),
    replayed: t.exposeBoolean('replayed', { description: 'True when this is the stored result of an earlier request with the same Idempotency-Key.' }),
  }),
});

const inputType = inputTypes(builder);
const VetoSettingsInput = inputType('VetoSettingsInput', vetoInput);
const CreateStageInput = inputType('CreateStageInput', stageInput);
const StageSeedingInput = inputType('StageSeedingInput', stageSeedingInput);
const CreateInvitationInput = inputType('CreateInvitationInput', invitationInput);
const CreateStandingAdjustmentInput = inputType('CreateStandingAdjustmentInput', standingAdjustmentInput);
const UpdateParticipantInput = inputType('UpdateParticipantInput', participantChangeInput);
const LineupChangeInput = inputType('LineupChangeInput', lineupInput);
const PlaydayStaffInput = inputType('PlaydayStaffInput', staffInput);
const MatchReportInput = inputType('MatchReportInput', matchReportInput);
const BroadcastInput = inputType('BroadcastInput', broadcastInput);
const PlaydayUpdateInput = inputType('PlaydayUpdateInput', playdayUpdateInput);
const CreateEventInput = inputType('CreateEventInput', createEventInput);
const UpdateEventInput = inputType('UpdateEventInput', updateEventInput);
const CreateParticipantInput = inputType('CreateParticipantInput', participantInput);

/** GraphQL sends every omitted input field as null; the schemas read null as absent. */
const present = <T extends Record<string, unknown>>(input: T, keep: string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

builder.mutationType({});
builder.mutationFields((t) => {
  // If-Match unless the write's contract says otherwise; Idempotency-Key where it asks for one.
  const preconditions = (operation: WriteOperation) => ({
    ...(contractOf(operation).ifMatch === false ? {} : { ifMatch: t.arg.string({ description: 'The current event revision, as in If-Match: "3".' }) }),
    ...(contractOf(operation).idempotent ? { idempotencyKey: t.arg.string({ required: true, description: 'As the Idempotency-Key header.' }) } : {}),
  });
  return {
    publishEvent: t.field({
      type: WriteResultRef,
      description: 'Publishes a draft event: its state becomes scheduled. Needs event:manage.',
      args: { eventId: t.arg.id({ required: true }), ...preconditions('publishEvent') },
      resolve: (_root, args, ctx) => publishEvent(ctx, String(args.eventId), {}, args),
    }),
    updateVetoSettings: t.field({
      type: WriteResultRef,
      description: 'Replaces the map veto configurations, normalised to the size of the map pool. Needs event:manage.',
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: VetoSettingsInput, required: true }), ...preconditions('updateVetoSettings') },
      resolve: (_root, args, ctx) =>
        updateVetoSettings(
          ctx,
          String(args.eventId),
          { ...present(args.input), configurations: args.input.configurations.map((c: { steps: Record<string, unknown>[] }) => ({ ...c, steps: c.steps.map((s) => present(s)) })) },
          args,
        ),
    }),
    createStage: t.field({
      type: WriteResultRef,
      description: 'Adds a stage with a format, a best-of value and optional groups. Needs event.structure:manage.',
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: CreateStageInput, required: true }), ...preconditions('createStage') },
      resolve: (_root, args, ctx) => createStage(ctx, String(args.eventId), present(args.input), args),
    }),
    seedStage: t.field({
      type: WriteResultRef,
      description: "Sets a pending stage's manual seeding: participantIds (seed 1 first) or, for round robin stages with groups, groups. Needs event.structure:manage.",
      args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), input: t.arg({ type: StageSeedingInput, required: true }), ...preconditions('seedStage') },
      resolve: (_root, args, ctx) => seedStage(ctx, String(args.eventId), String(args.stageId), present(args.input), args),
    }),
    startStage: t.field({
      type: WriteResultRef,
      description: 'Starts a pending stage: freezes its seeding and generates its rounds and matches in one transaction. Needs event.structure:manage.',
      args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), ...preconditions('startStage') },
      resolve: (_root, args, ctx) => startStage(ctx, String(args.eventId), String(args.stageId), args),
    }),
    createInvitation: t.field({
      type: WriteResultRef,
      description: 'Invites a team, optionally into a stage and a group of that stage. Needs event.participants:manage.',
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: CreateInvitationInput, required: true }), ...preconditions('createInvitation') },
      resolve: (_root, args, ctx) => createInvitation(ctx, String(args.eventId), present(args.input), args),
    }),
    createStandingAdjustment: t.field({
      type: WriteResultRef,
      description: 'Adds a points adjustment for a participant of a stage or group standing. Needs event.results:manage.',
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: CreateStandingAdjustmentInput, required: true }), ...preconditions('createStandingAdjustment') },
      resolve: (_root, args, ctx) => createStandingAdjustment(ctx, String(args.eventId), present(args.input), args),
    }),
    updateParticipant: t.field({
      type: WriteResultRef,
      description: 'Sets a participant\'s status, selected groups or signup answers (by action). Needs event.participants:manage.',
      args: { eventId: t.arg.id({ required: true }), participantId: t.arg.id({ required: true }), input: t.arg({ type: UpdateParticipantInput, required: true }), ...preconditions('updateParticipant') },
      resolve: (_root, args, ctx) => updateParticipant(ctx, String(args.eventId), String(args.participantId), present(args.input), args),
    }),
    changeLineup: t.field({
      type: WriteResultRef,
      description: 'Sets a lineup member\'s role, or adds or removes a member, in this event or every open event of the team. Needs event.participants:manage.',
      args: { eventId: t.arg.id({ required: true }), participantId: t.arg.id({ required: true }), input: t.arg({ type: LineupChangeInput, required: true }), ...preconditions('changeLineup') },
      resolve: (_root, args, ctx) => changeLineup(ctx, String(args.eventId), String(args.participantId), present(args.input), args),
    }),
    deleteParticipant: t.field({
      type: WriteResultRef,
      description: 'Removes a registration before it is placed into matches. Needs event.participants:manage.',
      args: { eventId: t.arg.id({ required: true }), participantId: t.arg.id({ required: true }), ...preconditions('deleteParticipant') },
      resolve: (_root, args, ctx) => deleteParticipant(ctx, String(args.eventId), String(args.participantId), args),
    }),
    replacePlaydayStaff: t.field({
      type: WriteResultRef,
      description: 'Replaces the playday staff roster with the users and roles given. Needs broadcast:manage.',
      args: { eventId: t.arg.id({ required: true }), playdayId: t.arg.id({ required: true }), input: t.arg({ type: PlaydayStaffInput, required: true }), ...preconditions('replacePlaydayStaff') },
      resolve: (_root, args, ctx) => replacePlaydayStaff(ctx, String(args.eventId), String(args.playdayId), args.input, args),
    }),
    // Nulls are meaningful in these inputs (null clears a field; absent keeps it), so they are kept.
    reportMatch: t.field({
      type: WriteResultRef,
      description: "Reports a match: status, scheduled time, scores, per-map results, free win, stream. Absent fields keep their value; null clears. Needs event.results:manage.",
      args: { eventId: t.arg.id({ required: true }), matchId: t.arg.id({ required: true }), input: t.arg({ type: MatchReportInput, required: true }), ...preconditions('reportMatch') },
      resolve: (_root, args, ctx) => reportMatch(ctx, String(args.eventId), String(args.matchId), args.input, args),
    }),
    replaceBroadcast: t.field({
      type: WriteResultRef,
      description: "Replaces the event's broadcast configuration (absent fields take their defaults). Needs broadcast:manage.",
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: BroadcastInput, required: true }), ...preconditions('replaceBroadcast') },
      resolve: (_root, args, ctx) => replaceBroadcast(ctx, String(args.eventId), present(args.input), args),
    }),
    updatePlayday: t.field({
      type: WriteResultRef,
      description: "Sets a playday's live match and overlay score. Absent fields keep their value; null clears. Needs broadcast:manage.",
      args: { eventId: t.arg.id({ required: true }), playdayId: t.arg.id({ required: true }), input: t.arg({ type: PlaydayUpdateInput, required: true }), ...preconditions('updatePlayday') },
      resolve: (_root, args, ctx) => updatePlayday(ctx, String(args.eventId), String(args.playdayId), args.input, args),
    }),
    // Organiser writes (extensions of the interface).
    createEvent: t.field({
      type: WriteResultRef,
      description: 'Creates a draft event in the organisation (revision 1); the slug is derived from the name unless given. Needs event:manage.',
      args: { organisationId: t.arg.id({ required: true }), input: t.arg({ type: CreateEventInput, required: true }), ...preconditions('createEvent') },
      resolve: (_root, args, ctx) => createEvent(ctx, String(args.organisationId), present(args.input), args),
    }),
    updateEvent: t.field({
      type: WriteResultRef,
      description: "Changes an event's name, slug, description, game, schedule, time zone, visibility or branding. Absent fields keep their value; null clears. Needs event:manage.",
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: UpdateEventInput, required: true }), ...preconditions('updateEvent') },
      resolve: (_root, args, ctx) => updateEvent(ctx, String(args.eventId), args.input, args),
    }),
    createParticipant: t.field({
      type: WriteResultRef,
      description: "Registers a team in the event (status registered, the team's members as its lineup), optionally in a group of a stage. Needs event.participants:manage.",
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: CreateParticipantInput, required: true }), ...preconditions('createParticipant') },
      resolve: (_root, args, ctx) => createParticipant(ctx, String(args.eventId), present(args.input), args),
    }),
    acceptInvitation: t.field({
      type: WriteResultRef,
      description: "Accepts a pending invitation for the invited team: the team is registered in the invitation's stage and group. For a user who plays in that team; resourceId is the new participant.",
      args: { eventId: t.arg.id({ required: true }), invitationId: t.arg.id({ required: true }), ...preconditions('acceptInvitation') },
      resolve: (_root, args, ctx) => acceptInvitation(ctx, String(args.eventId), String(args.invitationId), args),
    }),
    declineInvitation: t.field({
      type: WriteResultRef,
      description: 'Declines a pending invitation for the invited team. For a user who plays in that team; resourceId is the invitation.',
      args: { eventId: t.arg.id({ required: true }), invitationId: t.arg.id({ required: true }), ...preconditions('declineInvitation') },
      resolve: (_root, args, ctx) => declineInvitation(ctx, String(args.eventId), String(args.invitationId), args),
    }),
  };
});
