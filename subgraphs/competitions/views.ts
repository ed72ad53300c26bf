// Competition reads (organisations, users, events, stages, groups, rounds, participants, invitations,
// broadcasts, playdays, standings, maps, player statistics, the result of an event write), organisation API keys, overlay tokens and match chat messages as read: the REST responses and OpenAPI take these
// schemas, and the GraphQL object types take their fields from them (platform/graphql/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString, dateTimeString } from '../../platform/graphql/zod-graphql.ts';
import { BRACKET_ORDER, EVENT_STATES, EVENT_VISIBILITIES, PLAYER_RATES, PLAYER_TOTALS, STAGE_FORMATS, TIEBREAKERS } from '../../platform/domain/competition-vocabulary.ts';
import { MATCH_STATUSES, PARTICIPANT_STATUSES, STAGE_STATUSES } from './inputs.ts';
import { resolvedSettingsSchema, stageSeedingSchema } from './tournament/views.ts';

export const mapView = z
  .object({ id: idString, name: z.string(), imageUrl: z.string().nullable() })
  .strict()
  .describe('A map of the game: reference data named by map pools, vetoes and match results.')
  .meta({ id: 'V1Map' });

export const playerStatisticsView = z
  .object({
    userId: idString.nullable(),
    profileId: idString,
    displayName: z.string(),
    ...(Object.fromEntries(PLAYER_TOTALS.map((name) => [name, z.number().int()])) as Record<(typeof PLAYER_TOTALS)[number], z.ZodNumber>),
    ...(Object.fromEntries(PLAYER_RATES.map((name) => [name, z.number()])) as Record<(typeof PLAYER_RATES)[number], z.ZodNumber>),
  })
  .strict()
  .describe("A player's totals and rates over the matches in scope (formulas in docs/competitions.md).")
  .meta({ id: 'PlayerStatistics' });

export const writeResultView = z
  .object({
    resourceId: idString,
    revision: z.number().int().describe('The event revision after the change (its ETag is "<revision>").'),
    updated: z.boolean().describe('False when the write changed nothing (the revision stayed).'),
  })
  .strict()
  .describe('The result of a write to an event: the resource created or changed and the event revision after it.')
  .meta({ id: 'WriteResult' });

export const apiKeyView = z
  .object({
    id: idString,
    organisationId: idString,
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it.'),
    createdAt: dateTimeString,
    lastUsedAt: dateTimeString.nullable().describe('To the minute.'),
    expiresAt: dateTimeString.nullable().describe('Set by a rotation with a grace period.'),
    revokedAt: dateTimeString.nullable(),
  })
  .strict()
  .describe('An organisation API key for the v1 read API: never the key itself, which is shown once.')
  .meta({ id: 'OrganisationApiKey' });

export const issuedApiKeyView = z
  .object({ apiKey: apiKeyView, key: z.string().describe('The key itself, for x-api-key: shown only in this answer.') })
  .strict()
  .meta({ id: 'IssuedApiKey' });

export const overlayTokenView = z
  .object({
    id: idString,
    organisationId: idString,
    eventId: idString.describe('The one event the token reads.'),
    label: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognise it.'),
    createdAt: dateTimeString,
    expiresAt: dateTimeString.describe('When it stops working (at most 30 days after it was issued).'),
    lastUsedAt: dateTimeString.nullable().describe('To the minute.'),
    revokedAt: dateTimeString.nullable(),
  })
  .strict()
  .describe('An overlay token: reads one event through v1 (x-overlay-token) and the gateway, never anything else. Never the token itself, which is shown once.')
  .meta({ id: 'OverlayToken' });

export const issuedOverlayTokenView = z
  .object({ overlayToken: overlayTokenView, token: z.string().describe('The token itself, for x-overlay-token or an overlay URL: shown only in this answer.') })
  .strict()
  .meta({ id: 'IssuedOverlayToken' });

export const chatActorView = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('user'), userId: idString }).strict().meta({ id: 'ChatUserActor' }),
    z.object({ type: z.literal('application'), applicationId: idString }).strict().meta({ id: 'ChatApplicationActor' }),
    z.object({ type: z.literal('system') }).strict().meta({ id: 'ChatSystemActor' }),
    z.object({ type: z.literal('moderator'), userId: idString }).strict().meta({ id: 'ChatModeratorActor' }),
  ])
  .describe('Who wrote it: a participant (user), an application, the platform (system) or a moderator.');

