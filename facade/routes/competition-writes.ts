// REST routes of the nine competition writes, the three live writes and the organiser writes
// (extensions). Each row runs a mutation of the competitions subgraph; the write's contract
// (write-contracts.ts: method, path, body, scope, If-Match, Idempotency-Key, status) gives the route
// its input, its mutation document and its variables, so a row adds only what people read.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { defineRoute, type Method, type RouteRow } from './table.ts';
import { contractOf, pathParamsOf, type WriteOperation } from '../../subgraphs/competitions/write-contracts.ts';
import { idParam, REPLAY_HEADER, replayedHeader, requestIdHeader, selectionOf } from './common.ts';
import { writeResultView as writeResult } from '../../subgraphs/competitions/views.ts';

const writeHeaders = (idempotent: boolean, ifMatch: boolean) =>
  z.object({
    ...(ifMatch
      ? { 'if-match': z.string().max(200).optional().describe('Required: the current event revision as a strong ETag in double quotes, e.g. "3". Missing → 428; stale, unquoted, weak or * → 412.') }
      : {}),
    ...(idempotent
      ? { 'idempotency-key': z.string().min(1).max(255).describe('Your unique key for this write; a retry with it replays the first result (24 h).') }
      : {}),
    'x-request-id': requestIdHeader,
  });

const WRITE_HEADERS_DOC = {
  ETag: { description: 'The event revision after the write, e.g. "4".', schema: { type: 'string' } },
  ...REPLAY_HEADER,
};

interface WriteSpec {
  /** The write: its contract (write-contracts.ts) gives the path, body, preconditions and mutation. */
  operationId: WriteOperation;
  summary: string;
  description: string;
  exampleBody?: unknown;
  tag?: string;
  exampleResult?: { resourceId: string; revision: number; updated: boolean };
  /** Who may make the write, for a write whose contract names no scope. */
  who?: string;
}

/** The mutation a write's route runs, from its contract: the same arguments as the field declares. */
function mutationOf(operation: WriteOperation): string {
  const { input, ifMatch, idempotent } = contractOf(operation);
  const variables: [string, string][] = [
    ...pathParamsOf(operation).map((name): [string, string] => [name, 'ID!']),
    ...(input ? [['input', `${input.name}!`] as [string, string]] : []),
    ...(ifMatch === false ? [] : [['ifMatch', 'String'] as [string, string]]),
    ...(idempotent ? [['idempotencyKey', 'String!'] as [string, string]] : []),
  ];
  const name = `${operation[0].toUpperCase()}${operation.slice(1)}`;
  return `mutation ${name}(${variables.map(([variable, type]) => `$${variable}: ${type}`).join(', ')}) { ${operation}(${variables
    .map(([variable]) => `${variable}: $${variable}`)
    .join(', ')}) { ${WRITE_FIELDS} } }`;
}

