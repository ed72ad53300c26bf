// The error body of every status >= 400, written by this one function:
// {"error":{"code":"…","message":"…","requestId":"…","details":[{"field":"…","issue":"…"}]}}
// On /graphql the same code, details and request id are answered as a GraphQL error body, the shape
// a GraphQL client reads: {"errors":[{"message":"…","extensions":{"code","details","requestId"}}]}.
import type { Context } from 'koa';
import type { ApiError, ErrorCode, ErrorDetail } from '../../platform/api/errors.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../platform/db/unavailable.ts';
import { rateLimitedMessage, refusalHeaders, type Decision } from './rate-limits.ts';

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]) {
  return { error: { code, message, requestId, ...(details?.length ? { details } : {}) } };
}

function graphqlErrorBody(code: string, message: string, requestId: string, details?: ErrorDetail[]) {
  return { errors: [{ message, extensions: { code, ...(details?.length ? { details } : {}), requestId } }] };
}

/** Marks a request whose errors are answered as GraphQL error bodies (the /graphql route). */
export function answerErrorsAsGraphQL(ctx: Context): void {
  ctx.state.errorFormat = 'graphql';
}

export function sendError(ctx: Context, status: number, code: ErrorCode, message: string, details?: ErrorDetail[]): void {
  // Every 503 says when to try again (docs/errors.md): the part of the service that is away is
  // expected back, and clients that honour it do not hammer it meanwhile.
  if (status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  if (ctx.state.errorFormat === 'graphql') return sendGraphQLRequestError(ctx, status, code, message, details);
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = errorBody(code, message, ctx.state.requestId as string, details);
}

/**
 * A GraphQL request error (nothing ran), with a code of the GraphQL conventions as well as the
 * platform's (PERSISTED_QUERY_NOT_FOUND, which clients act on), in the media type the client prefers,
 * as Apollo Server answers its own errors.
 */
export function sendGraphQLRequestError(ctx: Context, status: number, code: string, message: string, details?: ErrorDetail[]): void {
  ctx.status = status;
  const type = ctx.accepts('application/json', 'application/graphql-response+json') || 'application/json';
  ctx.type = `${type}; charset=utf-8`;
  ctx.body = graphqlErrorBody(code, message, ctx.state.requestId as string, details);
}

/** An ApiError as the HTTP answer: its status, headers and body. */
export function sendApiError(ctx: Context, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  sendError(ctx, error.status, error.code, error.message, error.details);
}

/** 429 for a decision past its quota: the limit fields and Retry-After, and the error body of the route's format. */
export function sendRateLimited(ctx: Context, decision: Decision): void {
  ctx.set(refusalHeaders(decision));
  sendError(ctx, 429, 'rate_limited', rateLimitedMessage(decision), [{ issue: 'rate_limit_exceeded' }]);
}
