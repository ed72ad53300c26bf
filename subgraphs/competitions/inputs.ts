// Request bodies of the competition writes, each defined once: the REST facade validates bodies with
// these schemas, OpenAPI documents them, the GraphQL input types are generated from them
// (platform/graphql/zod-graphql.ts) and GraphQL inputs are validated with them in the subgraph, so every way in
// answers the same validation_failed details.
import { MATCH_STATUSES } from '../../platform/domain/competition-vocabulary.ts';
import { z } from 'zod';
import { isoTimestamp } from '../../platform/api/validation.ts';
import { graphql } from '../../platform/graphql/zod-graphql.ts';
import { EVENT_VISIBILITIES } from '../../platform/domain/competition-vocabulary.ts';
import { playsGroups } from './tournament/generate.ts';
import { STAGE_FORMATS } from './tournament/types.ts';

const id = z.string().min(1).max(128).register(graphql, { name: 'ID' });
/** An enum of the API, named for GraphQL. */
const named = <T extends readonly [string, ...string[]]>(name: string, values: T, description: string) =>
  z.enum(values).describe(description).register(graphql, { name });
const name = z.string().trim().min(1).max(100);

export const BEST_OF = [1, 2, 3, 5, 7] as const;
export { MATCH_STATUSES };
export const STAGE_STATUSES = ['pending', 'running', 'completed'] as const;
export const PARTICIPANT_STATUSES = ['registered', 'checked_in', 'confirmed', 'disqualified', 'withdrawn'] as const;
export const LINEUP_ROLES = ['captain', 'player', 'substitute', 'coach'] as const;
export const STAFF_ROLES = ['caster', 'observer', 'producer', 'admin', 'referee'] as const;
export const VETO_ACTIONS = ['ban', 'pick', 'decider'] as const;

const bestOf = z.literal(BEST_OF).describe('1, 2, 3, 5 or 7');
const timestamp = isoTimestamp;

/** A body's startsAt and endsAt, both sent: the end must not come before the start. */
function endsNotBeforeStart(value: { startsAt?: string | null; endsAt?: string | null }, ctx: z.RefinementCtx) {
  if (value.startsAt && value.endsAt && Date.parse(value.endsAt) < Date.parse(value.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must not be before startsAt' });
  }
}

/** A team and, optionally, the stage and group it is meant for (an invitation's, a registration's). */
const teamPlacement = z.object({
  teamId: id,
  stageId: id.nullish().describe('A stage of the event; needed with groupId.'),
  groupId: id.nullish().describe("A group of stageId: recorded as the participant's selected group."),
});
function groupNeedsStage(value: { stageId?: string | null; groupId?: string | null }, ctx: z.RefinementCtx) {
  if (value.groupId && !value.stageId) ctx.addIssue({ code: 'custom', path: ['stageId'], message: 'required with groupId' });
}

export const publishInput = z.object({}).strict().meta({ id: 'PublishEventRequest' });

export const vetoInput = z
  .object({
    mapPool: z
      .array(id)
      .min(1)
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, 'map ids must be unique')
      .nullish()
      .describe('Replaces the event map pool (map ids, in order); the current pool when omitted.'),
    configurations: z
      .array(
        z
          .object({
            bestOf,
            steps: z
              .array(
                z
                  .object({ action: named('VetoAction', VETO_ACTIONS, 'A veto step.'), team: named('VetoTeam', ['a', 'b'], 'The side that makes a veto step.').nullable().optional() })
                  .strict()
                  .register(graphql, { name: 'VetoStepInput' }),
              )
              .max(40)
              .describe('Veto steps in order; normalised to the size of the map pool (see the docs).'),
          })
          .strict()
          .register(graphql, { name: 'VetoConfigurationInput' }),
      )
      .max(5)
      .refine((configs) => new Set(configs.map((c) => c.bestOf)).size === configs.length, 'one configuration per bestOf'),
  })
  .strict()
  .meta({ id: 'VetoSettingsRequest' });

