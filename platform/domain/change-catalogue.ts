// The change catalogue, shared by every subgraph that writes changes and by everything that routes
// them: each type the change log holds (plus webhook.test), who may receive it, and the JSON Schema
// of its facts. A writer names its type as a ChangeType, so a type missing here does not compile;
// webhook fan-out routes by audience; the catalogue is served (GET /api/v2/developer/webhook-event-types)
// and every change the test suite writes is checked against it. A webhook delivery's body is
// {type, timestamp, data}; `data` is the same envelope for every change, with the type's own facts in
// `details`.

import { MATCH_STATUSES, SEEDING_METHODS } from './competition-vocabulary.ts';

type JsonSchema = Record<string, unknown>;

const id = { type: 'string' } as const;
const nullableId = { type: ['string', 'null'] } as const;
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/**
 * Who may receive a change of the type, among the applications subscribed to it:
 * - event: those installed on its event or on the event's organisation;
 * - platform: every application with an active installation (reference data such as maps);
 * - esports_data: those whose owner holds the esports_data entitlement;
 * - application: the application the change is about, through its first active installation;
 * - endpoint: the one endpoint a test delivery is sent to.
 */
export type ChangeAudience = 'event' | 'platform' | 'esports_data' | 'application' | 'endpoint';

export interface ChangeTypeSpec<Name extends string = string> {
  name: Name;
  description: string;
  audience: ChangeAudience;
  /** Schema of data.details. */
  details: JsonSchema;
}

/** An event-scoped type (the audience of nearly all). */
const eventScoped = <const Name extends string>(spec: Omit<ChangeTypeSpec<Name>, 'audience'> & { audience?: ChangeAudience }): ChangeTypeSpec<Name> => ({ audience: 'event', ...spec });

