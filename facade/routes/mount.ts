// Mounts the rows of the route table onto a @koa/router: validate, map to variables, run the named
// operation through the gateway, map the result or error to HTTP.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { GraphQLFormattedError } from 'graphql';
import { ApiError, errorStatus, notFound, isErrorCode, type ErrorCode, type ErrorDetail } from '../../platform/api/errors.ts';
import { readBody } from '../http/body.ts';
import { validate } from '../../platform/api/validation.ts';
import { assertUtf8Path, assertUtf8Query } from '../../platform/api/input-safety.ts';
import { sendError, sendRateLimited } from '../http/problem.ts';
import { scopeOf } from '../http/scope.ts';
import { refuseKeyInUrl } from '../../platform/domain/api-keys.ts';
import type { GatewayContext } from '../graphql/context.ts';
import type { OperationRunner } from '../graphql/operations.ts';
import type { RouteInput, RouteRow } from './table.ts';
import type { SqlRunner } from '../../platform/db/database.ts';
import { chargeCaller, rateLimitedMessage, rateLimitHeaders, refusalHeaders, type Decision, type RateLimits } from '../http/rate-limits.ts';
import { beginCredentialCheck, outcomeOfAnswer, type CredentialCheck } from '../http/credential-checks.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../platform/db/unavailable.ts';

export interface RouteLimits {
  limits: RateLimits;
  /** For the caller's credential, looked up once per request (the subgraphs reuse it). */
  sql: SqlRunner;
}

export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function parseInput<T>(schema: z.ZodType<T> | undefined, value: unknown, location: 'path' | 'query' | 'header' | 'body'): T | Record<string, never> {
  if (!schema) return {};
  // The subgraphs' own validation: storable text first (naming the field), then the schema.
  return validate(schema, value, location);
}

/** A request with an overlay token (and not the route's own credential) to a route the token may not read. */
function outsideOverlay(ctx: Context, row: RouteRow): boolean {
  if (!ctx.get('x-overlay-token')) return false;
  if (row.security === 'apiKey') return !row.overlay && !ctx.get('x-api-key');
  return row.security === 'bearer' && !ctx.get('authorization');
}

/** A route that takes no body refuses one rather than ignore what the client meant to send. */
function refuseBody(ctx: Context): undefined {
  const length = Number(ctx.get('content-length') || '0');
  if (length > 0 || ctx.get('transfer-encoding') !== '') {
    throw new ApiError('validation_failed', `${ctx.method} ${ctx.state.route} takes no request body.`, [{ field: 'body', issue: 'not accepted on this route' }]);
  }
  return undefined;
}

function queryObject(ctx: Context, row: RouteRow): Record<string, unknown> {
  assertUtf8Query(ctx.querystring);
  const query = ctx.query as Record<string, string | string[]>;
  if (row.security === 'apiKey') refuseKeyInUrl(query);
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new ApiError('validation_failed', `The query parameter ${name} may be given once.`, [{ field: name, issue: 'repeated' }]);
  }
  if (!row.input.query && Object.keys(query).length) {
    const names = Object.keys(query);
    throw new ApiError('validation_failed', `This route takes no query parameters: ${names.join(', ')}.`, names.map((field) => ({ field, issue: 'unknown query parameter' })));
  }
  return query;
}

