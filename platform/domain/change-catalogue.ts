// The change catalogue, shared by every subgraph that writes changes and by everything that routes
// them: each type the change log holds (plus webhook.test), who may receive it, and its facts as a
// zod schema, from which both their JSON Schema and the payload type a writer must build
// (ChangeDetails: Change and NewChange are typed by it) are derived. A writer names its type as a
// ChangeType, so a type missing here does not compile;
// webhook fan-out routes by audience; the catalogue is served (GET /api/v2/developer/webhook-event-types)
// and every change the test suite writes is checked against it. A webhook delivery's body is
// {type, timestamp, data}; `data` is the same envelope for every change, with the type's own facts in
// `details`.

import { z } from 'zod';
import { MATCH_STATUSES, SEEDING_METHODS } from './competition-vocabulary.ts';

type JsonSchema = Record<string, unknown>;

// The parts `details` are made of, as zod schemas: each type's details is declared once, as one,
// and both its JSON Schema (what the catalogue serves and the test servers check) and the payload
// type its writers must build (ChangeDetails) are derived from it.
const id = z.string();
const nullableId = z.string().nullable();
const int = z.number().int();
const nullableInt = int.nullable();
const ids = z.array(id);
const details = <const Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).strict();

const EMPTY = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * A zod schema's JSON Schema, written as the catalogue always wrote it: no $schema; no bounds of
 * JavaScript's safe integers on an integer (every number written is within them); no propertyNames
 * on a record (JSON keys are strings) and no additionalProperties {} (anything); "X or null" as
 * {type: [X, 'null']} (an enum with null among its values) rather than anyOf; and no `type` beside an
 * `enum` or a `const`, whose values say it. So the catalogue serves the very schemas it served when
 * they were written by hand.
 */
// type, then description, then the rest: the order the hand-written schemas had, so the served JSON is the same text.
const ordered = ({ type, description, ...rest }: JsonSchema): JsonSchema => ({ ...(type === undefined ? {} : { type }), ...(description === undefined ? {} : { description }), ...rest });

function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== 'object' || node === null) return node;
  const { $schema: _schema, ...rest } = node as JsonSchema;
  const out: JsonSchema = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, tidy(value)]));
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (JSON.stringify(out.propertyNames) === '{"type":"string"}') delete out.propertyNames;
  if (EMPTY(out.additionalProperties)) delete out.additionalProperties;
  if ('const' in out || 'enum' in out) delete out.type;
  const options = out.anyOf as JsonSchema[] | undefined;
  if (options?.length === 2 && JSON.stringify(options[1]) === '{"type":"null"}') {
    const { anyOf: _anyOf, ...own } = out;
    const [some] = options;
    if (Array.isArray(some.enum)) return ordered({ ...some, enum: [...some.enum, null], ...own });
    if (typeof some.type === 'string') return ordered({ ...some, type: [some.type, 'null'], ...own });
  }
  return ordered(out);
}

export const jsonSchemaOf = (schema: z.ZodType): JsonSchema => tidy(z.toJSONSchema(schema, { io: 'output' })) as JsonSchema;

/**
 * Who may receive a change of the type, among the applications subscribed to it:
 * - event: those installed on its event or on the event's organisation;
 * - platform: every application with an active installation (reference data such as maps);
 * - esports_data: those whose owner holds the esports_data entitlement;
 * - application: the application the change is about, through its first active installation;
 * - endpoint: the one endpoint a test delivery is sent to.
 */
export type ChangeAudience = 'event' | 'platform' | 'esports_data' | 'application' | 'endpoint';

export interface ChangeTypeSpec<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  name: Name;
  description: string;
  audience: ChangeAudience;
  /** data.details, as zod: what a writer of the type must give (ChangeDetails). */
  schema: Schema;
  /** Schema of data.details: the JSON Schema of `schema`. */
  details: JsonSchema;
}

/** A type and its details' schema (the audience of nearly all is event). */
const changeType = <const Name extends string, Schema extends z.ZodType>(
  spec: { name: Name; description: string; audience?: ChangeAudience; schema: Schema },
): ChangeTypeSpec<Name, Schema> => ({ audience: 'event', ...spec, details: jsonSchemaOf(spec.schema) });

const reaction = details({ matchId: id, messageId: id, emoji: id, messageRevision: int });
const stageAndFormat = details({ stageId: id, format: id });