export const CHANGE_TYPES = [
  eventScoped({ name: 'event.published', description: 'A draft event was published: its state is now scheduled.', details: object({ state: { const: 'scheduled' } }) }),
  eventScoped({
    name: 'veto.updated',
    description: "The event's map pool and veto configurations were replaced.",
    details: object({
      mapPool: { type: 'array', items: id },
      configurations: {
        type: 'array',
        items: object({
          bestOf: { type: 'integer' },
          steps: { type: 'array', items: object({ action: { enum: ['ban', 'pick', 'decider'] }, team: { type: ['string', 'null'] } }, ['action']) },
        }),
      },
    }),
  }),
  eventScoped({
    name: 'stage.created',
    description: 'A stage (and its groups) was added to the event.',
    details: object({ stageId: id, name: id, format: id, bestOf: { type: 'integer' }, groupIds: { type: 'array', items: id }, settings: { type: 'object', description: 'The settings as given (defaults not filled).' } }, ['stageId', 'name', 'format', 'bestOf', 'groupIds']),
  }),
  eventScoped({
    name: 'stage.seeded',
    description:
      "A stage's seeding was set before its start: a manual order (PUT …/stages/{stageId}/seeding), its participants seed 1 first and per group for group stages; or, for a stage seeded previous_stage, the qualifiers of the previous stage (previousStageId) when it completed or its qualifiers moved (empty when a correction reopened it).",
    details: object(
      {
        stageId: id,
        participantIds: { type: 'array', items: id },
        groups: { type: ['array', 'null'], items: object({ groupId: id, participantIds: { type: 'array', items: id } }) },
        previousStageId: id,
      },
      ['stageId', 'participantIds', 'groups'],
    ),
  }),
  eventScoped({
    name: 'stage.started',
    description: "A stage started: its seeding was frozen and its rounds and matches generated, in this one change however many matches (GET …/stages/{stageId}/matches reads them).",
    details: object({
      stageId: id,
      format: id,
      seeding: object({ method: { enum: [...SEEDING_METHODS] }, randomSeed: { type: ['integer', 'null'] }, participantIds: { type: 'array', items: id } }),
      roundCount: { type: 'integer' },
      matchCount: { type: 'integer' },
    }),
  }),
  eventScoped({
    name: 'invitation.created',
    description: 'A team was invited to the event, a stage or a group.',
    details: object({ invitationId: id, teamId: id, stageId: nullableId, groupId: nullableId }),
  }),
  eventScoped({
    name: 'standing.adjusted',
    description: "Points were added to or taken from a participant's standing.",
    details: object({ adjustmentId: id, participantId: id, stageId: id, groupId: nullableId, points: { type: 'integer' } }),
  }),
  eventScoped({
    name: 'participant.updated',
    description: "A participant's registration status, chosen groups or sign-up answers changed (action says which).",
    details: object({ participantId: id, action: { enum: ['status', 'selected_groups', 'signup_answers'] } }),
  }),
  eventScoped({ name: 'participant.deleted', description: 'A participant was removed from the event.', details: object({ participantId: id }) }),
  eventScoped({
    name: 'lineup.updated',
    description: "A participant's lineup changed: a member added, removed or given another role.",
    details: object({ participantId: id, operation: id, userId: id, role: nullableId, scope: id }),
  }),
  eventScoped({
    name: 'playday.staff_updated',
    description: "A playday's broadcast staff roster was replaced.",
    details: object({ playdayId: id, staff: { type: 'array', items: object({ userId: id, role: id }) } }),
  }),
  eventScoped({
    name: 'match.updated',
    description:
      'A match was reported (its status, schedule, scores, forfeit, placements, maps, free win or stream changed), or a report of another match of its bracket moved a participant into or out of it (reportedMatchId names the reported match; one match.updated per match touched, in the same revision). The state after, and the status before.',
    details: object({
      matchId: id,
      status: { enum: [...MATCH_STATUSES] },
      previousStatus: { enum: [...MATCH_STATUSES] },
      scoreA: { type: ['integer', 'null'] },
      scoreB: { type: ['integer', 'null'] },
      forfeit: { enum: ['a', 'b', null] },
      participantAId: nullableId,
      participantBId: nullableId,
      opponents: {
        type: ['array', 'null'],
        description: 'Free-for-all matches: every opponent with its place and points (null until placed); null for duels.',
        items: object({ participantId: id, place: { type: ['integer', 'null'] }, points: { type: ['integer', 'null'] } }),
      },
      reportedMatchId: id,
    }),
  }),
  eventScoped({
    name: 'broadcast.updated',
    description: "The event's broadcast configuration was replaced (the configuration after).",
    details: object({
      streamUrl: nullableId,
      youtubeUrl: nullableId,
      overlayTheme: id,
      primaryColor: nullableId,
      delaySeconds: { type: 'integer' },
      showScores: { type: 'boolean' },
    }),
  }),
  eventScoped({
    name: 'playday.updated',
    description: "A playday's live match or overlay score changed (the state after).",
    details: object({ playdayId: id, liveMatchId: nullableId, overlayScoreA: { type: ['integer', 'null'] }, overlayScoreB: { type: ['integer', 'null'] } }),
  }),
  // Organiser writes.
  eventScoped({
    name: 'event.created',
    description: 'A draft event was created in the organisation (revision 1).',
    details: object({ name: id, slug: id, state: { const: 'draft' }, visibility: { enum: ['public', 'unlisted', 'private'] } }),
  }),
  eventScoped({
    name: 'event.updated',
    description:
      "The event's name, slug, description, game, schedule, time zone, visibility or branding changed (fields names which); or its state moved with its matches (fields [\"state\"], with state and previousState): live at its first live or completed match, completed when its last stage completed, live again when a correction reopened one.",
    details: object({ fields: { type: 'array', items: id }, state: { enum: ['live', 'completed'] }, previousState: { type: 'string' } }, ['fields']),
  }),
  eventScoped({
    name: 'stage.completed',
    description: 'The last match of a stage was completed (a swiss stage: of its last round); the stage reads completed.',
    details: object({ stageId: id, format: id }),
  }),
  eventScoped({
    name: 'stage.round_paired',
    description: 'A swiss round was completed and the next one paired (in the same transaction as the last report of the round): its matches are in GET …/stages/{stageId}/matches.',
    details: object({ stageId: id, groupId: nullableId, roundNumber: { type: 'integer' }, matchCount: { type: 'integer' } }),
  }),
  eventScoped({
    name: 'standings.updated',
    description:
      "The standings of a stage (or of one group of it) moved: written by a stage start, a result, a correction or a standing adjustment, in the same transaction. participantIds names the rows that changed; GET …/stages/{stageId}/standings (groupId) reads the table.",
    details: object({ stageId: id, groupId: nullableId, participantIds: { type: 'array', items: id } }),
  }),
  eventScoped({
    name: 'stage.reopened',
    description: 'A correction gave a completed stage a match to play again (a grand-final reset now needed); the stage reads running.',
    details: object({ stageId: id, format: id }),
  }),
  eventScoped({
    name: 'participant.created',
    description: 'A team was registered in the event (status registered): by the organiser, or by accepting its invitation (invitationId).',
    details: object({ participantId: id, teamId: id, status: { const: 'registered' }, groupId: nullableId, invitationId: nullableId }),
  }),
  eventScoped({
    name: 'invitation.accepted',
    description: "The invited team accepted: it takes part as participantId (a participant.created of the same revision goes with it).",
    details: object({ invitationId: id, teamId: id, participantId: id, stageId: nullableId, groupId: nullableId }),
  }),
  eventScoped({
    name: 'invitation.declined',
    description: 'The invited team declined the invitation.',
    details: object({ invitationId: id, teamId: id }),
  }),
  eventScoped({
    name: 'maps.updated',
    audience: 'platform',
    description:
      'The platform operator added or renamed maps (reference data). Not tied to an organisation: delivered to every application with an active installation, through its first one.',
    details: object({ source: id, created: { type: 'array', items: id }, updated: { type: 'array', items: id } }),
  }),
  eventScoped({
    name: 'esports.imported',
    audience: 'esports_data',
    description:
      'Published esports data changed through an import. Not tied to an organisation: delivered to applications whose owner holds the esports_data entitlement.',
    details: object({
      source: id,
      created: { type: 'integer' },
      updated: { type: 'integer' },
      unchanged: { type: 'integer' },
      counts: { type: 'object', additionalProperties: { type: 'integer' } },
    }),
  }),
  eventScoped({
    name: 'chat.reaction_added',
    description: "An application added its reaction to a match chat message (resourceType chat_message; the event's revision does not move).",
    details: object({ matchId: id, messageId: id, emoji: id, messageRevision: { type: 'integer' } }),
  }),
  eventScoped({
    name: 'chat.reaction_removed',
    description: 'An application removed its reaction from a match chat message.',
    details: object({ matchId: id, messageId: id, emoji: id, messageRevision: { type: 'integer' } }),
  }),
  ...(
    [
      ['created', 'A user who manages the application’s owner offered it to another owner.'],
      ['accepted', 'A user who manages the new owner accepted the transfer: the application now belongs to toOwner.'],
      ['declined', 'A user who manages the new owner declined the transfer.'],
      ['cancelled', 'The sender withdrew the transfer.'],
    ] as const
  ).map(([status, description]) => ({
    name: `application.owner_transfer.${status}` as const,
    audience: 'application' as const,
    description: `${description} resourceType is application and resourceId the application; delivered to that application’s own endpoints, through its first active installation.`,
    details: object({
      transferId: id,
      status: { const: status === 'created' ? 'pending' : status },
      fromOwner: object({ type: id, id }),
      toOwner: object({ type: id, id }),
      expiresAt: { type: 'string', format: 'date-time' },
    }),
  })),
  eventScoped({
    name: 'webhook.test',
    audience: 'endpoint',
    description: 'Sent by POST …/webhook-endpoints/{endpointId}/test to that endpoint alone, whatever it subscribes to.',
    details: object({ endpointId: id, message: id }),
  }),
] as const satisfies readonly ChangeTypeSpec[];

/** A type of change (or of webhook delivery: webhook.test). */
export type ChangeType = (typeof CHANGE_TYPES)[number]['name'];

export const CHANGE_TYPE_NAMES: readonly string[] = CHANGE_TYPES.map((spec) => spec.name);

/** The types of an audience, for routing. */
export const typesFor = (audience: ChangeAudience): ChangeType[] => CHANGE_TYPES.filter((spec) => spec.audience === audience).map((spec) => spec.name);

/** The schema of a whole delivery body of this type. */
export function payloadSchema(type: ChangeTypeSpec): JsonSchema {
  return object({
    type: { const: type.name },
    timestamp: { type: 'string', format: 'date-time' },
    data: object({
      changeId: { type: 'string', description: 'The change this delivery carries (the delivery’s eventId).' },
      organisationId: nullableId,
      eventId: nullableId,
      resourceType: id,
      resourceId: id,
      revision: { type: ['integer', 'null'], description: "The event's revision after the change." },
      details: type.details,
    }),
  });
}
