// The error body of every status >= 400, written by this one function:
// {"error":{"code":"…","message":"…","requestId":"…","details":[{"field":"…","issue":"…"}]}}
import type { Context } from 'koa';
import type { ApiError, ErrorCode, ErrorDetail } from '../../subgraphs/shared/errors.ts';

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]) {
  return { error: { code, message, requestId, ...(details?.length ? { details } : {}) } };
}

export function sendError(ctx: Context, status: number, code: ErrorCode, message: string, details?: ErrorDetail[]): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = errorBody(code, message, ctx.state.requestId as string, details);
}

/** An ApiError as the HTTP answer: its status, headers and body. */
export function sendApiError(ctx: Context, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  sendError(ctx, error.status, error.code, error.message, error.details);
}
