// REST routes of the competition reads: organisation events, one event, player statistics, users.
// Each row runs a query of the competitions subgraph; its selection comes from its response schema.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { EVENT_STATES, EVENT_VISIBILITIES } from '../../platform/domain/competition-vocabulary.ts';
import { eventView, playerStatisticsView, userView } from '../../subgraphs/competitions/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { conditionalList, cursorParam, ETAG_DOC, idParam, limitParam, pageMeta, readHeaders, requestIdHeader, revisionEtag, selectionOf } from './common.ts';




export const EVENT_FIELDS = selectionOf(eventView);

const STATS_FIELDS = selectionOf(playerStatisticsView);

export const competitionReadRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'listOrganisationEvents',
    method: 'get',
    path: '/api/v2/organisations/{organisationId}/events',
    tag: 'Competition reads',
    summary: 'List an organisation\'s events',
    description: 'Events in creation order, 20 per page by default (keyset pagination). Filters visibility and state take one value each. The application needs an active installation on the organisation (403 otherwise). Send the ETag back as If-None-Match: 304 while nothing changed.',
    security: 'bearer',
    input: {
      path: z.object({ organisationId: idParam }),
      query: z
        .object({
          cursor: cursorParam,
          limit: limitParam,
          visibility: z.enum(EVENT_VISIBILITIES).optional(),
          state: z.enum(EVENT_STATES).optional(),
        })
        .strict(),
      headers: readHeaders,
    },
    operation: prepareOperation(
      `query ListOrganisationEvents($organisationId: ID!, $cursor: String, $limit: Int, $visibility: EventVisibility, $state: EventState, $ifNoneMatch: String) {
        organisationEvents(organisationId: $organisationId, cursor: $cursor, limit: $limit, visibility: $visibility, state: $state, ifNoneMatch: $ifNoneMatch) {
          etag notModified data { ${EVENT_FIELDS} } meta { ${selectionOf(pageMeta)} }
        }
      }`,
    ),
    variables: ({ path, query, headers }) => ({ organisationId: path.organisationId, ...query, ifNoneMatch: headers['if-none-match'] ?? null }),
    ...conditionalList((data) => data.organisationEvents),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: eventView, description: 'A page of events.' },
    errors: [400, 401, 403, 429, 500, 503],
  }),
  defineRoute({
    operationId: 'listEventPlayerStatistics',
    method: 'get',
    path: '/api/v2/events/{eventId}/statistics/players',
    tag: 'Competition reads',
    summary: 'List player statistics of an event',
    description: 'Per-player totals and rates over the matches of the event, a stage (stageId) or a group (groupId), best rating first. While the event is in play, a scope of more than 200 matches answers 400 validation_failed: narrow it with stageId or groupId. Completed events have no limit. ETag and 304 as for lists.',
    security: 'bearer',
    input: {
      path: z.object({ eventId: idParam }),
      query: z.object({ cursor: cursorParam, limit: limitParam, stageId: idParam.optional(), groupId: idParam.optional() }).strict(),
      headers: readHeaders,
    },
    operation: prepareOperation(
      `query ListEventPlayerStatistics($eventId: ID!, $stageId: ID, $groupId: ID, $cursor: String, $limit: Int, $ifNoneMatch: String) {
        eventPlayerStatistics(eventId: $eventId, stageId: $stageId, groupId: $groupId, cursor: $cursor, limit: $limit, ifNoneMatch: $ifNoneMatch) {
          etag notModified data { ${STATS_FIELDS} } meta { ${selectionOf(pageMeta)} }
        }
      }`,
    ),
    variables: ({ path, query, headers }) => ({ eventId: path.eventId, ...query, ifNoneMatch: headers['if-none-match'] ?? null }),
    ...conditionalList((data) => data.eventPlayerStatistics),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: playerStatisticsView, description: 'A page of player statistics.' },
    errors: [400, 401, 404, 429, 500, 503],
  }),
  defineRoute({
    operationId: 'getEvent',
    method: 'get',
    path: '/api/v2/events/{eventId}',
    tag: 'Competition reads',
    summary: 'Read an event',
    description: 'One event, in the shape of the event list, with its revision as a strong ETag ("5"): the If-Match value its writes need. Send the ETag as If-None-Match to get 304 while the event is unchanged. The application needs an active installation on the event or its organisation; any other event is 404 not_found.',
    security: 'bearer',
    input: { path: z.object({ eventId: idParam }), headers: readHeaders },
    operation: prepareOperation(`query GetEvent($eventId: ID!) { event(id: $eventId) { ${EVENT_FIELDS} } }`),
    variables: ({ path }) => ({ eventId: path.eventId }),
    result: (data) => data.event,
    respond: revisionEtag((data) => data.event),
    notModified: true,
    documentedHeaders: { ETag: { description: 'The event revision as a strong ETag, e.g. "5": the If-Match of its next write.', schema: { type: 'string' } } },
    success: { status: 200, schema: eventView, description: 'The event.' },
    errors: [400, 401, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v2/events/evt_open',
      response: { data: { id: 'evt_open', organisationId: 'org_demo', name: 'Demo Open', slug: 'open', type: 'cup', visibility: 'public', state: 'scheduled', platform: 'pc', currency: 'EUR', region: 'eu', bannerUrl: 'https://cdn.example.test/events/evt_open.png', description: 'Demo Open (demo event).', firstStageId: 'stg_open_groups', completedAt: null, revision: 5 } },
    },
  }),
  defineRoute({
    operationId: 'getUser',
    method: 'get',
    path: '/api/v2/users/{userId}',
    tag: 'Competition reads',
    summary: 'Read a user profile',
    description: 'Public profile fields of a user on whom the application has an active installation. Any other user, and a revoked installation, answer 404 not_found.',
    security: 'bearer',
    input: { path: z.object({ userId: idParam }), headers: z.object({ 'x-request-id': requestIdHeader }) },
    operation: prepareOperation('query GetUser($userId: ID!) { user(id: $userId) { id displayName username imageUrl nationality primaryPlatform platforms } }'),
    variables: ({ path }) => ({ userId: path.userId }),
    result: (data) => data.user,
    success: { status: 200, schema: userView, description: 'The user profile (public fields only).' },
    errors: [401, 404, 429, 500, 503],
  }),
];