export const stageInput = z
  .object({
    name,
    format: named('StageFormat', STAGE_FORMATS, 'How a stage is played.'),
    bestOf,
    groups: z.array(z.object({ name }).strict().register(graphql, { name: 'StageGroupInput' })).max(64).nullish().describe('Only for group formats (round_robin, swiss, ffa): each group is played separately.'),
    startsAt: timestamp.nullish().describe('ISO 8601'),
    endsAt: timestamp.nullish().describe('ISO 8601'),
    settings: z
      .record(z.string(), z.unknown())
      .nullish()
      .describe(
        'Format settings (docs/tournaments.md): seeding (registration, random, manual, previous_stage), qualifiers; single_elimination thirdPlaceMatch; double_elimination grandFinal (simple, double, none); round_robin and league legs (1, 2); swiss rounds; points {win, draw, loss}; tiebreakers; ffa participantsPerMatch, pointsByPlace. A setting that does not apply to the format answers 400 naming settings.<name>.',
      ),
  })
  .strict()
  .superRefine((stage, ctx) => {
    // Elimination brackets and a league (one table over the whole stage) have no groups.
    if (stage.groups?.length && !playsGroups(stage.format)) {
      ctx.addIssue({ code: 'custom', path: ['groups'], message: `a ${stage.format} stage has no groups` });
    }
    endsNotBeforeStart(stage, ctx);
  })
  .meta({ id: 'CreateStageRequest' });

export const stageSeedingInput = z
  .object({
    participantIds: z.array(id).min(1).max(1024).nullish().describe('Every eligible participant of the stage, seed 1 first.'),
    groups: z
      .record(id, z.array(id).max(1024))
      .nullish()
      .describe('Group stages: every group of the stage (by id) with its participants, best seed first; seeds run through the groups in group order.'),
  })
  .strict()
  .superRefine((seeding, ctx) => {
    if (!seeding.participantIds === !seeding.groups) ctx.addIssue({ code: 'custom', path: ['participantIds'], message: 'send exactly one of participantIds and groups' });
  })
  .meta({ id: 'StageSeedingRequest' });

export const invitationInput = teamPlacement
  .extend({ message: z.string().max(1000).nullish() })
  .strict()
  .superRefine(groupNeedsStage)
  .meta({ id: 'CreateInvitationRequest' });

export const standingAdjustmentInput = z
  .object({
    participantId: id,
    stageId: id,
    groupId: id.nullish(),
    points: z.number().int().min(-1000).max(1000).refine((points) => points !== 0, 'must not be 0'),
    reason: z.string().max(500).nullish(),
  })
  .strict()
  .meta({ id: 'CreateStandingAdjustmentRequest' });

export const participantChangeInput = z
  .discriminatedUnion('action', [
    z.object({ action: z.literal('status'), status: named('ParticipantStatus', PARTICIPANT_STATUSES, 'Registration status.') }).strict(),
    z
      .object({
        action: z.literal('selected_groups'),
        groupIds: z.array(id).max(16).refine((ids) => new Set(ids).size === ids.length, 'group ids must be unique'),
      })
      .strict(),
    z
      .object({
        action: z.literal('signup_answers'),
        answers: z
          .record(z.string().min(1).max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
          .refine((answers) => Object.keys(answers).length <= 50, 'at most 50 answers')
          .describe('Replaces all signup answers.'),
      })
      .strict(),
  ])
  .meta({ id: 'UpdateParticipantRequest' })
  .register(graphql, { name: 'UpdateParticipantInput', discriminatorEnum: 'ParticipantAction' });

export const lineupInput = z
  .object({
    operation: named('LineupOperation', ['set_role', 'add_member', 'remove_member'], 'A lineup change.'),
    userId: id,
    role: named('LineupRole', LINEUP_ROLES, 'A lineup role.').nullish(),
    scope: named('LineupScope', ['event', 'team'], 'event: this registration only; team: every open registration of the team in this organisation.'),
  })
  .strict()
  .superRefine((change, ctx) => {
    if (change.operation !== 'remove_member' && !change.role) ctx.addIssue({ code: 'custom', path: ['role'], message: `required for ${change.operation}` });
    if (change.operation === 'remove_member' && change.role) ctx.addIssue({ code: 'custom', path: ['role'], message: 'not allowed for remove_member' });
  })
  .meta({ id: 'LineupChangeRequest' });

export const staffInput = z
  .object({
    staff: z
      .array(z.object({ userId: id, role: named('StaffRole', STAFF_ROLES, 'A playday staff role.') }).strict().register(graphql, { name: 'StaffMemberInput' }))
      .max(50)
      .refine((staff) => new Set(staff.map((s) => `${s.userId}|${s.role}`)).size === staff.length, 'a user appears once per role'),
  })
  .strict()
  .meta({ id: 'PlaydayStaffRequest' });

export const apiKeyCreateInput = z
  .object({ name: z.string().trim().min(1).max(100).describe('What the key is for, e.g. "Stream overlay".') })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });

