// Mutations of the competitions subgraph: the nine writes of the interface, the three live writes
// overlays follow and the organiser writes (events/organiser-writes.ts), with the same rules as
// their REST routes (the routes run these mutations). ifMatch carries the If-Match value ("3");
// idempotencyKey the Idempotency-Key. Each mutation is one contract of WRITES (write-contracts.ts:
// its arguments and description) and one handler below, declared by the loop at the end.
import type { ArgumentRef } from '@pothos/core';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { replayedField, type SubgraphSchemaTypes } from '../../../platform/graphql/builder.ts';
import { builder } from '../builder.ts';
import type { WriteResult } from '../events/event-write.ts';
import type { Preconditions } from '../events/write-rules.ts';
import { writeResultView } from '../views.ts';
import { contractOf, pathParamsOf, WRITES, type PathIdsOf, type WriteOperation } from '../write-contracts.ts';
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

/** A write's arguments as the resolver gets them: its ids, its input, If-Match and Idempotency-Key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WriteArgs = Preconditions & { input?: any };
type Handler<K extends WriteOperation> = (ctx: SubgraphContext, ids: PathIdsOf<K>, args: WriteArgs) => Promise<WriteResult>;

/**
 * The domain function behind each write, by the contract's name (a contract without a handler does
 * not compile). They stay here rather than in the contract table: write-contracts.ts is a contract
 * module the facade imports, and these are the capability's domain. Where nulls mean "clear" (match
 * reports, playday and event updates, the staff roster) the input goes as sent; elsewhere null reads
 * as absent.
 */
const HANDLERS: { [K in WriteOperation]: Handler<K> } = {
  publishEvent: (ctx, { eventId }, args) => publishEvent(ctx, eventId, {}, args),
  updateVetoSettings: (ctx, { eventId }, args) =>
    updateVetoSettings(
      ctx,
      eventId,
      { ...present(args.input), configurations: args.input.configurations.map((c: { steps: Record<string, unknown>[] }) => ({ ...c, steps: c.steps.map((s) => present(s)) })) },
      args,
    ),
  createStage: (ctx, { eventId }, args) => createStage(ctx, eventId, present(args.input), args),
  seedStage: (ctx, { eventId, stageId }, args) => seedStage(ctx, eventId, stageId, present(args.input), args),
  startStage: (ctx, { eventId, stageId }, args) => startStage(ctx, eventId, stageId, args),
  createInvitation: (ctx, { eventId }, args) => createInvitation(ctx, eventId, present(args.input), args),
  createStandingAdjustment: (ctx, { eventId }, args) => createStandingAdjustment(ctx, eventId, present(args.input), args),
  updateParticipant: (ctx, { eventId, participantId }, args) => updateParticipant(ctx, eventId, participantId, present(args.input), args),
  changeLineup: (ctx, { eventId, participantId }, args) => changeLineup(ctx, eventId, participantId, present(args.input), args),
  deleteParticipant: (ctx, { eventId, participantId }, args) => deleteParticipant(ctx, eventId, participantId, args),
  replacePlaydayStaff: (ctx, { eventId, playdayId }, args) => replacePlaydayStaff(ctx, eventId, playdayId, args.input, args),
  reportMatch: (ctx, { eventId, matchId }, args) => reportMatch(ctx, eventId, matchId, args.input, args),
  replaceBroadcast: (ctx, { eventId }, args) => replaceBroadcast(ctx, eventId, present(args.input), args),
  updatePlayday: (ctx, { eventId, playdayId }, args) => updatePlayday(ctx, eventId, playdayId, args.input, args),
  createEvent: (ctx, { organisationId }, args) => createEvent(ctx, organisationId, present(args.input), args),
  updateEvent: (ctx, { eventId }, args) => updateEvent(ctx, eventId, args.input, args),
  createParticipant: (ctx, { eventId }, args) => createParticipant(ctx, eventId, present(args.input), args),
  acceptInvitation: (ctx, { eventId, invitationId }, args) => acceptInvitation(ctx, eventId, invitationId, args),
  declineInvitation: (ctx, { eventId, invitationId }, args) => declineInvitation(ctx, eventId, invitationId, args),
};

/** A write's path ids from its arguments (GraphQL IDs), as the strings its handler takes. */
const idsOf = <K extends WriteOperation>(operation: K, args: Record<string, unknown>) =>
  Object.fromEntries(pathParamsOf(operation).map((name) => [name, String(args[name])])) as PathIdsOf<K>;

builder.mutationType({});
builder.mutationFields((t) => {
  // The arguments of a write, from its contract: its path's ids, its body as input, If-Match unless the
  // contract says otherwise, Idempotency-Key where it asks for one. Resolvers read them by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const argsOf = (operation: WriteOperation): Record<string, ArgumentRef<SubgraphSchemaTypes, any>> => ({
    ...Object.fromEntries(pathParamsOf(operation).map((name) => [name, t.arg.id({ required: true })])),
    ...(inputRefs.has(operation) ? { input: t.arg({ type: inputRefs.get(operation)!, required: true }) } : {}),
    ...(contractOf(operation).ifMatch === false ? {} : { ifMatch: t.arg.string({ description: 'The current event revision, as in If-Match: "3".' }) }),
    ...(contractOf(operation).idempotent ? { idempotencyKey: t.arg.string({ required: true, description: 'As the Idempotency-Key header.' }) } : {}),
  });
  // One mutation per contract, in the table's order (the printed SDL keeps it).
  return Object.fromEntries(
    (Object.keys(WRITES) as WriteOperation[]).map((operation) => [
      operation,
      t.field({
        type: WriteResultRef,
        description: contractOf(operation).description,
        args: argsOf(operation),
        resolve: (_root, args, ctx) => (HANDLERS[operation] as Handler<WriteOperation>)(ctx, idsOf(operation, args), args),
      }),
    ]),
  );
});