const chatReactionView = z
  .object({
    emoji: z.string(),
    count: z.number().int(),
    reactedByApplication: z.boolean().describe('Whether the calling application is among those who reacted so.'),
  })
  .strict()
  .meta({ id: 'ChatReaction' })
  .register(graphql, { name: 'ChatReaction' });

export const chatMessageView = z
  .object({
    id: idString,
    matchId: idString,
    type: z.string().describe('text, system or announcement'),
    actor: chatActorView,
    content: z.string().nullable().describe('null when deleted'),
    replyToId: idString.nullable(),
    senderSide: z.enum(['a', 'b']).register(graphql, { name: 'MatchSide' }).nullable().describe('The side of the match the writer plays for; null for others.'),
    visibility: z.enum(['public', 'teams', 'staff']).register(graphql, { name: 'ChatVisibility' }),
    reactions: z.array(chatReactionView).describe('Per emoji, in the order each was first used; empty when deleted.'),
    deleted: z.boolean(),
    revision: z.number().int().describe('Its ETag is "<revision>": the If-Match of a reaction write.'),
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
  })
  .strict()
  .describe('A message of a match chat. A deleted one keeps its place, without content or reactions.')
  .meta({ id: 'ChatMessage' });

// Organisations, users, events and what an event holds, as REST answers them (v2 and the v1 read API).
const EVENT_VISIBILITY = z.enum(EVENT_VISIBILITIES).register(graphql, { name: 'EventVisibility' });
const EVENT_STATE = z.enum(EVENT_STATES).register(graphql, { name: 'EventState' });
const STAGE_FORMAT = z.enum(STAGE_FORMATS).register(graphql, { name: 'StageFormat' });
const STAGE_STATUS = z.enum(STAGE_STATUSES).register(graphql, { name: 'StageStatus' });
const BRACKET = z.enum(BRACKET_ORDER).register(graphql, { name: 'Bracket' });
const PARTICIPANT_STATUS = z.enum(PARTICIPANT_STATUSES).register(graphql, { name: 'ParticipantStatus' });

export const organisationView = z
  .object({ id: idString, name: z.string(), slug: z.string(), createdAt: dateTimeString })
  .strict()
  .describe('An organisation that runs events.')
  .meta({ id: 'V1Organisation' });

export const userView = z
  .object({
    id: idString,
    displayName: z.string(),
    username: z.string().nullable(),
    imageUrl: z.string().nullable(),
    nationality: z.string().nullable(),
    primaryPlatform: z.string().nullable(),
    platforms: z.array(z.string()),
  })
  .strict()
  .describe('A user profile: public fields only.')
  .meta({ id: 'User' });

/** An event as the v2 API lists it. */
export const eventView = z
  .object({
    id: idString,
    organisationId: idString,
    name: z.string(),
    slug: z.string(),
    type: z.string(),
    visibility: EVENT_VISIBILITY,
    state: EVENT_STATE,
    platform: z.string(),
    currency: z.string(),
    region: z.string().nullable(),
    bannerUrl: z.string().nullable(),
    description: z.string().nullable(),
    firstStageId: idString.nullable(),
    completedAt: dateTimeString.nullable(),
    revision: z.number().int(),
  })
  .strict()
  .describe('An event of an organisation.')
  .meta({ id: 'OrganisationEvent' });

/** The v2 event with what viewers and overlays show: the game, the schedule and the branding. */
export const eventDetailView = eventView
  .extend({
    game: z.string().nullable().describe('The game played, e.g. cs2.'),
    timezone: z.string().describe('The IANA time zone the schedule is planned in, e.g. Europe/Berlin.'),
    startsAt: dateTimeString.nullable(),
    endsAt: dateTimeString.nullable(),
    logoUrl: z.string().nullable(),
    primaryColor: z.string().nullable().describe('Brand colour as #rrggbb.'),
    secondaryColor: z.string().nullable().describe('Brand colour as #rrggbb.'),
  })
  .strict()
  .meta({ id: 'V1Event' });

