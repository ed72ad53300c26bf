// Mutations of the competitions subgraph: the nine writes of the interface, the three live writes
// overlays follow and the organiser writes (organiser-writes.ts), with the same rules as
// their REST routes (the routes run these mutations). ifMatch carries the If-Match value ("3");
// idempotencyKey the Idempotency-Key.
import type { ArgumentRef } from '@pothos/core';
import { replayedField, type SubgraphSchemaTypes } from '../../../platform/graphql/builder.ts';
import { builder } from '../builder.ts';
import type { WriteResult } from '../events/event-write.ts';
import { writeResultView } from '../views.ts';
import { contractOf, pathParamsOf, WRITES, type WriteOperation } from '../write-contracts.ts';
import { inputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { replaceBroadcast, reportMatch, updatePlayday } from '../matches/live-writes.ts';
import { acceptInvitation, createEvent, createParticipant, declineInvitation, updateEvent } from '../events/organiser-writes.ts';
import { seedStage, startStage } from '../stages/start.ts';
import {
  changeLineup,
  createInvitation,
  deleteParticipant,
  publishEvent,
  replacePlaydayStaff,
  updateParticipant,
  updateVetoSettings,
} from '../events/writes.ts';
import { createStage, createStandingAdjustment } from '../stages/writes.ts';

const WriteResultRef = builder.objectRef<WriteResult>('WriteResult').implement({
  description: writeResultView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, writeResultView),
    replayed: replayedField(t),
  }),
});

// The GraphQL input type of each write's body, generated from the contract's zod schema.
const inputType = inputTypes(builder);
const inputRefs = new Map(
  Object.entries(WRITES).flatMap(([operation, contract]) => ('input' in contract ? [[operation, inputType(contract.input.name, contract.input.schema)] as const] : [])),
);