export const CHANGE_TYPES = [
  changeType({ name: 'event.published', description: 'A draft event was published: its state is now scheduled.', schema: details({ state: z.literal('scheduled') }) }),
  changeType({
    name: 'veto.updated',
    description: "The event's map pool and veto configurations were replaced.",
    schema: details({
      mapPool: ids,
      configurations: z.array(details({ bestOf: int, steps: z.array(details({ action: z.enum(['ban', 'pick', 'decider']), team: z.string().nullable().optional() })) })),
    }),
  }),
  changeType({
    name: 'stage.created',
    description: 'A stage (and its groups) was added to the event.',
    schema: details({ stageId: id, name: id, format: id, bestOf: int, groupIds: ids, settings: z.record(z.string(), z.unknown()).optional().describe('The settings as given (defaults not filled).') }),
  }),
  changeType({
    name: 'stage.seeded',
    description:
      "A stage's seeding was set before its start: a manual order (PUT …/stages/{stageId}/seeding), its participants seed 1 first and per group for group stages; or, for a stage seeded previous_stage, the qualifiers of the previous stage (previousStageId) when it completed or its qualifiers moved (empty when a correction reopened it).",
    schema: details({ stageId: id, participantIds: ids, groups: z.array(details({ groupId: id, participantIds: ids })).nullable(), previousStageId: id.optional() }),
  }),
  changeType({
    name: 'stage.started',
    description: "A stage started: its seeding was frozen and its rounds and matches generated, in this one change however many matches (GET …/stages/{stageId}/matches reads them).",
    schema: details({
      stageId: id,
      format: id,
      seeding: details({ method: z.enum(SEEDING_METHODS), randomSeed: nullableInt, participantIds: ids }),
      roundCount: int,
      matchCount: int,
    }),
  }),
  changeType({
    name: 'invitation.created',
    description: 'A team was invited to the event, a stage or a group.',
    schema: details({ invitationId: id, teamId: id, stageId: nullableId, groupId: nullableId }),
  }),
  changeType({
    name: 'standing.adjusted',
    description: "Points were added to or taken from a participant's standing.",
    schema: details({ adjustmentId: id, participantId: id, stageId: id, groupId: nullableId, points: int }),
  }),
  changeType({
    name: 'participant.updated',
    description: "A participant's registration status, chosen groups or sign-up answers changed (action says which).",
    schema: details({ participantId: id, action: z.enum(['status', 'selected_groups', 'signup_answers']) }),
  }),
  changeType({ name: 'participant.deleted', description: 'A participant was removed from the event.', schema: details({ participantId: id }) }),
  changeType({
    name: 'lineup.updated',
    description: "A participant's lineup changed: a member added, removed or given another role.",
    schema: details({ participantId: id, operation: id, userId: id, role: nullableId, scope: id }),
  }),
  changeType({
    name: 'playday.staff_updated',
    description: "A playday's broadcast staff roster was replaced.",
    schema: details({ playdayId: id, staff: z.array(details({ userId: id, role: id })) }),
  }),
  changeType({
    name: 'match.updated',
    description:
      'A match was reported (its status, schedule, scores, forfeit, placements, maps, free win or stream changed), or a report of another match of its bracket moved a participant into or out of it (reportedMatchId names the reported match; one match.updated per match touched, in the same revision). The state after, and the status before.',
    schema: details({
      matchId: id,
      status: z.enum(MATCH_STATUSES),
      previousStatus: z.enum(MATCH_STATUSES),
      scoreA: nullableInt,
      scoreB: nullableInt,
      forfeit: z.enum(['a', 'b']).nullable(),
      participantAId: nullableId,
      participantBId: nullableId,
      opponents: z
        .array(details({ participantId: id, place: nullableInt, points: nullableInt }))
        .nullable()
        .describe('Free-for-all matches: every opponent with its place and points (null until placed); null for duels.'),
      reportedMatchId: id,
    }),
  }),
  changeType({
    name: 'broadcast.updated',
    description: "The event's broadcast configuration was replaced (the configuration after).",
    schema: details({ streamUrl: nullableId, youtubeUrl: nullableId, overlayTheme: id, primaryColor: nullableId, delaySeconds: int, showScores: z.boolean() }),
  }),
  changeType({
    name: 'playday.updated',
    description: "A playday's live match or overlay score changed (the state after).",
    schema: details({ playdayId: id, liveMatchId: nullableId, overlayScoreA: nullableInt, overlayScoreB: nullableInt }),
  }),
  // Organiser writes.
  changeType({
    name: 'event.created',
    description: 'A draft event was created in the organisation (revision 1).',
    schema: details({ name: id, slug: id, state: z.literal('draft'), visibility: z.enum(['public', 'unlisted', 'private']) }),
  }),
  changeType({
    name: 'event.updated',
    description:
      "The event's name, slug, description, game, schedule, time zone, visibility or branding changed (fields names which); or its state moved with its matches (fields [\"state\"], with state and previousState): live at its first live or completed match, completed when its last stage completed, live again when a correction reopened one.",
    schema: details({ fields: ids, state: z.enum(['live', 'completed']).optional(), previousState: z.string().optional() }),
  }),
  changeType({
    name: 'stage.completed',
    description: 'The last match of a stage was completed (a swiss stage: of its last round); the stage reads completed.',
    schema: stageAndFormat,
  }),
  changeType({
    name: 'stage.round_paired',
    description: 'A swiss round was completed and the next one paired (in the same transaction as the last report of the round): its matches are in GET …/stages/{stageId}/matches.',
    schema: details({ stageId: id, groupId: nullableId, roundNumber: int, matchCount: int }),
  }),
  changeType({
    name: 'standings.updated',
    description:
      "The standings of a stage (or of one group of it) moved: written by a stage start, a result, a correction or a standing adjustment, in the same transaction. participantIds names the rows that changed; GET …/stages/{stageId}/standings (groupId) reads the table.",
    schema: details({ stageId: id, groupId: nullableId, participantIds: ids }),
  }),
  changeType({
    name: 'stage.reopened',
    description: 'A correction gave a completed stage a match to play again (a grand-final reset now needed); the stage reads running.',
    schema: stageAndFormat,
  }),
  changeType({
    name: 'participant.created',
    description: 'A team was registered in the event (status registered): by the organiser, or by accepting its invitation (invitationId).',
    schema: details({ participantId: id, teamId: id, status: z.literal('registered'), groupId: nullableId, invitationId: nullableId }),
  }),
  changeType({
    name: 'invitation.accepted',
    description: "The invited team accepted: it takes part as participantId (a participant.created of the same revision goes with it).",
    schema: details({ invitationId: id, teamId: id, participantId: id, stageId: nullableId, groupId: nullableId }),
  }),
  changeType({
    name: 'invitation.declined',
    description: 'The invited team declined the invitation.',
    schema: details({ invitationId: id, teamId: id }),
  }),
  changeType({
    name: 'maps.updated',
    audience: 'platform',
    description:
      'The platform operator added or renamed maps (reference data). Not tied to an organisation: delivered to every application with an active installation, through its first one.',
    schema: details({ source: id, created: ids, updated: ids }),
  }),
  changeType({
    name: 'esports.imported',
    audience: 'esports_data',
    description:
      'Published esports data changed through an import. Not tied to an organisation: delivered to applications whose owner holds the esports_data entitlement.',
    schema: details({ source: id, created: int, updated: int, unchanged: int, counts: z.record(z.string(), int) }),
  }),
  changeType({
    name: 'chat.reaction_added',
    description: "An application added its reaction to a match chat message (resourceType chat_message; the event's revision does not move).",
    schema: reaction,
  }),
  changeType({
    name: 'chat.reaction_removed',
    description: 'An application removed its reaction from a match chat message.',
    schema: reaction,
  }),
  ...(
    [
      ['created', 'A user who manages the application’s owner offered it to another owner.'],
      ['accepted', 'A user who manages the new owner accepted the transfer: the application now belongs to toOwner.'],
      ['declined', 'A user who manages the new owner declined the transfer.'],
      ['cancelled', 'The sender withdrew the transfer.'],
    ] as const
  ).map(([status, description]) =>
    changeType({
      name: `application.owner_transfer.${status}`,
      audience: 'application',
      description: `${description} resourceType is application and resourceId the application; delivered to that application’s own endpoints, through its first active installation.`,
      schema: details({
        transferId: id,
        status: z.literal(status === 'created' ? 'pending' : status),
        fromOwner: details({ type: id, id }),
        toOwner: details({ type: id, id }),
        expiresAt: z.string().meta({ format: 'date-time' }),
      }),
    }),
  ),
  changeType({
    name: 'webhook.test',
    audience: 'endpoint',
    description: 'Sent by POST …/webhook-endpoints/{endpointId}/test to that endpoint alone, whatever it subscribes to.',
    schema: details({ endpointId: id, message: id }),
  }),
] as const satisfies readonly ChangeTypeSpec[];

