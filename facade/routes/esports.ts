// REST routes of the esports data section (metered) and of the usage an application reads about itself.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { METRICS } from '../../subgraphs/esports/vocabulary.ts';
import { esportsEventView, esportsGroupView, esportsMapStatisticsView, esportsMatchStatisticsView, esportsMatchView, esportsStageView, usageReportView } from '../../subgraphs/esports/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, installationHeader, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';

const esportsHeaders = z.object({
  // Presence is checked by the subgraph, so that REST and GraphQL answer the same 400.
  'svc-installation-id': installationHeader('Required: an active installation of your application (for example ins_demo_org).'),
  'x-request-id': requestIdHeader,
});
const METERING = 'Metered: one esports_calls unit per successful call, none for a failed one. Needs the header svc-installation-id (an active installation of the calling application; missing → 400, not yours or inactive → 403) and the esports_data entitlement of the application owner (403 missing_entitlement).';
const ESPORTS_ERRORS = [400, 401, 403, 404, 429, 500, 503];

/** An esports read: one resource, or (list) a page of them; path parameters become the field's arguments. */
function esportsRoute(spec: { operationId: string; path: string; summary: string; description?: string; field: string; params: string[]; item: z.ZodObject; list?: boolean }): RouteRow {
  const vars = [...spec.params.map((name) => `$${name}: ID!`), ...(spec.list ? ['$cursor: String', '$limit: Int'] : [])].join(', ');
  const args = [...spec.params, ...(spec.list ? ['cursor', 'limit'] : [])].map((name) => `${name}: $${name}`).join(', ');
  const selection = spec.list ? `data { ${selectionOf(spec.item)} } meta { ${selectionOf(pageMeta)} }` : selectionOf(spec.item);
  const operationName = `${spec.operationId[0].toUpperCase()}${spec.operationId.slice(1)}`;
  return defineRoute({
    operationId: spec.operationId,
    method: 'get',
    path: spec.path,
    tag: 'Esports data',
    summary: spec.summary,
    description: `${spec.description ?? ''}${spec.description ? ' ' : ''}${METERING}`,
    security: 'bearer',
    input: {
      ...(spec.params.length ? { path: z.object(Object.fromEntries(spec.params.map((name) => [name, idParam]))) } : {}),
      ...(spec.list ? { query: z.object({ cursor: cursorParam, limit: limitParam }).strict() } : {}),
      headers: esportsHeaders,
    },
    operation: prepareOperation(`query ${operationName}${vars ? `(${vars})` : ''} { ${spec.field}${args ? `(${args})` : ''} { ${selection} } }`),
    variables: ({ path, query }) => ({ ...path, ...query }),
    result: (data) => data[spec.field],
    ...(spec.list ? { format: 'list' as const } : {}),
    success: { status: 200, schema: spec.item, description: spec.list ? 'A page.' : 'The resource.' },
    errors: ESPORTS_ERRORS,
  });
}

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD');

export const esportsRoutes: RouteRow[] = [
  esportsRoute({ operationId: 'listEsportsEvents', path: '/api/v2/esports/events', summary: 'List esports events', field: 'esportsEvents', params: [], item: esportsEventView, list: true }),
  esportsRoute({
    operationId: 'listEsportsEventMapStatistics',
    path: '/api/v2/esports/events/{eventId}/statistics/maps',
    summary: 'List map statistics of an esports event',
    field: 'esportsEventMapStatistics',
    params: ['eventId'],
    list: true,
    item: esportsMapStatisticsView,
  }),
  esportsRoute({
    operationId: 'listEsportsEventStages',
    path: '/api/v2/esports/events/{eventId}/stages',
    summary: 'List stages of an esports event',
    field: 'esportsEventStages',
    params: ['eventId'],
    list: true,
    item: esportsStageView,
  }),
  esportsRoute({
    operationId: 'getEsportsGroup',
    path: '/api/v2/esports/events/{eventId}/stages/{stageId}/groups/{groupId}',
    summary: 'Read a group of an esports stage',
    description: 'A group outside that stage (or event) answers 404 not_found.',
    field: 'esportsGroup',
    params: ['eventId', 'stageId', 'groupId'],
    item: esportsGroupView,
  }),
  esportsRoute({ operationId: 'getEsportsMatch', path: '/api/v2/esports/matches/{matchId}', summary: 'Read an esports match', description: 'An unknown match answers 404 not_found.', field: 'esportsMatch', params: ['matchId'], item: esportsMatchView }),
  esportsRoute({ operationId: 'getEsportsMatchStatistics', path: '/api/v2/esports/matches/{matchId}/statistics', summary: 'Read statistics of an esports match', field: 'esportsMatchStatistics', params: ['matchId'], item: esportsMatchStatisticsView }),
  defineRoute({
    operationId: 'getApplicationUsage',
    method: 'get',
    path: '/api/v2/developer/apps/{appId}/usage',
    tag: 'Developer applications',
    summary: "Read an application's metered usage",
    description: 'Units per UTC day and installation between from and to (inclusive, at most 366 days; the current UTC month by default), with their total. For a token of the application itself, with an application actor or a user who manages the application\'s owner (another user: 403 missing_permission); any other appId is 404.',
    security: 'bearer',
    input: {
      path: z.object({ appId: idParam }),
      query: z
        .object({
          metric: z.enum(METRICS),
          from: isoDay.optional().describe('First day, YYYY-MM-DD (UTC); the first day of the current UTC month when omitted.'),
          to: isoDay.optional().describe('Last day, YYYY-MM-DD (UTC); the last day of the current UTC month when omitted. At most 366 days after from.'),
        })
        .strict(),
      headers: z.object({ 'x-request-id': requestIdHeader }),
    },
    operation: prepareOperation(
      `query GetApplicationUsage($appId: ID!, $metric: UsageMetric!, $from: String, $to: String) {
        application(id: $appId) { usage(metric: $metric, from: $from, to: $to) { ${selectionOf(usageReportView)} } }
      }`,
    ),
    variables: ({ path, query }) => ({ appId: path.appId, metric: query.metric, from: query.from ?? null, to: query.to ?? null }),
    result: (data) => (data.application as { usage: unknown }).usage,
    success: { status: 200, schema: usageReportView, description: 'The usage report.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=2026-11-01&to=2026-11-30',
      response: { data: { metric: 'esports_calls', from: '2026-11-01', to: '2026-11-30', total: 3, days: [{ day: '2026-11-21', installationId: 'ins_demo_org', units: 3 }] } },
    },
  }),
];