/** GraphQL sends every omitted input field as null; the schemas read null as absent. */
const present = <T extends Record<string, unknown>>(input: T, keep: string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

builder.mutationType({});
builder.mutationFields((t) => {
  // If-Match unless the write's contract says otherwise; Idempotency-Key where it asks for one.
  // The arguments of a write, from its contract: its path's ids, its body as input, If-Match unless the
  // contract says otherwise, Idempotency-Key where it asks for one. Resolvers read them by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const argsOf = (operation: WriteOperation): Record<string, ArgumentRef<SubgraphSchemaTypes, any>> => ({
    ...Object.fromEntries(pathParamsOf(operation).map((name) => [name, t.arg.id({ required: true })])),
    ...(inputRefs.has(operation) ? { input: t.arg({ type: inputRefs.get(operation)!, required: true }) } : {}),
    ...(contractOf(operation).ifMatch === false ? {} : { ifMatch: t.arg.string({ description: 'The current event revision, as in If-Match: "3".' }) }),
    ...(contractOf(operation).idempotent ? { idempotencyKey: t.arg.string({ required: true, description: 'As the Idempotency-Key header.' }) } : {}),
  });
  return {
    publishEvent: t.field({
      type: WriteResultRef,
      description: 'Publishes a draft event: its state becomes scheduled. Needs event:manage.',
      args: argsOf('publishEvent'),
      resolve: (_root, args, ctx) => publishEvent(ctx, String(args.eventId), {}, args),
    }),
    updateVetoSettings: t.field({
      type: WriteResultRef,
      description: 'Replaces the map veto configurations, normalised to the size of the map pool. Needs event:manage.',
      args: argsOf('updateVetoSettings'),
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
      args: argsOf('createStage'),
      resolve: (_root, args, ctx) => createStage(ctx, String(args.eventId), present(args.input), args),
    }),
    seedStage: t.field({
      type: WriteResultRef,
      description: "Sets a pending stage's manual seeding: participantIds (seed 1 first) or, for round robin stages with groups, groups. Needs event.structure:manage.",
      args: argsOf('seedStage'),
      resolve: (_root, args, ctx) => seedStage(ctx, String(args.eventId), String(args.stageId), present(args.input), args),
    }),
    startStage: t.field({
      type: WriteResultRef,
      description: 'Starts a pending stage: freezes its seeding and generates its rounds and matches in one transaction. Needs event.structure:manage.',
      args: argsOf('startStage'),
      resolve: (_root, args, ctx) => startStage(ctx, String(args.eventId), String(args.stageId), args),
    }),
    createInvitation: t.field({
      type: WriteResultRef,
      description: 'Invites a team, optionally into a stage and a group of that stage. Needs event.participants:manage.',
      args: argsOf('createInvitation'),
      resolve: (_root, args, ctx) => createInvitation(ctx, String(args.eventId), present(args.input), args),
    }),
    createStandingAdjustment: t.field({
      type: WriteResultRef,
      description: 'Adds a points adjustment for a participant of a stage or group standing. Needs event.results:manage.',
      args: argsOf('createStandingAdjustment'),
      resolve: (_root, args, ctx) => createStandingAdjustment(ctx, String(args.eventId), present(args.input), args),
    }),
    updateParticipant: t.field({
      type: WriteResultRef,
      description: 'Sets a participant\'s status, selected groups or signup answers (by action). Needs event.participants:manage.',
      args: argsOf('updateParticipant'),
      resolve: (_root, args, ctx) => updateParticipant(ctx, String(args.eventId), String(args.participantId), present(args.input), args),
    }),
    changeLineup: t.field({
      type: WriteResultRef,
      description: 'Sets a lineup member\'s role, or adds or removes a member, in this event or every open event of the team. Needs event.participants:manage.',
      args: argsOf('changeLineup'),
      resolve: (_root, args, ctx) => changeLineup(ctx, String(args.eventId), String(args.participantId), present(args.input), args),
    }),
    deleteParticipant: t.field({
      type: WriteResultRef,
      description: 'Removes a registration before it is placed into matches. Needs event.participants:manage.',
      args: argsOf('deleteParticipant'),
      resolve: (_root, args, ctx) => deleteParticipant(ctx, String(args.eventId), String(args.participantId), args),
    }),
    replacePlaydayStaff: t.field({
      type: WriteResultRef,
      description: 'Replaces the playday staff roster with the users and roles given. Needs broadcast:manage.',
      args: argsOf('replacePlaydayStaff'),
      resolve: (_root, args, ctx) => replacePlaydayStaff(ctx, String(args.eventId), String(args.playdayId), args.input, args),
    }),
    // Nulls are meaningful in these inputs (null clears a field; absent keeps it), so they are kept.
    reportMatch: t.field({
      type: WriteResultRef,
      description: "Reports a match: status, scheduled time, scores, per-map results, free win, stream. Absent fields keep their value; null clears. Needs event.results:manage.",
      args: argsOf('reportMatch'),
      resolve: (_root, args, ctx) => reportMatch(ctx, String(args.eventId), String(args.matchId), args.input, args),
    }),
    replaceBroadcast: t.field({
      type: WriteResultRef,
      description: "Replaces the event's broadcast configuration (absent fields take their defaults). Needs broadcast:manage.",
      args: argsOf('replaceBroadcast'),
      resolve: (_root, args, ctx) => replaceBroadcast(ctx, String(args.eventId), present(args.input), args),
    }),
    updatePlayday: t.field({
      type: WriteResultRef,
      description: "Sets a playday's live match and overlay score. Absent fields keep their value; null clears. Needs broadcast:manage.",
      args: argsOf('updatePlayday'),
      resolve: (_root, args, ctx) => updatePlayday(ctx, String(args.eventId), String(args.playdayId), args.input, args),
    }),
    // Organiser writes (extensions of the interface).
    createEvent: t.field({
      type: WriteResultRef,
      description: 'Creates a draft event in the organisation (revision 1); the slug is derived from the name unless given. Needs event:manage.',
      args: argsOf('createEvent'),
      resolve: (_root, args, ctx) => createEvent(ctx, String(args.organisationId), present(args.input), args),
    }),
    updateEvent: t.field({
      type: WriteResultRef,
      description: "Changes an event's name, slug, description, game, schedule, time zone, visibility or branding. Absent fields keep their value; null clears. Needs event:manage.",
      args: argsOf('updateEvent'),
      resolve: (_root, args, ctx) => updateEvent(ctx, String(args.eventId), args.input, args),
    }),
    createParticipant: t.field({
      type: WriteResultRef,
      description: "Registers a team in the event (status registered, the team's members as its lineup), optionally in a group of a stage. Needs event.participants:manage.",
      args: argsOf('createParticipant'),
      resolve: (_root, args, ctx) => createParticipant(ctx, String(args.eventId), present(args.input), args),
    }),
    acceptInvitation: t.field({
      type: WriteResultRef,
      description: "Accepts a pending invitation for the invited team: the team is registered in the invitation's stage and group. For a user who plays in that team; resourceId is the new participant.",
      args: argsOf('acceptInvitation'),
      resolve: (_root, args, ctx) => acceptInvitation(ctx, String(args.eventId), String(args.invitationId), args),
    }),
    declineInvitation: t.field({
      type: WriteResultRef,
      description: 'Declines a pending invitation for the invited team. For a user who plays in that team; resourceId is the invitation.',
      args: argsOf('declineInvitation'),
      resolve: (_root, args, ctx) => declineInvitation(ctx, String(args.eventId), String(args.invitationId), args),
    }),
  };
});