/** A type of change (or of webhook delivery: webhook.test). */
export type ChangeType = (typeof CHANGE_TYPES)[number]['name'];

/** The details a change of the type carries, from its schema: what its writer must build. */
export type ChangeDetails<T extends ChangeType> = z.output<SpecOf<T>['schema']>;
// Distributed over the specs: the owner transfers' four types are one spec whose name is a union.
type Spec = (typeof CHANGE_TYPES)[number];
type SpecOf<T extends ChangeType> = Spec extends infer S ? (S extends { name: infer Name } ? (T extends Name ? S : never) : never) : never;

export const CHANGE_TYPE_NAMES: readonly string[] = CHANGE_TYPES.map((spec) => spec.name);

/** The types of an audience, for routing. */
export const typesFor = (audience: ChangeAudience): ChangeType[] => CHANGE_TYPES.filter((spec) => spec.audience === audience).map((spec) => spec.name);

/** The schema of a whole delivery body of this type. */
export function payloadSchema(type: ChangeTypeSpec): JsonSchema {
  return jsonSchemaOf(
    details({
      type: z.literal(type.name),
      timestamp: z.string().meta({ format: 'date-time' }),
      data: details({
        changeId: z.string().describe('The change this delivery carries (the delivery’s eventId).'),
        organisationId: nullableId,
        eventId: nullableId,
        resourceType: id,
        resourceId: id,
        revision: nullableInt.describe("The event's revision after the change."),
        details: type.schema,
      }),
    }),
  );
}