/** The longest an overlay token may live: a broadcast weekend, a month at most. */
export const OVERLAY_TOKEN_MAX_SECONDS = 30 * 86_400;

export const overlayTokenCreateInput = z
  .object({
    eventId: z.string().min(1).max(100).describe('The one event the token reads (v1 event routes and the gateway).'),
    label: z.string().trim().min(1).max(100).describe('What the token is for, e.g. "Main stage scoreboard".'),
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(OVERLAY_TOKEN_MAX_SECONDS)
      .describe('Seconds until the token stops working (60 s to 30 days); it cannot be extended, issue another.'),
  })
  .strict()
  .meta({ id: 'CreateOverlayTokenRequest' });

export const apiKeyRotateInput = z
  .object({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional()
      .describe('How long the old key keeps working (0–604800 s); 0 or absent: it stops at once.'),
  })
  .strict()
  .meta({ id: 'RotateApiKeyRequest' });

// ── Live writes: what overlays follow ────────────────────────────────────────
const score = z.number().int().min(0).max(999);
const url = z.url({ protocol: /^https?$/ }).max(500);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb');

// ── Organiser writes: creating and changing events, registering teams ───────
/** Columns of a new event that no request sets (docs/competitions.md#organiser-writes). */
export const NEW_EVENT_DEFAULTS = { type: 'cup', platform: 'pc', currency: 'EUR', region: null, timezone: 'UTC', visibility: 'private', state: 'draft' } as const;
export const SLUG_MAX = 80;

const IANA_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
/** An IANA time zone as the runtime knows it, spelt exactly (Europe/Berlin, not europe/berlin). */
export function isTimeZone(value: string): boolean {
  if (IANA_ZONES.has(value)) return true;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone === value;
  } catch {
    return false;
  }
}

const eventName = z.string().trim().min(1).max(100);
const timeZone = z.string().max(64).refine(isTimeZone, 'must be an IANA time zone, e.g. Europe/Berlin');
const slug = z
  .string()
  .max(SLUG_MAX)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits joined by single hyphens')
  .describe('Unique in the organisation.');
const visibility = named('EventVisibility', EVENT_VISIBILITIES, 'Who may see an event.');
const game = z.string().trim().min(1).max(50);
const description = z.string().max(5000);

export const createEventInput = z
  .object({
    name: eventName,
    slug: slug.nullish().describe('Unique in the organisation; derived from the name when absent (with -2, -3, … when taken).'),
    game: game.nullish().describe('e.g. cs2'),
    timezone: timeZone.nullish().describe('IANA time zone the schedule is planned in; default UTC.'),
    startsAt: timestamp.nullish().describe('ISO 8601'),
    endsAt: timestamp.nullish().describe('ISO 8601, not before startsAt'),
    visibility: visibility.nullish().describe('Default private.'),
  })
  .strict()
  .superRefine(endsNotBeforeStart)
  .meta({ id: 'CreateEventRequest' });

