// The outermost safety net: whatever goes wrong answers the JSON error body, never HTML or a stack.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '../../platform/api/errors.ts';
import { databaseUnavailable, isDatabaseUnavailable, reportUnavailable } from '../../platform/db/unavailable.ts';
import { sendApiError, sendError } from './problem.ts';

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(ctx, error);
      const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
      // Koa and body parsers throw http-errors with a client status for bad requests.
      if (status && status >= 400 && status < 500) {
        if (status === 413) {
          sendError(ctx, 413, 'validation_failed', 'The request body is too large (at most 1 MiB).', [{ field: 'body', issue: 'payload_too_large' }]);
        } else if (status === 415) {
          sendError(ctx, 415, 'validation_failed', 'The request body must be application/json.', [{ field: 'content-type', issue: 'unsupported_media_type' }]);
        } else {
          sendError(ctx, 400, 'validation_failed', 'The request body is not valid JSON.', [{ field: 'body', issue: 'malformed' }]);
        }
        return;
      }
      // The database away is no fault of ours: 503 with Retry-After, logged once in a while, not per request.
      if (isDatabaseUnavailable(error)) {
        reportUnavailable((err, suppressed) => logger.warn({ err, requestId: ctx.state.requestId, suppressed }, 'database unavailable: answering 503'), error);
        return sendApiError(ctx, databaseUnavailable());
      }
      logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
      sendError(ctx, 500, 'internal', 'Internal error.');
    }
  };
}
