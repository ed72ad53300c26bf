// REST reads of a stage (v2): the stage with its resolved settings and seeding, and its matches in
// bracket order, and its standings in rank order. The stage writes (settings, seeding, start) are in competition-writes.ts.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { conditionalList, cursorParam, ETAG_DOC, idParam, limitParam, pageMeta, readHeaders, revisionEtag, selectionOf } from './common.ts';
import { matchView, stageView, standingView } from '../../subgraphs/competitions/views.ts';

export const stageSchema = stageView.meta({ id: 'Stage' });
export const matchSchema = matchView.meta({ id: 'Match' });
export const standingSchema = standingView.meta({ id: 'Standing' });

export const stageRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'getStage',
    method: 'get',
    path: '/api/v2/events/{eventId}/stages/{stageId}',
    tag: 'Competition reads',
    summary: 'Read a stage',
    description:
      'One stage of the event with its settings (every default filled; a setting that does not apply to the format is null) and its seeding (the manual order set before start, then the seeding frozen at start, with the random seed of a random draw). ETag: the event revision; If-None-Match answers 304 while the event is unchanged. The application needs an active installation on the event or its organisation.',
    security: 'bearer',
    input: { path: z.object({ eventId: idParam, stageId: idParam }), headers: readHeaders },
    operation: prepareOperation(`query GetStage($eventId: ID!, $stageId: ID!) { event(id: $eventId) { revision stage(id: $stageId) { ${selectionOf(stageSchema)} } } }`),
    variables: ({ path }) => ({ eventId: path.eventId, stageId: path.stageId }),
    result: (data) => (data.event as { stage: unknown }).stage,
    respond: revisionEtag((data) => data.event),
    notModified: true,
    documentedHeaders: { ETag: { description: 'The event revision as a strong ETag, e.g. "5".', schema: { type: 'string' } } },
    success: { status: 200, schema: stageSchema, description: 'The stage.' },
    errors: [400, 401, 404, 429, 500, 503],
  }),
  defineRoute({
    operationId: 'listStageMatches',
    method: 'get',
    path: '/api/v2/events/{eventId}/stages/{stageId}/matches',
    tag: 'Competition reads',
    summary: "List a stage's matches in bracket order",
    description:
      "The stage's matches in bracket order: winners, losers, grand_final, third_place, then round number, group position and position within the round (matches that were not generated come last, in creation order). 20 per page by default (keyset pagination). Each match carries roundNumber, position, bracket, winnerTo, loserTo, sourceA and sourceB. Send the ETag back as If-None-Match: 304 while nothing in the event changed. A stage of another event is 404.",
    security: 'bearer',
    input: {
      path: z.object({ eventId: idParam, stageId: idParam }),
      query: z.object({ cursor: cursorParam, limit: limitParam }).strict(),
      headers: readHeaders,
    },
    operation: prepareOperation(
      `query ListStageMatches($eventId: ID!, $stageId: ID!, $cursor: String, $limit: Int, $ifNoneMatch: String) {
        stageMatches(eventId: $eventId, stageId: $stageId, cursor: $cursor, limit: $limit, ifNoneMatch: $ifNoneMatch) {
          etag notModified data { ${selectionOf(matchSchema)} } meta { ${selectionOf(pageMeta)} }
        }
      }`,
    ),
    variables: ({ path, query, headers }) => ({ eventId: path.eventId, stageId: path.stageId, ...query, ifNoneMatch: headers['if-none-match'] ?? null }),
    ...conditionalList((data) => data.stageMatches),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: matchSchema, description: 'A page of matches.' },
    errors: [400, 401, 404, 429, 500, 503],
  }),
  defineRoute({
    operationId: 'listStageStandings',
    method: 'get',
    path: '/api/v2/events/{eventId}/stages/{stageId}/standings',
    tag: 'Competition reads',
    summary: "List a stage's standings in rank order",
    description:
      "The stage's standings (one group's with groupId) in rank order: groups by position, then rank, tied rows by seed. Each row: rank, played, wins, draws, losses, points (adjustments included), scoreFor, scoreAgainst, scoreDifference, the stage's tiebreakers with their values in order, qualified. Stored by the write that moved them (a stage start, a result, an adjustment), in its transaction: a read is one indexed query. 20 per page by default (keyset pagination). Send the ETag back as If-None-Match: 304 while nothing in the event changed. A stage or group of another event is 404.",
    security: 'bearer',
    input: {
      path: z.object({ eventId: idParam, stageId: idParam }),
      query: z.object({ groupId: idParam.optional().describe('Only this group of the stage.'), cursor: cursorParam, limit: limitParam }).strict(),
      headers: readHeaders,
    },
    operation: prepareOperation(
      `query ListStageStandings($eventId: ID!, $stageId: ID!, $groupId: ID, $cursor: String, $limit: Int, $ifNoneMatch: String) {
        stageStandings(eventId: $eventId, stageId: $stageId, groupId: $groupId, cursor: $cursor, limit: $limit, ifNoneMatch: $ifNoneMatch) {
          etag notModified data { ${selectionOf(standingSchema)} } meta { ${selectionOf(pageMeta)} }
        }
      }`,
    ),
    variables: ({ path, query, headers }) => ({ eventId: path.eventId, stageId: path.stageId, ...query, ifNoneMatch: headers['if-none-match'] ?? null }),
    ...conditionalList((data) => data.stageStandings),
    format: 'list',
    notModified: true,
    documentedHeaders: ETAG_DOC,
    success: { status: 200, schema: standingSchema, description: 'A page of standings.' },
    errors: [400, 401, 404, 429, 500, 503],
  }),
];