/**
 * Absent keeps a field; null clears the optional ones (name, slug, visibility and timezone cannot be
 * cleared). The dates are checked in updateEvent's plan, against the stored ones where one is absent.
 */
export const updateEventInput = z
  .object({
    name: eventName.optional(),
    slug: slug.optional(),
    description: description.nullish(),
    game: game.nullish(),
    timezone: timeZone.optional(),
    startsAt: timestamp.nullish().describe('ISO 8601; null clears it.'),
    endsAt: timestamp.nullish().describe('ISO 8601, not before startsAt; null clears it.'),
    visibility: visibility.optional(),
    logoUrl: url.nullish(),
    bannerUrl: url.nullish(),
    primaryColor: color.nullish().describe('#rrggbb, stored in lower case'),
    secondaryColor: color.nullish().describe('#rrggbb, stored in lower case'),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'send at least one field')
  .meta({ id: 'UpdateEventRequest' });

export const participantInput = teamPlacement.strict().superRefine(groupNeedsStage)
  .meta({ id: 'CreateParticipantRequest' });
const side = named('MatchSide', ['a', 'b'], 'A side of a match.');

export const matchReportInput = z
  .object({
    status: named('MatchStatus', MATCH_STATUSES, 'A match status.').optional(),
    scheduledAt: timestamp.nullish().describe('When the match is planned; null clears it.'),
    scoreA: score.nullish(),
    scoreB: score.nullish(),
    maps: z
      .array(
        z
          .object({ mapId: id, scoreA: score.nullish(), scoreB: score.nullish(), winner: side.nullish() })
          .strict()
          .register(graphql, { name: 'MatchMapInput' }),
      )
      .max(7)
      .optional()
      .describe('Replaces the per-map results, in play order (at most the match best-of).'),
    isFreeWin: z.boolean().optional().describe('Matches not generated by a stage start: the match was decided by a forfeit, the side with the lower score forfeited. Generated matches take forfeit instead.'),
    forfeit: side
      .nullish()
      .describe('The side that forfeited: the other side wins whatever the scores, and the match is completed (scores optional). null: decided by the scores again.'),
    placements: z
      .array(
        z
          .object({ participantId: id, place: z.number().int().min(1).max(256).describe('1 for the winner; tied opponents share a place and the next place skips (1, 2, 2, 4).') })
          .strict()
          .register(graphql, { name: 'FfaPlacementInput' }),
      )
      .min(1)
      .max(256)
      .optional()
      .describe("Free-for-all matches: every opponent's place, each exactly once; completes the match and gives each opponent the points of its place (the stage's pointsByPlace)."),
    streamUrl: url.nullish().describe("This match's stream; null: the event's broadcast stream."),
  })
  .strict()
  .refine((report) => Object.keys(report).length > 0, 'send at least one field')
  .meta({
    id: 'MatchReportRequest',
    examples: [
      { status: 'completed', scoreA: 2, scoreB: 1, maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 9, winner: 'a' }] },
      { forfeit: 'b' },
      { placements: [{ participantId: 'par_alpha', place: 1 }, { participantId: 'par_bravo', place: 2 }, { participantId: 'par_charlie', place: 2 }, { participantId: 'par_delta', place: 4 }] },
    ],
  });

export const broadcastInput = z
  .object({
    streamUrl: url.nullish(),
    youtubeUrl: url.nullish(),
    overlayTheme: z.string().trim().min(1).max(50).optional().describe('Default "default".'),
    primaryColor: color.nullish(),
    delaySeconds: z.number().int().min(0).max(600).optional().describe('Stream delay the overlay waits for; default 0.'),
    showScores: z.boolean().optional().describe('Default true.'),
  })
  .strict()
  .meta({ id: 'BroadcastRequest' });

export const playdayUpdateInput = z
  .object({
    liveMatchId: id.nullish().describe('The match on air (a match of this event); null: none.'),
    overlayScoreA: score.nullish(),
    overlayScoreB: score.nullish(),
  })
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'send at least one field')
  .meta({ id: 'PlaydayUpdateRequest' });