function writeRoute(spec: WriteSpec): RouteRow {
  const field = spec.operationId;
  const { method, path, input, scope, idempotent, status, target } = contractOf(spec.operationId);
  const ifMatch = contractOf(spec.operationId).ifMatch !== false;
  const pathParams = pathParamsOf(spec.operationId);
  const preconditions = [ifMatch ? 'If-Match' : '', idempotent ? 'Idempotency-Key' : ''].filter(Boolean).join(' and ');
  const who = scope
    ? `Scope: \`${scope}\`; the application needs an active installation on ${target === 'organisation' ? 'the organisation' : "the event's organisation"}, and a user actor the matching permission there.`
    : spec.who;
  return defineRoute({
    operationId: spec.operationId,
    method: method.toLowerCase() as Method,
    path,
    tag: spec.tag ?? 'Competition writes',
    summary: spec.summary,
    description: `${spec.description}\n\n${who} Requires ${preconditions}.`,
    security: 'bearer',
    input: {
      path: z.object(Object.fromEntries(pathParams.map((name) => [name, idParam]))),
      headers: writeHeaders(idempotent, ifMatch),
      requiredHeaders: ifMatch ? ['if-match'] : [],
      ...(input ? { body: input.schema } : {}),
    },
    operation: prepareOperation(mutationOf(spec.operationId)),
    variables: (request) => ({
      ...Object.fromEntries(pathParams.map((name) => [name, request.path[name]])),
      ...(input ? { input: request.body ?? {} } : {}),
      ...(ifMatch ? { ifMatch: request.headers['if-match'] ?? null } : {}),
      ...(idempotent ? { idempotencyKey: request.headers['idempotency-key'] } : {}),
    }),
    result: (data) => {
      const { resourceId, revision, updated } = data[field] as { resourceId: string; revision: number; updated: boolean };
      return { resourceId, revision, updated };
    },
    respond: (data) => {
      const result = data[field] as { revision: number; replayed: boolean };
      return { headers: { ETag: `"${result.revision}"`, ...replayedHeader(result) } };
    },
    documentedHeaders: WRITE_HEADERS_DOC,
    success: { status, schema: writeResult, description: status === 201 ? 'Created: resourceId is the new resource.' : 'The write result.' },
    errors: ifMatch ? [400, 401, 403, 404, 409, 412, 428, 429, 500, 503] : [400, 401, 403, 404, 409, 429, 500, 503],
    example: spec.exampleBody ? { request: JSON.stringify(spec.exampleBody), response: { data: spec.exampleResult ?? { resourceId: 'stg_…', revision: 6, updated: true } } } : undefined,
  });
}

const LIVE_TAG = 'Live writes (extension)';
const ORGANISER_TAG = 'Organiser writes (extension)';
const INVITED_PLAYER =
  'Callers: a token with a user actor who plays in the invited team (a member of the team), of an application with an active installation on that user or on the event\'s organisation (403 missing_installation). Anyone else — another user, an application actor — gets 404, as for an unknown invitation. No scope is needed.';

// replayed is not in the body: it answers the Idempotent-Replayed header.
const WRITE_FIELDS = `${selectionOf(writeResult)} replayed`;

