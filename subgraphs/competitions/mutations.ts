// Mutations of the competitions subgraph: the nine writes of the interface, with the same rules as
// their REST routes (the routes run these mutations). ifMatch carries the If-Match value ("3");
// idempotencyKey the Idempotency-Key.
import { builder } from './builder.ts';
import type { WriteResult } from './event-write.ts';
import { WRITES, type WriteOperation } from './write-contracts.ts';
import { BEST_OF, LINEUP_ROLES, PARTICIPANT_STATUSES, STAFF_ROLES, STAGE_FORMATS, VETO_ACTIONS } from './inputs.ts';
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
} from './writes.ts';

const WriteResultRef = builder.objectRef<WriteResult>('WriteResult').implement({
  description: 'The result of a write to an event: the resource created or changed and the event revision after it.',
  fields: (t) => ({
    resourceId: t.exposeID('resourceId'),
    revision: t.exposeInt('revision', { description: 'The event revision after the change (its ETag is "<revision>").' }),
    updated: t.exposeBoolean('updated', { description: 'False when the write changed nothing (the revision stayed).' }),
    replayed: t.exposeBoolean('replayed', { description: 'True when this is the stored result of an earlier request with the same Idempotency-Key.' }),
  }),
});

const enumOf = (name: string, values: readonly string[], description: string) => builder.enumType(name, { values: values as [string, ...string[]], description });
const StageFormat = enumOf('StageFormat', STAGE_FORMATS, 'How a stage is played.');
const VetoAction = enumOf('VetoAction', VETO_ACTIONS, 'A veto step.');
const VetoTeam = enumOf('VetoTeam', ['a', 'b'], 'The side that makes a veto step.');
const ParticipantAction = enumOf('ParticipantAction', ['status', 'selected_groups', 'signup_answers'], 'Which part of a participant a change sets.');
const ParticipantStatus = enumOf('ParticipantStatus', PARTICIPANT_STATUSES, 'Registration status.');
const LineupOperation = enumOf('LineupOperation', ['set_role', 'add_member', 'remove_member'], 'A lineup change.');
const LineupRole = enumOf('LineupRole', LINEUP_ROLES, 'A lineup role.');
const LineupScope = enumOf('LineupScope', ['event', 'team'], 'event: this registration; team: every open registration of the team in the organisation.');
const StaffRole = enumOf('StaffRole', STAFF_ROLES, 'A playday staff role.');

const VetoStepInput = builder.inputType('VetoStepInput', { fields: (t) => ({ action: t.field({ type: VetoAction, required: true }), team: t.field({ type: VetoTeam }) }) });
const VetoConfigurationInput = builder.inputType('VetoConfigurationInput', {
  fields: (t) => ({ bestOf: t.int({ required: true, description: BEST_OF.join(', ') }), steps: t.field({ type: [VetoStepInput], required: true }) }),
});
const VetoSettingsInput = builder.inputType('VetoSettingsInput', {
  fields: (t) => ({ mapPool: t.idList(), configurations: t.field({ type: [VetoConfigurationInput], required: true }) }),
});
const StageGroupInput = builder.inputType('StageGroupInput', { fields: (t) => ({ name: t.string({ required: true }) }) });
const CreateStageInput = builder.inputType('CreateStageInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    format: t.field({ type: StageFormat, required: true }),
    bestOf: t.int({ required: true }),
    groups: t.field({ type: [StageGroupInput] }),
    startsAt: t.string({ description: 'ISO 8601' }),
    endsAt: t.string({ description: 'ISO 8601' }),
  }),
});
const CreateInvitationInput = builder.inputType('CreateInvitationInput', {
  fields: (t) => ({ teamId: t.id({ required: true }), stageId: t.id(), groupId: t.id(), message: t.string() }),
});
const CreateStandingAdjustmentInput = builder.inputType('CreateStandingAdjustmentInput', {
  fields: (t) => ({ participantId: t.id({ required: true }), stageId: t.id({ required: true }), groupId: t.id(), points: t.int({ required: true }), reason: t.string() }),
});
const UpdateParticipantInput = builder.inputType('UpdateParticipantInput', {
  fields: (t) => ({
    action: t.field({ type: ParticipantAction, required: true }),
    status: t.field({ type: ParticipantStatus }),
    groupIds: t.idList(),
    answers: t.field({ type: 'JSON' }),
  }),
});
const LineupChangeInput = builder.inputType('LineupChangeInput', {
  fields: (t) => ({
    operation: t.field({ type: LineupOperation, required: true }),
    userId: t.id({ required: true }),
    role: t.field({ type: LineupRole }),
    scope: t.field({ type: LineupScope, required: true }),
  }),
});
const StaffMemberInput = builder.inputType('StaffMemberInput', { fields: (t) => ({ userId: t.id({ required: true }), role: t.field({ type: StaffRole, required: true }) }) });
const PlaydayStaffInput = builder.inputType('PlaydayStaffInput', { fields: (t) => ({ staff: t.field({ type: [StaffMemberInput], required: true }) }) });

/** GraphQL sends every omitted input field as null; the schemas read null as absent. */
const present = <T extends Record<string, unknown>>(input: T, keep: string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

builder.mutationType({});
builder.mutationFields((t) => {
  // If-Match always; Idempotency-Key where the write's contract asks for one.
  const preconditions = (operation: WriteOperation) => ({
    ifMatch: t.arg.string({ description: 'The current event revision, as in If-Match: "3".' }),
    ...(WRITES[operation].idempotent ? { idempotencyKey: t.arg.string({ required: true, description: 'As the Idempotency-Key header.' }) } : {}),
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
          { ...present(args.input), configurations: args.input.configurations.map((c) => ({ ...c, steps: c.steps.map((s) => present(s)) })) },
          args,
        ),
    }),
    createStage: t.field({
      type: WriteResultRef,
      description: 'Adds a stage with a format, a best-of value and optional groups. Needs event.structure:manage.',
      args: { eventId: t.arg.id({ required: true }), input: t.arg({ type: CreateStageInput, required: true }), ...preconditions('createStage') },
      resolve: (_root, args, ctx) => createStage(ctx, String(args.eventId), present(args.input), args),
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
  };
});
