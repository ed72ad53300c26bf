// Request bodies: JSON for the API, form-encoded for OAuth, 1 MiB at most. Read only when a route
// declares a body, with a content type it accepts.
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../../subgraphs/shared/errors.ts';

export const BODY_LIMIT = 1024 * 1024;

export type BodyType = 'json' | 'form';

export async function readBody(ctx: Context, type: BodyType): Promise<unknown> {
  const length = Number(ctx.get('content-length') || '0');
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && length === 0) return undefined;
  if (length > BODY_LIMIT) {
    throw new ApiError('validation_failed', 'The request body is too large (at most 1 MiB).', [{ field: 'body', issue: 'payload_too_large' }], { status: 413 });
  }
  const expected = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  if (!(type === 'json' ? ctx.is('application/json', '+json') : ctx.is('urlencoded'))) {
    throw new ApiError('validation_failed', `The request body must be ${expected}.`, [{ field: 'content-type', issue: `must be ${expected}` }], { status: 415 });
  }
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: BODY_LIMIT, encoding: 'utf8', length: chunked ? undefined : length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new ApiError('validation_failed', 'The request body is too large (at most 1 MiB).', [{ field: 'body', issue: 'payload_too_large' }], { status: 413 });
    }
    throw new ApiError('validation_failed', 'The request body could not be read.', [{ field: 'body', issue: 'unreadable' }]);
  }
  if (type === 'form') return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.', [{ field: 'body', issue: 'malformed JSON' }]);
  }
}