export const stageView = z
  .object({
    id: idString,
    eventId: idString,
    name: z.string(),
    format: STAGE_FORMAT,
    bestOf: z.number().int(),
    position: z.number().int(),
    status: STAGE_STATUS,
    settings: resolvedSettingsSchema.meta({ id: 'StageSettings' }),
    seeding: stageSeedingSchema
      .nullable()
      .describe('The manual order set before start, then the seeding frozen at start; null while none is set.')
      .meta({ id: 'StageSeeding' }),
  })
  .strict()
  .meta({ id: 'V1Stage' });

export const groupView = z
  .object({ id: idString, eventId: idString, stageId: idString, name: z.string(), position: z.number().int() })
  .strict()
  .describe('A group of a stage (round robin, swiss or ffa formats, each played separately).')
  .meta({ id: 'V1Group' });

export const roundView = z
  .object({
    id: idString,
    eventId: idString,
    stageId: idString,
    groupId: idString.nullable(),
    number: z.number().int().describe('From 1, per group and bracket.'),
    name: z.string(),
    bracket: BRACKET.nullable().describe('null outside elimination brackets.'),
  })
  .strict()
  .describe('A round of a stage, or of one of its groups.')
  .meta({ id: 'V1Round' });

export const participantView = z
  .object({
    id: idString,
    eventId: idString,
    teamId: idString,
    name: z.string().describe("The team's name."),
    logoUrl: z.string().nullable().describe("The team's logo."),
    status: PARTICIPANT_STATUS,
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
    lineup: z.array(z.object({ userId: idString, role: z.string(), displayName: z.string() }).strict()),
  })
  .strict()
  .describe('A team taking part in an event.')
  .meta({ id: 'V1Participant' });

export const invitationView = z
  .object({ id: idString, eventId: idString, teamId: idString, stageId: idString.nullable(), groupId: idString.nullable(), status: z.string(), createdAt: dateTimeString })
  .strict()
  .describe('An invitation of a team to an event, a stage or a group.')
  .meta({ id: 'V1Invitation' });

export const broadcastView = z
  .object({
    eventId: idString,
    streamUrl: z.string().nullable(),
    youtubeUrl: z.string().nullable(),
    overlayTheme: z.string(),
    primaryColor: z.string().nullable(),
    delaySeconds: z.number().int(),
    showScores: z.boolean(),
    updatedAt: dateTimeString,
  })
  .strict()
  .describe("An event's broadcast configuration, for overlays.")
  .meta({ id: 'V1Broadcast' });

export const playdayView = z
  .object({
    id: idString,
    eventId: idString,
    name: z.string(),
    date: dateTimeString,
    liveMatchId: idString.nullable(),
    overlayScoreA: z.number().int().nullable(),
    overlayScoreB: z.number().int().nullable(),
    staff: z.array(z.object({ userId: idString, role: z.string() }).strict()),
  })
  .strict()
  .describe('A broadcast day of an event: its live match, the score shown on the overlay, its staff.')
  .meta({ id: 'V1Playday' });

const MATCH_SIDE = z.enum(['a', 'b']).register(graphql, { name: 'MatchSide' });

const matchLinkView = z
  .object({ matchId: idString, slot: MATCH_SIDE })
  .strict()
  .describe('Where the winner or loser of a match goes next: a match and its slot.')
  .meta({ id: 'MatchLink' })
  .register(graphql, { name: 'MatchLink' });

// The GraphQL union SlotSource: each option is named after its GraphQL type, which selectionOf selects on.
export const slotSourceView = z
  .union([
    z.object({ type: z.literal('seed'), seed: z.number().int().describe('A seed of the stage, 1 first.') }).strict().meta({ id: 'SeedSource' }),
    z.object({ type: z.enum(['winner', 'loser']), matchId: idString }).strict().meta({ id: 'MatchSource' }),
  ])
  .meta({ id: 'SlotSource' });

