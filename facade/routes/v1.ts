// The v1 read API: GET routes under /api/v1 authorised by an organisation API key in x-api-key (a key
// in the URL is refused). Each row runs a field under Query.apiKey of the competitions subgraph.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { conditionalList, cursorParam, ETAG_DOC, idParam, limitParam, pageMeta, requestIdHeader, revisionEtag, selectionOf } from './common.ts';
import { broadcastView, eventDetailView, groupView, invitationView, mapView, matchView, organisationView, overlayTokenView as overlayTokenSchema, participantView, playdayView, roundView, stageView, standingView, userView } from '../../subgraphs/competitions/views.ts';
import { EVENT_STATES, EVENT_VISIBILITIES } from '../../platform/domain/competition-vocabulary.ts';
import { MATCH_STATUSES, PARTICIPANT_STATUSES } from '../../subgraphs/competitions/inputs.ts';

const TAG = 'v1 read API';
const KEY =
  'Authorised by the organisation API key in the x-api-key header (missing, unknown or revoked → 401 invalid_token); a key in the URL is refused (400, key_in_url).';
const OVERLAY = 'An overlay token of this event (x-overlay-token) reads it too; for any other event it is 404.';

const headers = z.object({
  'x-api-key': z.string().max(200).optional().describe('Required: the organisation API key.'),
  'x-request-id': requestIdHeader,
});

const V1_EVENT_FIELDS = selectionOf(eventDetailView);


const conditionalHeaders = headers.extend({ 'if-none-match': z.string().max(500).optional() });

interface EventChildSpec {
  operationId: string;
  path: string;
  summary: string;
  description: string;
  /** The Event field read, with its arguments as GraphQL text, e.g. 'stagePage(cursor: $cursor, limit: $limit)'. */
  field: string;
  /** The operation's variables besides $eventId, $view and $ifNoneMatch, e.g. '$cursor: String, $limit: Int'. */
  declarations?: string;
  item: z.ZodObject;
  list: boolean;
  path_params?: string[];
  query?: z.ZodObject;
  example: { request: string; response: unknown };
}

/**
 * A v1 route reading inside an event: Query.apiKey.eventView checks the event belongs to the key's
 * organisation (else 404) and answers its ETag (revision + view); a matching If-None-Match is a 304
 * that read one row.
 */