/** The HTTP status for a GraphQL error, from its extensions.code. */
export function statusOfGraphQLError(error: GraphQLFormattedError): { status: number; code: ErrorCode } {
  const code = error.extensions?.code;
  if (isErrorCode(code)) return { status: errorStatus[code], code };
  if (code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED') return { status: 400, code: 'validation_failed' };
  // A subgraph that could not serve the gateway's fetch: the service behind the route is unavailable.
  // (One it could not reach at all comes as service_unavailable already: the runner says so.)
  if (error.extensions?.serviceName) return { status: 503, code: 'service_unavailable' };
  return { status: 500, code: 'internal' };
}

function sendOAuthError(ctx: Context, error: GraphQLFormattedError, status: number) {
  // 503 and 429 are RFC 6749's temporarily_unavailable, with Retry-After as on every other 503 and
  // 429; 413 (a body over 1 MiB) keeps its status, as does every 5xx; the rest is 400.
  const fallback = status === 503 || status === 429 ? 'temporarily_unavailable' : status >= 500 ? 'server_error' : 'invalid_request';
  const oauth = (error.extensions?.oauthError as string | undefined) ?? fallback;
  ctx.status = oauth === 'invalid_client' ? 401 : status >= 500 || status === 429 || status === 413 ? status : 400;
  if (oauth === 'invalid_client') ctx.set('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  if (status === 503) ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: oauth, error_description: status === 500 ? 'Internal error.' : error.message };
}

/** 429 with the limit fields and Retry-After, in the route's error format. */
function refuseQuota(ctx: Context, row: RouteRow, decision: Decision) {
  if (row.errorFormat !== 'oauth') return sendRateLimited(ctx, decision);
  ctx.set(refusalHeaders(decision));
  ctx.status = 429;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: 'temporarily_unavailable', error_description: rateLimitedMessage(decision) };
}

/**
 * Spends the request's quota: on the OAuth endpoints, a check of the client's secret (refused while
 * its address is past its failed authentications or the client past its quota; settled with the
 * answer); the caller's on every other route.
 */
async function spendQuota(
  ctx: Context,
  row: RouteRow,
  variables: Record<string, unknown>,
  context: GatewayContext,
  { limits, sql }: RouteLimits,
): Promise<{ refused: Decision } | { spent: Decision } | { check: CredentialCheck }> {
  if (row.security === 'client') return beginCredentialCheck(limits, ctx.ip, String((variables.input as { clientId: string }).clientId));
  // A v1 route is paid for by the key or overlay token it reads with, whatever else the request carries.
  const decision = await chargeCaller(limits, sql, context.scope, ctx.ip, 1, row.security === 'apiKey' ? 'key' : 'token');
  return decision.allowed ? { spent: decision } : { refused: decision };
}

export function mountRoutes(router: Router, rows: RouteRow[], runner: OperationRunner, logger: Logger, routeLimits: RouteLimits) {
  for (const row of rows) {
    runner.check(row.operation);
    router[row.method](row.operationId, koaPath(row.path), async (ctx) => {
      ctx.state.route = row.path;
      // An overlay token reads its event's v1 routes and nothing else: to any other route that takes
      // a credential, a request carrying it instead of that route's credential is answered as if the
      // route did not exist, whether the token is valid or not, once its quota (the token's, or the
      // address's for an unknown one) has paid for the answer.
      if (outsideOverlay(ctx, row)) {
        const spent = await chargeCaller(routeLimits.limits, routeLimits.sql, scopeOf(ctx), ctx.ip, 1, 'key');
        if (!spent.allowed) return refuseQuota(ctx, row, spent);
        ctx.set(rateLimitHeaders(spent));
        throw notFound('The resource');
      }
      let variables: Record<string, unknown>;
      let input: RouteInput;
      try {
        // The router keeps a segment that is not UTF-8 undecoded (%FF stays %FF): refused instead.
        assertUtf8Path(row.path, ctx.path);
        input = {
          path: parseInput(row.input.path, ctx.params, 'path') as Record<string, string>,
          query: parseInput(row.input.query, queryObject(ctx, row), 'query') as Record<string, unknown>,
          headers: parseInput(row.input.headers, ctx.headers, 'header') as Record<string, unknown>,
          body: row.input.body ? parseInput(row.input.body, await readBody(ctx, row.input.bodyType ?? 'json'), 'body') : refuseBody(ctx),
        };
        variables = row.variables(input);
      } catch (error) {
        if (row.errorFormat === 'oauth' && error instanceof ApiError) {
          // A request that cannot be read is invalid_request, unless it was refused for the server's
          // sake (bodies in flight: 429 or 503, temporarily_unavailable); its Retry-After stays.
          const refused = error.status === 429 || error.status === 503;
          sendOAuthError(ctx, { message: error.message, extensions: refused ? {} : { oauthError: 'invalid_request' } }, error.status);
          ctx.set(error.headers);
          return;
        }
        throw error;
      }
      const context: GatewayContext = { scope: scopeOf(ctx) };
      const quota = await spendQuota(ctx, row, variables, context, routeLimits);
      if ('refused' in quota) return refuseQuota(ctx, row, quota.refused);
      if ('spent' in quota) ctx.set(rateLimitHeaders(quota.spent));
      let result: Awaited<ReturnType<OperationRunner['run']>>;
      try {
        result = await runner.run(row.operation, variables, context);
      } catch (error) {
        // A check whose answer never came (a fault) says nothing about the secret.
        if ('check' in quota) await quota.check.settle('unknown');
        throw error;
      }
      // The client's quota fields, once it is known whether it authenticated.
      if ('check' in quota) ctx.set(rateLimitHeaders(await quota.check.settle(outcomeOfAnswer(result.errors, result.data != null && !result.errors?.length))));
      const error = result.errors?.[0];
      if (error) {
        const { status, code } = statusOfGraphQLError(error);
        // A request the service could not serve spends nothing (the client is asked to retry).
        if (status === 503 && 'spent' in quota) quota.spent.giveBack?.();
        // An outage is logged once in a while, not per request, where it was met: the database's by
        // the subgraph, an unreachable subgraph's by the runner.
        const issue = (error.extensions?.details as ErrorDetail[] | undefined)?.[0]?.issue;
        if (status >= 500 && issue !== 'database_unavailable' && issue !== 'subgraph_unavailable') {
          logger.error({ requestId: ctx.state.requestId, errors: result.errors }, 'operation failed');
        }
        if (row.errorFormat === 'oauth') return sendOAuthError(ctx, error, status);
        // An API key is not a bearer token: only bearer routes challenge for one.
        if (code === 'invalid_token' && row.security !== 'apiKey') ctx.set('WWW-Authenticate', `Bearer realm="api", error="invalid_token"`);
        const message = status === 500 ? 'Internal error.' : error.message;
        return sendError(ctx, status, code, message, error.extensions?.details as ErrorDetail[] | undefined);
      }
      const data = result.data ?? {};
      const response = row.respond?.(data, input) ?? {};
      for (const [name, value] of Object.entries({ ...row.responseHeaders, ...response.headers })) ctx.set(name, value);
      if (response.notModified) {
        ctx.status = 304;
        return;
      }
      ctx.status = response.status ?? row.success.status;
      const body = row.result(data);
      ctx.body = row.format === 'raw' || row.format === 'list' ? body : { data: body };
    });
  }
}
