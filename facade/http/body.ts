// Request bodies: JSON for the API, form-encoded for OAuth, 1 MiB at most. Read only when a route
// declares a body, with a content type it accepts. Bodies are read before any credential is checked,
// so what they may cost is bounded here, for anyone: the bytes of bodies being received (in all and
// per client address, until the request is answered), and a JSON body's nesting and number of values,
// counted on the raw bytes before JSON.parse builds anything.
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../../subgraphs/shared/errors.ts';
import { MAX_JSON_DEPTH, MAX_REQUEST_VALUES } from '../../subgraphs/shared/input-safety.ts';
import { InFlightBytes, registerMemoryBudget } from '../graphql/document-memory.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Bodies being received or answered: 16 MiB in all, 4 MiB per client address. */
const bodiesInFlight = new InFlightBytes(16 * BODY_LIMIT, 4 * BODY_LIMIT);
registerMemoryBudget('request_bodies', bodiesInFlight.maxBytes, () => bodiesInFlight.bytes);

const BRACKET_OPEN = 0x5b;
const BRACE_OPEN = 0x7b;
const BRACKET_CLOSE = 0x5d;
const BRACE_CLOSE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why a JSON text must not be parsed, or null: nested deeper than MAX_JSON_DEPTH, or more commas
 * than MAX_REQUEST_VALUES (each comma separates two values, so the parsed value would hold more).
 * One pass over the bytes; UTF-8 continuation bytes never look like these ASCII characters.
 */
export function jsonShapeIssue(bytes: Uint8Array): string | null {
  let depth = 0;
  let commas = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === BRACKET_OPEN || byte === BRACE_OPEN) {
      if (++depth > MAX_JSON_DEPTH) return `nested more than ${MAX_JSON_DEPTH} levels deep`;
    } else if (byte === BRACKET_CLOSE || byte === BRACE_CLOSE) depth--;
    else if (byte === COMMA && ++commas >= MAX_REQUEST_VALUES) return `holds more than ${MAX_REQUEST_VALUES} values`;
  }
  return null;
}

const tooLarge = () => new ApiError('validation_failed', 'The request body is too large (at most 1 MiB).', [{ field: 'body', issue: 'payload_too_large' }], { status: 413 });

export type BodyType = 'json' | 'form';

export async function readBody(ctx: Context, type: BodyType): Promise<unknown> {
  const length = Number(ctx.get('content-length') || '0');
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && length === 0) return undefined;
  if (length > BODY_LIMIT) throw tooLarge();
  const expected = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  if (!(type === 'json' ? ctx.is('application/json', '+json') : ctx.is('urlencoded'))) {
    throw new ApiError('validation_failed', `The request body must be ${expected}.`, [{ field: 'content-type', issue: `must be ${expected}` }], { status: 415 });
  }
  // Held until the answer is sent: the body and what is parsed from it live that long.
  const hold = bodiesInFlight.reserve(ctx.ip, chunked ? BODY_LIMIT : length);
  // Refused unread: the connection is closed after the answer rather than drained of the body.
  const refused = { 'Retry-After': '1', Connection: 'close' };
  if (hold === 'client') {
    throw new ApiError('rate_limited', 'Too many request bodies from this address are being received at once: retry in a second.', [{ issue: 'bodies_in_flight' }], { headers: refused });
  }
  if (hold === 'total') {
    throw new ApiError('service_unavailable', 'The server is receiving too many request bodies at once: retry in a second.', [{ issue: 'bodies_in_flight' }], { headers: refused });
  }
  ctx.res.once('close', hold.release);
  // A Buffer, decoded once complete: a body still arriving holds its chunks outside the JS heap.
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: BODY_LIMIT, length: chunked ? undefined : length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw tooLarge();
    throw new ApiError('validation_failed', 'The request body could not be read.', [{ field: 'body', issue: 'unreadable' }]);
  }
  hold.resize(bytes.length);
  if (type === 'form') return Object.fromEntries(new URLSearchParams(bytes.toString('utf8')));
  const issue = jsonShapeIssue(bytes);
  if (issue) throw new ApiError('validation_failed', `The request body ${issue}.`, [{ field: 'body', issue }]);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.', [{ field: 'body', issue: 'malformed JSON' }]);
  }
}