function eventChildRoute(spec: EventChildSpec): RouteRow {
  const name = spec.field.replace(/\(.*$/, '');
  const selection = spec.list ? `data { ${selectionOf(spec.item)} } meta { ${selectionOf(pageMeta)} }` : selectionOf(spec.item);
  const pathParams = ['eventId', ...(spec.path_params ?? [])];
  const view = (data: Record<string, unknown>) => apiKey(data).eventView as { etag: string; notModified: boolean; event: Record<string, unknown> | null };
  return defineRoute({
    operationId: spec.operationId,
    method: 'get',
    path: spec.path,
    tag: TAG,
    summary: spec.summary,
    description: `${spec.description} Strong ETag from the event's revision: If-None-Match answers 304 while nothing in the event changed. Another organisation's event is 404. ${KEY} ${OVERLAY}`,
    security: 'apiKey',
    overlay: true,
    input: { path: z.object(Object.fromEntries(pathParams.map((param) => [param, idParam]))), ...(spec.query ? { query: spec.query } : {}), headers: conditionalHeaders },
    operation: prepareOperation(
      `query ${spec.operationId[0].toUpperCase()}${spec.operationId.slice(1)}($eventId: ID!, $view: String!, $ifNoneMatch: String${spec.declarations ? `, ${spec.declarations}` : ''}) {
        apiKey { eventView(id: $eventId, view: $view, ifNoneMatch: $ifNoneMatch) { etag notModified event { ${spec.field} { ${selection} } } } }
      }`,
    ),
    variables: ({ path, query, headers: h }) => ({
      ...path,
      ...query,
      view: `${spec.path}?${JSON.stringify([path, Object.entries(query).sort()])}`,
      ifNoneMatch: h['if-none-match'] ?? null,
    }),
    result: (data) => view(data).event?.[name],
    respond: (data) => ({ headers: { ETag: view(data).etag }, notModified: view(data).notModified }),
    ...(spec.list ? { format: 'list' as const } : {}),
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: spec.item, description: spec.list ? 'A page.' : 'The resource.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: spec.example,
  });
}

const pageQuery = (filters: Record<string, z.ZodType> = {}) => z.object({ cursor: cursorParam, limit: limitParam, ...filters }).strict();
const PAGE_VARS = '$cursor: String, $limit: Int';

// Checked against the view at compile time: a field added to matchView must be added here.
const MATCH_EXAMPLE = {
  id: 'mtc_open_1',
  eventId: 'evt_open',
  stageId: 'stg_open_groups',
  groupId: 'grp_open_a',
  roundId: 'rnd_open_a1',
  status: 'completed',
  bestOf: 1,
  isFreeWin: false,
  opponentA: { participantId: 'par_alpha', teamId: 'team_alpha', name: 'Team Alpha', logoUrl: 'https://cdn.example.test/teams/alpha.png', score: 1, result: 'win', forfeit: false },
  opponentB: { participantId: 'par_bravo', teamId: 'team_bravo', name: 'Team Bravo', logoUrl: 'https://cdn.example.test/teams/bravo.png', score: 0, result: 'loss', forfeit: false },
  maps: [{ position: 1, mapId: 'map_ancient', mapName: 'Ancient', scoreA: 13, scoreB: 7, winner: 'a' }],
  scheduledAt: '2026-01-05T17:00:00.000Z',
  startedAt: '2026-01-05T17:05:00.000Z',
  completedAt: '2026-01-05T18:00:00.000Z',
  streamUrl: 'https://twitch.example.test/demo-open',
  updatedAt: '2026-01-05T18:00:00.000Z',
  roundNumber: 1,
  position: null,
  bracket: null,
  winnerTo: null,
  loserTo: null,
  sourceA: null,
  sourceB: null,
  opponents: null,
} satisfies z.output<typeof matchView>;

const STAGE_SETTINGS_EXAMPLE = { seeding: 'registration', qualifiers: null, thirdPlaceMatch: null, grandFinal: null, legs: 1, rounds: null, points: { win: 3, draw: 1, loss: 0 }, tiebreakers: ['points', 'head_to_head', 'score_difference', 'score_for', 'seed'], participantsPerMatch: null, pointsByPlace: null };

const apiKey = (data: Record<string, unknown>) => data.apiKey as Record<string, unknown>;

export const v1Routes: RouteRow[] = [
  defineRoute({
    operationId: 'v1GetOrganisation',
    method: 'get',
    path: '/api/v1/organisation',
    tag: TAG,
    summary: "The key's organisation",
    description: KEY,
    security: 'apiKey',
    input: { headers },
    operation: prepareOperation(`query V1GetOrganisation { apiKey { organisation { ${selectionOf(organisationView)} } } }`),
    variables: () => ({}),
    result: (data) => apiKey(data).organisation,
    success: { status: 200, schema: organisationView, description: 'The organisation.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/organisation', response: { data: { id: 'org_demo', name: 'Demo Esports', slug: 'demo', createdAt: '2026-01-01T00:00:00.000Z' } } },
  }),
  defineRoute({
    operationId: 'v1GetOverlayToken',
    method: 'get',
    path: '/api/v1/overlay-token',
    tag: TAG,
    summary: 'The overlay token sent',
    description:
      'The overlay token sent in x-overlay-token (never its value): the one event it reads, its label and when it expires, so that an overlay needs nothing in its URL but the token. An organisation API key has none: 404. An unknown, revoked or expired token is 401.',
    security: 'apiKey',
    overlay: true,
    input: { headers },
    operation: prepareOperation(`query V1GetOverlayToken { apiKey { overlayToken { ${selectionOf(overlayTokenSchema)} } } }`),
    variables: () => ({}),
    result: (data) => apiKey(data).overlayToken,
    success: { status: 200, schema: overlayTokenSchema, description: 'The overlay token.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v1/overlay-token',
      response: { data: { id: 'ovt_…', organisationId: 'org_demo', eventId: 'evt_live', label: 'Main stage scoreboard', prefix: 'ovl_Q2x8Lm0a', createdAt: '2026-11-26T18:00:00.000Z', expiresAt: '2026-11-29T18:00:00.000Z', lastUsedAt: '2026-11-26T18:05:00.000Z', revokedAt: null } },
    },
  }),
  defineRoute({
    operationId: 'v1ListEvents',
    method: 'get',
    path: '/api/v1/events',
    tag: TAG,
    summary: "The organisation's events",
    description: `In creation order, 20 per page by default (keyset pagination); filters visibility and state. Strong ETag: If-None-Match answers 304 while nothing changed. ${KEY}`,
    security: 'apiKey',
    input: {
      query: z.object({ cursor: cursorParam, limit: limitParam, visibility: z.enum(EVENT_VISIBILITIES).optional(), state: z.enum(EVENT_STATES).optional() }).strict(),
      headers: conditionalHeaders,
    },
    operation: prepareOperation(
      `query V1ListEvents($cursor: String, $limit: Int, $visibility: EventVisibility, $state: EventState, $ifNoneMatch: String) {
        apiKey { events(cursor: $cursor, limit: $limit, visibility: $visibility, state: $state, ifNoneMatch: $ifNoneMatch) { etag notModified data { ${V1_EVENT_FIELDS} } meta { ${selectionOf(pageMeta)} } } }
      }`,
    ),
    variables: ({ query, headers: h }) => ({ ...query, ifNoneMatch: h['if-none-match'] ?? null }),
    ...conditionalList((data) => apiKey(data).events),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: eventDetailView, description: 'A page of events.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/events?state=scheduled', response: { data: [], meta: { nextCursor: null, hasMore: false } } },
  }),
  defineRoute({
    operationId: 'v1GetEvent',
    method: 'get',
    path: '/api/v1/events/{eventId}',
    tag: TAG,
    summary: 'An event of the organisation',
    description: `The event with its revision as a strong ETag ("5"); If-None-Match answers 304 while it is unchanged. Another organisation's event is 404. ${KEY} ${OVERLAY}`,
    security: 'apiKey',
    overlay: true,
    input: { path: z.object({ eventId: idParam }), headers: conditionalHeaders },
    operation: prepareOperation(`query V1GetEvent($eventId: ID!) { apiKey { event(id: $eventId) { ${V1_EVENT_FIELDS} } } }`),
    variables: ({ path }) => ({ eventId: path.eventId }),
    result: (data) => apiKey(data).event,
    respond: revisionEtag((data) => apiKey(data).event),
    notModified: true,
    documentedHeaders: { ETag: { description: 'The event revision as a strong ETag, e.g. "5".', schema: { type: 'string' } } },
    success: { status: 200, schema: eventDetailView, description: 'The event.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: { request: 'GET /api/v1/events/evt_open', response: { data: { id: 'evt_open', organisationId: 'org_demo', name: 'Demo Open', slug: 'open', type: 'cup', visibility: 'public', state: 'scheduled', platform: 'pc', currency: 'EUR', region: 'eu', bannerUrl: 'https://cdn.example.test/events/evt_open.png', description: 'Demo Open (demo event).', firstStageId: 'stg_open_groups', completedAt: null, revision: 5, game: 'cs2', timezone: 'Europe/Berlin', startsAt: '2026-01-05T09:00:00.000Z', endsAt: '2026-01-11T20:00:00.000Z', logoUrl: 'https://cdn.example.test/events/evt_open-logo.png', primaryColor: '#1f6feb', secondaryColor: '#f2cc60' } } },
  }),
  eventChildRoute({
    operationId: 'v1ListStages',
    path: '/api/v1/events/{eventId}/stages',
    summary: "An event's stages",
    description: 'Stages in order (position), 20 per page by default.',
    field: 'stagePage(cursor: $cursor, limit: $limit)',
    declarations: PAGE_VARS,
    item: stageView,
    list: true,
    query: pageQuery(),
    example: { request: 'GET /api/v1/events/evt_open/stages', response: { data: [{ id: 'stg_open_groups', eventId: 'evt_open', name: 'Groups', format: 'round_robin', bestOf: 1, position: 1, status: 'pending', settings: STAGE_SETTINGS_EXAMPLE, seeding: null }], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetStage',
    path: '/api/v1/events/{eventId}/stages/{stageId}',
    summary: 'A stage',
    description: 'One stage of the event; a stage of another event is 404.',
    field: 'stage(id: $stageId)',
    declarations: '$stageId: ID!',
    item: stageView,
    list: false,
    path_params: ['stageId'],
    example: { request: 'GET /api/v1/events/evt_open/stages/stg_open_groups', response: { data: { id: 'stg_open_groups', eventId: 'evt_open', name: 'Groups', format: 'round_robin', bestOf: 1, position: 1, status: 'pending', settings: STAGE_SETTINGS_EXAMPLE, seeding: null } } },
  }),
  eventChildRoute({
    operationId: 'v1ListGroups',
    path: '/api/v1/events/{eventId}/groups',
    summary: "An event's groups",
    description: 'Groups by stage, then position; filter stageId.',
    field: 'groupPage(cursor: $cursor, limit: $limit, stageId: $stageId)',
    declarations: `${PAGE_VARS}, $stageId: ID`,
    item: groupView,
    list: true,
    query: pageQuery({ stageId: idParam.optional() }),
    example: { request: 'GET /api/v1/events/evt_open/groups?stageId=stg_open_groups', response: { data: [{ id: 'grp_open_a', eventId: 'evt_open', stageId: 'stg_open_groups', name: 'Group A', position: 1 }], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetGroup',
    path: '/api/v1/events/{eventId}/groups/{groupId}',
    summary: 'A group',
    description: 'One group of the event; a group of another event is 404.',
    field: 'group(id: $groupId)',
    declarations: '$groupId: ID!',
    item: groupView,
    list: false,
    path_params: ['groupId'],
    example: { request: 'GET /api/v1/events/evt_open/groups/grp_open_a', response: { data: { id: 'grp_open_a', eventId: 'evt_open', stageId: 'stg_open_groups', name: 'Group A', position: 1 } } },
  }),
  eventChildRoute({
    operationId: 'v1ListRounds',
    path: '/api/v1/events/{eventId}/rounds',
    summary: "An event's rounds",
    description: 'Rounds by stage, then number; filters stageId and groupId.',
    field: 'roundPage(cursor: $cursor, limit: $limit, stageId: $stageId, groupId: $groupId)',
    declarations: `${PAGE_VARS}, $stageId: ID, $groupId: ID`,
    item: roundView,
    list: true,
    query: pageQuery({ stageId: idParam.optional(), groupId: idParam.optional() }),
    example: { request: 'GET /api/v1/events/evt_open/rounds?groupId=grp_open_a', response: { data: [{ id: 'rnd_open_a1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', number: 1, name: 'Round 1', bracket: null }], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetRound',
    path: '/api/v1/events/{eventId}/rounds/{roundId}',
    summary: 'A round',
    description: 'One round of the event; a round of another event is 404.',
    field: 'round(id: $roundId)',
    declarations: '$roundId: ID!',
    item: roundView,
    list: false,
    path_params: ['roundId'],
    example: { request: 'GET /api/v1/events/evt_open/rounds/rnd_open_a1', response: { data: { id: 'rnd_open_a1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', number: 1, name: 'Round 1', bracket: null } } },
  }),
  eventChildRoute({
    operationId: 'v1ListParticipants',
    path: '/api/v1/events/{eventId}/participants',
    summary: "An event's participants",
    description: 'Participants in registration order with their team name, logo and lineup; filter status.',
    field: 'participantPage(cursor: $cursor, limit: $limit, status: $status)',
    declarations: `${PAGE_VARS}, $status: ParticipantStatus`,
    item: participantView,
    list: true,
    query: pageQuery({ status: z.enum(PARTICIPANT_STATUSES).optional() }),
    example: {
      request: 'GET /api/v1/events/evt_open/participants?limit=1',
      response: { data: [{ id: 'par_alpha', eventId: 'evt_open', teamId: 'team_alpha', name: 'Team Alpha', logoUrl: null, status: 'confirmed', createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', lineup: [{ userId: 'usr_bob', role: 'captain', displayName: 'Bob' }] }], meta: { nextCursor: '…', hasMore: true } },
    },
  }),
  eventChildRoute({
    operationId: 'v1GetParticipant',
    path: '/api/v1/events/{eventId}/participants/{participantId}',
    summary: 'A participant',
    description: 'One participant of the event with its lineup.',
    field: 'participant(id: $participantId)',
    declarations: '$participantId: ID!',
    item: participantView,
    list: false,
    path_params: ['participantId'],
    example: { request: 'GET /api/v1/events/evt_open/participants/par_alpha', response: { data: { id: 'par_alpha', eventId: 'evt_open', teamId: 'team_alpha', name: 'Team Alpha', logoUrl: null, status: 'confirmed', createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', lineup: [] } } },
  }),
  eventChildRoute({
    operationId: 'v1ListInvitations',
    path: '/api/v1/events/{eventId}/invitations',
    summary: "An event's invitations",
    description: 'Invitations in creation order; filters stageId and groupId.',
    field: 'invitationPage(cursor: $cursor, limit: $limit, stageId: $stageId, groupId: $groupId)',
    declarations: `${PAGE_VARS}, $stageId: ID, $groupId: ID`,
    item: invitationView,
    list: true,
    query: pageQuery({ stageId: idParam.optional(), groupId: idParam.optional() }),
    example: { request: 'GET /api/v1/events/evt_open/invitations', response: { data: [{ id: 'inv_open_1', eventId: 'evt_open', teamId: 'team_charlie', stageId: 'stg_open_groups', groupId: 'grp_open_b', status: 'pending', createdAt: '2026-01-05T16:10:00.000Z' }], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetInvitation',
    path: '/api/v1/events/{eventId}/invitations/{invitationId}',
    summary: 'An invitation',
    description: 'One invitation of the event.',
    field: 'invitation(id: $invitationId)',
    declarations: '$invitationId: ID!',
    item: invitationView,
    list: false,
    path_params: ['invitationId'],
    example: { request: 'GET /api/v1/events/evt_open/invitations/inv_open_1', response: { data: { id: 'inv_open_1', eventId: 'evt_open', teamId: 'team_charlie', stageId: 'stg_open_groups', groupId: 'grp_open_b', status: 'pending', createdAt: '2026-01-05T16:10:00.000Z' } } },
  }),
  eventChildRoute({
    operationId: 'v1GetBroadcast',
    path: '/api/v1/events/{eventId}/broadcast',
    summary: "An event's broadcast configuration",
    description: 'Stream links, overlay theme and colour, delay and whether scores show; 404 when the event has none.',
    field: 'broadcast',
    item: broadcastView,
    list: false,
    example: { request: 'GET /api/v1/events/evt_open/broadcast', response: { data: { eventId: 'evt_open', streamUrl: 'https://twitch.example.test/demo', youtubeUrl: null, overlayTheme: 'default', primaryColor: '#ff4655', delaySeconds: 30, showScores: true, updatedAt: '2026-01-03T00:00:00.000Z' } } },
  }),
  eventChildRoute({
    operationId: 'v1ListPlaydays',
    path: '/api/v1/events/{eventId}/playdays',
    summary: "An event's playdays",
    description: 'Playdays by date, with their live match, overlay score and staff.',
    field: 'playdayPage(cursor: $cursor, limit: $limit)',
    declarations: PAGE_VARS,
    item: playdayView,
    list: true,
    query: pageQuery(),
    example: { request: 'GET /api/v1/events/evt_open/playdays', response: { data: [{ id: 'pd_open_1', eventId: 'evt_open', name: 'Day 1', date: '2026-02-01T00:00:00.000Z', liveMatchId: 'mtc_open_1', overlayScoreA: 1, overlayScoreB: 0, staff: [{ userId: 'usr_erin', role: 'caster' }] }], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetPlayday',
    path: '/api/v1/events/{eventId}/playdays/{playdayId}',
    summary: 'A playday',
    description: 'One playday of the event.',
    field: 'playday(id: $playdayId)',
    declarations: '$playdayId: ID!',
    item: playdayView,
    list: false,
    path_params: ['playdayId'],
    example: { request: 'GET /api/v1/events/evt_open/playdays/pd_open_1', response: { data: { id: 'pd_open_1', eventId: 'evt_open', name: 'Day 1', date: '2026-02-01T00:00:00.000Z', liveMatchId: 'mtc_open_1', overlayScoreA: 1, overlayScoreB: 0, staff: [] } } },
  }),
  eventChildRoute({
    operationId: 'v1ListMatches',
    path: '/api/v1/events/{eventId}/matches',
    summary: "An event's matches",
    description: 'Matches in creation order with both opponents, the maps played, timing and stream link; filters stageId, groupId, roundId and status.',
    field: 'matchPage(cursor: $cursor, limit: $limit, stageId: $stageId, groupId: $groupId, roundId: $roundId, status: $status)',
    declarations: `${PAGE_VARS}, $stageId: ID, $groupId: ID, $roundId: ID, $status: MatchStatus`,
    item: matchView,
    list: true,
    query: pageQuery({ stageId: idParam.optional(), groupId: idParam.optional(), roundId: idParam.optional(), status: z.enum(MATCH_STATUSES).optional() }),
    example: { request: 'GET /api/v1/events/evt_open/matches?status=completed', response: { data: [MATCH_EXAMPLE], meta: { nextCursor: null, hasMore: false } } },
  }),
  eventChildRoute({
    operationId: 'v1GetMatch',
    path: '/api/v1/events/{eventId}/matches/{matchId}',
    summary: 'A match',
    description: 'One match of the event.',
    field: 'match(id: $matchId)',
    declarations: '$matchId: ID!',
    item: matchView,
    list: false,
    path_params: ['matchId'],
    example: { request: 'GET /api/v1/events/evt_open/matches/mtc_open_1', response: { data: MATCH_EXAMPLE } },
  }),
  eventChildRoute({
    operationId: 'v1ListStandings',
    path: '/api/v1/events/{eventId}/standings',
    summary: "An event's standings",
    description: 'Standings by stage, then group and rank (tied rows by seed): record, points with adjustments, score for and against, tiebreakers and qualification, as stored by the results that moved them; filters stageId and groupId. GET /api/v2/events/{eventId}/stages/{stageId}/standings reads one stage in rank order with an ETag.',
    field: 'standingPage(cursor: $cursor, limit: $limit, stageId: $stageId, groupId: $groupId)',
    declarations: `${PAGE_VARS}, $stageId: ID, $groupId: ID`,
    item: standingView,
    list: true,
    query: pageQuery({ stageId: idParam.optional(), groupId: idParam.optional() }),
    example: {
      request: 'GET /api/v1/events/evt_open/standings?groupId=grp_open_a',
      response: {
        data: [{ id: 'std_…', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', participantId: 'par_alpha', name: 'Team Alpha', logoUrl: null, rank: 1, played: 1, wins: 1, draws: 0, losses: 0, points: 3, scoreFor: 1, scoreAgainst: 0, scoreDifference: 1, adjustmentPoints: 0, seed: null, tiebreakers: {}, qualified: false }],
        meta: { nextCursor: null, hasMore: false },
      },
    },
  }),
  defineRoute({
    operationId: 'v1GetUser',
    method: 'get',
    path: '/api/v1/users/{userId}',
    tag: TAG,
    summary: 'A user taking part in one of the organisation’s events',
    description: `Public profile fields of a user who is a member of a participating team or lineup in an event of the key's organisation; never e-mail or authentication data. Anyone else is 404. ${KEY}`,
    security: 'apiKey',
    input: { path: z.object({ userId: idParam }), headers },
    operation: prepareOperation(`query V1GetUser($userId: ID!) { apiKey { user(id: $userId) { ${selectionOf(userView)} } } }`),
    variables: ({ path }) => ({ userId: path.userId }),
    result: (data) => apiKey(data).user,
    success: { status: 200, schema: userView, description: 'The public profile.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: { request: 'GET /api/v1/users/usr_bob', response: { data: { id: 'usr_bob', displayName: 'Bob', username: 'bob', imageUrl: null, nationality: 'GB', primaryPlatform: 'pc', platforms: ['pc'] } } },
  }),
  defineRoute({
    operationId: 'v1ListMaps',
    method: 'get',
    path: '/api/v1/maps',
    tag: TAG,
    summary: 'Maps',
    description: `The game's maps (reference data named by map pools, vetoes and match results), in id order, 20 per page by default. ${KEY}`,
    security: 'apiKey',
    input: { query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers },
    operation: prepareOperation(
      `query V1ListMaps($cursor: String, $limit: Int) { apiKey { maps(cursor: $cursor, limit: $limit) { data { ${selectionOf(mapView)} } meta { ${selectionOf(pageMeta)} } } } }`,
    ),
    variables: ({ query }) => query,
    result: (data) => apiKey(data).maps,
    format: 'list',
    success: { status: 200, schema: mapView, description: 'A page of maps.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'GET /api/v1/maps?limit=2', response: { data: [{ id: 'map_ancient', name: 'Ancient', imageUrl: null }], meta: { nextCursor: null, hasMore: false } } },
  }),
];