export const matchOpponentView = z
  .object({
    participantId: idString,
    teamId: idString.nullable(),
    name: z.string().nullable().describe("The team's name."),
    logoUrl: z.string().nullable(),
    score: z.number().int().nullable(),
    result: z.enum(['win', 'loss', 'draw']).register(graphql, { name: 'MatchResult' }).nullable().describe('Once the match is completed.'),
    forfeit: z.boolean().describe('True when this side lost by forfeit (a free win for the other side).'),
  })
  .strict()
  .describe('One side of a match.')
  .meta({ id: 'V1MatchOpponent' });

export const matchMapView = z
  .object({ position: z.number().int(), mapId: idString, mapName: z.string(), scoreA: z.number().int().nullable(), scoreB: z.number().int().nullable(), winner: MATCH_SIDE.nullable() })
  .strict()
  .describe('A map of a match, in play order.');

export const ffaOpponentView = z
  .object({ participantId: idString, place: z.number().int().nullable().describe('Finishing place once known (1 for a free win).'), points: z.number().int().nullable() })
  .strict()
  .describe('A participant of a free-for-all match, best seed first.');

export const matchView = z
  .object({
    id: idString,
    eventId: idString,
    stageId: idString,
    groupId: idString.nullable(),
    roundId: idString.nullable(),
    status: z.enum(MATCH_STATUSES).register(graphql, { name: 'MatchStatus' }),
    bestOf: z.number().int(),
    isFreeWin: z.boolean(),
    opponentA: matchOpponentView.nullable(),
    opponentB: matchOpponentView.nullable(),
    maps: z.array(matchMapView),
    scheduledAt: dateTimeString.nullable(),
    startedAt: dateTimeString.nullable(),
    completedAt: dateTimeString.nullable(),
    streamUrl: z.string().nullable().describe("Where this match is streamed; else the event's broadcast stream."),
    updatedAt: dateTimeString,
    // What a stage start generates on each match; null on matches that were not generated.
    roundNumber: z.number().int().nullable().describe("The match's round's number (restarting per group and bracket); null without a round."),
    position: z.number().int().nullable().describe('Generated matches: 1-based position within the round.'),
    bracket: BRACKET.nullable().describe('null outside elimination brackets.'),
    winnerTo: matchLinkView.nullable().describe('Where the winner goes next.'),
    loserTo: matchLinkView.nullable().describe('Where the loser goes next (double elimination, third place match).'),
    sourceA: slotSourceView
      .nullable()
      .describe('Who fills slot a: {"type":"seed","seed":3} or {"type":"winner"|"loser","matchId"}; null: nobody (a bye) or not generated.'),
    sourceB: slotSourceView.nullable().describe('Who fills slot b, as sourceA; null: nobody (a bye) or not generated.'),
    opponents: z
      .array(ffaOpponentView)
      .nullable()
      .describe('Free-for-all matches: every participant, best seed first (opponentA and opponentB are null); null for duels.'),
  })
  .strict()
  .describe('A match of an event.')
  .meta({ id: 'V1Match' });

export const standingView = z
  .object({
    id: idString,
    eventId: idString,
    stageId: idString,
    groupId: idString.nullable(),
    participantId: idString,
    name: z.string().nullable().describe("The team's name."),
    logoUrl: z.string().nullable(),
    rank: z.number().int().describe('Tied rows share a rank (1, 2, 2, 4) only when every tiebreaker is equal.'),
    played: z.number().int(),
    wins: z.number().int(),
    draws: z.number().int(),
    losses: z.number().int(),
    points: z.number().int().describe('Adjustments included.'),
    scoreFor: z.number().int(),
    scoreAgainst: z.number().int(),
    scoreDifference: z.number().int(),
    adjustmentPoints: z.number().int().describe('Points of the standing adjustments applied (part of points).'),
    seed: z.number().int().nullable().describe("The participant's seed in the stage; null on a standing not computed from a stage the platform started."),
    tiebreakers: z
      .partialRecord(z.enum(TIEBREAKERS), z.number())
      .describe('Each of the stage\'s tiebreakers with its value, in the stage\'s order ({"points": 9, "head_to_head": 3, …}); empty for elimination stages, which rank by the round reached.'),
    qualified: z.boolean().describe("Among the first `qualifiers` of its group once the stage is completed (false before)."),
  })
  .strict()
  .describe("A participant's place in a stage or group.")
  .meta({ id: 'V1Standing' });