export const competitionWriteRoutes: RouteRow[] = [
  writeRoute({
    operationId: 'publishEvent',
    summary: 'Publish an event',
    description: 'Publishes a draft event (with at least one stage): its state becomes scheduled. Any other state answers 409 conflict (not_publishable). No body.',
  }),
  writeRoute({
    operationId: 'updateVetoSettings',
    summary: 'Replace the map veto configurations',
    description: 'Replaces the veto configurations (one per best-of), normalised to the size of the map pool: picks are yours, bans are fitted, a decider closes odd best-ofs. mapPool, when given, replaces the map pool first.',
    exampleBody: { configurations: [{ bestOf: 3, steps: [{ action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] }] },
  }),
  writeRoute({
    operationId: 'createStage',
    summary: 'Add a stage',
    description: 'Adds a stage with a format, a best-of value and, for group formats, groups.',
    exampleBody: { name: 'Playoffs', format: 'single_elimination', bestOf: 3, settings: { thirdPlaceMatch: true, seeding: 'random' } },
  }),
  writeRoute({
    operationId: 'createInvitation',
    summary: 'Invite a team',
    description: 'Invites a team, optionally into a stage and a group of that stage.',
    exampleBody: { teamId: 'team_charlie', stageId: 'stg_open_groups', groupId: 'grp_open_b' },
  }),
  writeRoute({
    operationId: 'createStandingAdjustment',
    summary: 'Adjust standing points',
    description: 'Adds a points adjustment for a participant of a stage (or group) standing.',
    exampleBody: { participantId: 'par_alpha', stageId: 'stg_open_groups', groupId: 'grp_open_a', points: -3, reason: 'late check-in' },
  }),
  writeRoute({
    operationId: 'updateParticipant',
    summary: 'Change a participant',
    description: 'action selects the change: status (status), selected_groups (groupIds) or signup_answers (answers, replacing all answers).',
    exampleBody: { action: 'status', status: 'checked_in' },
  }),
  writeRoute({
    operationId: 'changeLineup',
    summary: 'Change a lineup',
    description: 'Sets a member\'s role, or adds or removes a member. scope event changes this registration; scope team every open registration of the team in events of this organisation (each changed event\'s revision moves).',
    exampleBody: { operation: 'set_role', userId: 'usr_bob', role: 'captain', scope: 'event' },
  }),
  writeRoute({
    operationId: 'deleteParticipant',
    summary: 'Remove a registration',
    description: 'Removes a registration for signup corrections, before the participant is placed into matches; afterwards 409 conflict (placed_in_matches).',
  }),
  writeRoute({
    operationId: 'replacePlaydayStaff',
    summary: 'Replace a playday staff roster',
    description: 'Replaces the whole roster with the users and roles given (an empty list clears it). Unknown users or roles answer 400.',
    exampleBody: { staff: [{ userId: 'usr_alice', role: 'producer' }, { userId: 'usr_erin', role: 'caster' }] },
  }),
  writeRoute({
    operationId: 'reportMatch',
    tag: LIVE_TAG,
    summary: 'Report a match',
    description:
      "Extension of the interface. Sets any of status, scheduledAt, scoreA, scoreB, forfeit, placements, maps (replaces the per-map results in play order, at most the best-of), isFreeWin and streamUrl; absent fields keep their value, null clears. Going live stamps startedAt, completing stamps completedAt and needs both sides placed (409 opponents_missing) and both scores or a forfeit (400). A completed match keeps its status (409 match_completed) but its result and maps can be corrected; a cancelled one no longer changes (409 match_cancelled). In a stage drawn at its start (docs/tournaments.md, Reporting results), completing a match moves its winner and loser into the matches they go to, in the same transaction and revision (one match.updated per match touched); a draw is refused outside round_robin, league and swiss (400 naming scoreB); forfeit \"a\" or \"b\" completes the match won by the other side; a free-for-all match is completed by placements (every opponent once, places 1..n, ties sharing a place), each opponent earning the points of its place; the grand-final reset of grandFinal double is cancelled when the winners-bracket champion wins the first grand final. Another winner for a completed match resets the matches its old result fed, unless one of them is live or completed (409 downstream_started, details[0].matchId naming it).",
    exampleBody: { status: 'completed', scoreA: 2, scoreB: 1, maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 9, winner: 'a' }] },
  }),
  writeRoute({
    operationId: 'replaceBroadcast',
    tag: LIVE_TAG,
    summary: "Replace the event's broadcast configuration",
    description:
      'Extension of the interface. Replaces the whole configuration (created on first use): streamUrl, youtubeUrl (http or https), overlayTheme (default "default"), primaryColor (#rrggbb), delaySeconds (0–600, default 0), showScores (default true). Absent fields take their defaults.',
    exampleBody: { streamUrl: 'https://twitch.example.test/demo-open', overlayTheme: 'dark', primaryColor: '#1f6feb', delaySeconds: 30, showScores: true },
  }),
  writeRoute({
    operationId: 'updatePlayday',
    tag: LIVE_TAG,
    summary: "Set a playday's live match and overlay score",
    description:
      'Extension of the interface. Sets any of liveMatchId (a match of this event; null: none on air), overlayScoreA and overlayScoreB; absent fields keep their value, null clears.',
    exampleBody: { liveMatchId: 'mtc_open_2', overlayScoreA: 0, overlayScoreB: 0 },
  }),
  writeRoute({
    operationId: 'createEvent',
    tag: ORGANISER_TAG,
    summary: 'Create an event',
    description:
      'Extension of the interface. Creates a draft event at revision 1 (resourceId is the event). slug: unique in the organisation; when absent it is derived from the name (spring-cup-2027), with -2, -3, … when taken; a slug sent and taken is 409 conflict (slug_taken). endsAt not before startsAt; timezone an IANA zone (default UTC); visibility default private. The other columns take their defaults: type cup, platform pc, currency EUR, no region. Change log: event.created.',
    exampleBody: { name: 'Spring Cup 2027', game: 'cs2', timezone: 'Europe/Berlin', startsAt: '2027-04-10T09:00:00Z', endsAt: '2027-04-11T20:00:00Z' },
    exampleResult: { resourceId: 'evt_…', revision: 1, updated: true },
  }),
  writeRoute({
    operationId: 'updateEvent',
    tag: ORGANISER_TAG,
    summary: 'Change an event',
    description:
      'Extension of the interface. Sets any of name, slug (409 slug_taken when another event of the organisation has it), description, game, timezone (IANA), startsAt, endsAt (the event must not end before it starts, with the stored values too), visibility, logoUrl, bannerUrl (http or https), primaryColor and secondaryColor (#rrggbb, stored in lower case). Absent fields keep their value; null clears the optional ones; {} is 400. The same values again answer updated: false. Change log: event.updated (the fields that changed).',
    exampleBody: { description: 'Sixteen teams, one weekend.', primaryColor: '#1f6feb', bannerUrl: null },
    exampleResult: { resourceId: 'evt_cup', revision: 2, updated: true },
  }),
  writeRoute({
    operationId: 'createParticipant',
    tag: ORGANISER_TAG,
    summary: 'Register a team',
    description:
      "Extension of the interface. Registers a team (status registered; the team's members, at most ten, as its lineup with their team roles). teamId must be a team (400 otherwise); stageId a stage of the event and groupId a group of that stage, recorded as the participant's selected group. A team already taking part is 409 conflict (already_participant); a completed or cancelled event 409 (event_closed). resourceId is the participant. Change log: participant.created.",
    exampleBody: { teamId: 'team_delta' },
    exampleResult: { resourceId: 'par_…', revision: 2, updated: true },
  }),
  writeRoute({
    operationId: 'acceptInvitation',
    tag: ORGANISER_TAG,
    summary: 'Accept an invitation',
    description:
      "Extension of the interface. The invited team accepts: in one transaction the invitation becomes accepted and the team is registered (as POST …/participants does) in the invitation's stage and group. resourceId is the new participant. An invitation that is not pending is 409 conflict (invitation_not_pending); a team already taking part 409 (already_participant). No body. Change log: invitation.accepted and participant.created.",
    who: INVITED_PLAYER,
  }),
  writeRoute({
    operationId: 'declineInvitation',
    tag: ORGANISER_TAG,
    summary: 'Decline an invitation',
    description:
      'Extension of the interface. The invited team declines: the invitation becomes declined. resourceId is the invitation. An invitation that is not pending is 409 conflict (invitation_not_pending). No body. Change log: invitation.declined.',
    who: INVITED_PLAYER,
  }),
  // Stage seeding and start (docs/tournaments.md).
  writeRoute({
    operationId: 'seedStage',
    tag: ORGANISER_TAG,
    summary: "Set a stage's manual seeding",
    description:
      "Sets the seeding of a pending stage by hand: participantIds lists every eligible participant of the stage (registered, checked_in or confirmed; those who chose a group of the stage when any did, else the event's), seed 1 first; a list that leaves someone out, names someone else or repeats someone answers 400 naming participantIds. Round robin stages with groups may send groups instead ({\"<groupId>\": [participantIds…]}, every group of the stage). The stage's seeding setting becomes manual. After the stage started: 409 conflict (stage_started). Change type stage.seeded.",
    exampleBody: { participantIds: ['par_delta', 'par_alpha', 'par_bravo', 'par_charlie'] },
  }),
  writeRoute({
    operationId: 'startStage',
    tag: ORGANISER_TAG,
    summary: 'Start a stage',
    description:
      "Starts a pending stage in one transaction: freezes its seeding by the stage's seeding setting (registration: registration order; random: a recorded random seed, readable on the stage; manual: the order of PUT …/seeding; previous_stage: 409 previous_stage_unavailable in this version), generates its rounds and matches (byes are completed free wins, their winner already placed in the next match), sets the stage running and moves the event revision once (one change, stage.started, with the round and match counts). 409 conflict: stage_started, stage_has_matches, too_few_participants (fewer than 2, or fewer than 2 in a group), too_many_participants (more than 1,024), too_many_matches (a round robin or league of more than 4,096 matches), seeding_missing or seeding_outdated (manual). No body.",
  }),
];
