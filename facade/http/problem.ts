// The error body of every status >= 400:
// {"error":{"code":"…","message":"…","requestId":"…","details":[{"field":"…","issue":"…"}]}}
import type { Context } from 'koa';
import { errorStatus, type ErrorCode, type ErrorDetail } from '../../subgraphs/shared/errors.ts';

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** A status other than the code's own, for the few HTTP-level cases (405, 413, 415). */
    readonly status: number = errorStatus[code],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendError(ctx: Context, status: number, code: ErrorCode, message: string, details?: ErrorDetail[]): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { error: { code, message, requestId: ctx.state.requestId as string, ...(details?.length ? { details } : {}) } };
}
