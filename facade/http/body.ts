// Request bodies: JSON for the API, form-encoded for OAuth, 1 MiB at most. Read only when a route
// declares a body, with a content type it accepts. Bodies are read before any credential is checked,
// so what they may cost is bounded here, for anyone: the bytes of bodies received (in all and per
// client address, as they arrive, until the request is answered), and a body's number of values (and
// a JSON body's nesting), counted on the raw bytes before JSON.parse or URLSearchParams builds anything.
import type { Context } from 'koa';
import { ApiError } from '../../platform/api/errors.ts';
import { isUtf8 } from 'node:buffer';
import { ASCII, INVALID_UTF8, invalidUtf8InForm, invalidUtf8InJson, MAX_JSON_DEPTH, MAX_REQUEST_VALUES } from '../../platform/api/input-safety.ts';
import { InFlightBytes, registerMemoryBudget } from '../graphql/document-memory.ts';
import { dropRest } from './early-answers.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Bodies being received or answered: 16 MiB in all, 4 MiB per client address. */
const bodiesInFlight = new InFlightBytes(16 * BODY_LIMIT, 4 * BODY_LIMIT);
registerMemoryBudget('request_bodies', bodiesInFlight.maxBytes, () => bodiesInFlight.bytes);


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
      if (byte === ASCII.backslash) i++;
      else if (byte === ASCII.quote) inString = false;
    } else if (byte === ASCII.quote) inString = true;
    else if (byte === ASCII.bracketOpen || byte === ASCII.braceOpen) {
      if (++depth > MAX_JSON_DEPTH) return `nested more than ${MAX_JSON_DEPTH} levels deep`;
    } else if (byte === ASCII.bracketClose || byte === ASCII.braceClose) depth--;
    else if (byte === ASCII.comma && ++commas >= MAX_REQUEST_VALUES) return `holds more than ${MAX_REQUEST_VALUES} values`;
  }
  return null;
}

function count(bytes: Uint8Array, byte: number): number {
  let n = 0;
  for (let i = bytes.indexOf(byte); i !== -1; i = bytes.indexOf(byte, i + 1)) n++;
  return n;
}

/**
 * Reads the body as it arrives, holding in the budget what has arrived so far (a client trickling a
 * body holds what it sent, not what it announced) until the answer is sent. Past the budget, the
 * request is answered at once and the rest of its body is read without being kept (early-answers.ts).
 */
function receive(ctx: Context, expected: number | undefined): Promise<Buffer> {
  const request = ctx.req;
  const hold = bodiesInFlight.reserve(ctx.ip, 0);
  if (typeof hold === 'string') {
    dropRest(ctx, 0, { limit: BODY_LIMIT });
    throw budgetRefusal(hold);
  }
  ctx.res.once('close', hold.release);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error: ApiError | null, rest: 'drop' | 'drop and close' | 'leave' = 'leave') => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      if (error) {
        if (rest !== 'leave') dropRest(ctx, received, { limit: BODY_LIMIT, close: rest === 'drop and close' });
        reject(error);
      } else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > BODY_LIMIT || (expected !== undefined && received > expected)) return finish(tooLarge(), 'drop and close');
      if (!hold.resize(received)) {
        return finish(budgetRefusal(bodiesInFlight.heldBy(ctx.ip) + chunk.length > bodiesInFlight.maxPerClient ? 'client' : 'total'), 'drop');
      }
      chunks.push(chunk);
    };
    // A body that broke off or was cut short: its client is gone or done sending.
    const onEnd = () => finish(expected !== undefined && received !== expected ? unreadable() : null);
    const onError = () => finish(unreadable());
    request.on('data', onData).once('end', onEnd).once('error', onError).once('aborted', onError);
  });
}

const unreadable = () => new ApiError('validation_failed', 'The request body could not be read.', [{ field: 'body', issue: 'unreadable' }]);

function budgetRefusal(whose: 'client' | 'total'): ApiError {
  const headers = { 'Retry-After': '1' };
  return whose === 'client'
    ? new ApiError('rate_limited', 'Too many request bodies from this address are being received at once: retry in a second.', [{ issue: 'bodies_in_flight' }], { headers })
    : new ApiError('service_unavailable', 'The server is receiving too many request bodies at once: retry in a second.', [{ issue: 'bodies_in_flight' }], { headers });
}

// The connection is closed after the answer (early-answers.ts), the rest of the body dropped meanwhile.
const tooLarge = () => new ApiError('validation_failed', 'The request body is too large (at most 1 MiB).', [{ field: 'body', issue: 'payload_too_large' }], { status: 413 });

export type BodyType = 'json' | 'form';

export interface BodyOptions {
  /**
   * A form parameter sent twice: refused with 400 (the default: RFC 6749 section 3.1 for the OAuth
   * endpoints), or kept as the list of its values for a caller that judges repeats itself.
   */
  repeated?: 'refuse' | 'list';
  /** A JSON member whose fields errors name from itself, as the other checks of it do (GraphQL's variables). */
  fieldsWithin?: string;
}

/** Text that is not UTF-8, refused rather than decoded into U+FFFD. */
function notUtf8(field: string, issue = INVALID_UTF8): ApiError {
  return new ApiError('validation_failed', `The request body is not valid: ${field}: ${issue}.`, [{ field, issue }]);
}

/** A parameter name as an error message may quote it: printable ASCII without quotes or backslashes (RFC 6749 section 5.2), 100 at most. */
const quotable = (name: string) => (/^[\x20\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(name) ? name : null);

export async function readBody(ctx: Context, type: BodyType, options: BodyOptions = {}): Promise<unknown> {
  const length = Number(ctx.get('content-length') || '0');
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && length === 0) return undefined;
  if (length > BODY_LIMIT) {
    dropRest(ctx, 0, { limit: BODY_LIMIT, close: true });
    throw tooLarge();
  }
  const expected = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  if (!(type === 'json' ? ctx.is('application/json', '+json') : ctx.is('urlencoded'))) {
    dropRest(ctx, 0, { limit: BODY_LIMIT });
    throw new ApiError('validation_failed', `The request body must be ${expected}.`, [{ field: 'content-type', issue: `must be ${expected}` }], { status: 415 });
  }
  const bytes = await receive(ctx, chunked ? undefined : length);
  if (type === 'form') {
    // Each & separates two values: bounded like a JSON body's, before URLSearchParams builds them.
    if (count(bytes, ASCII.ampersand) >= MAX_REQUEST_VALUES) {
      throw new ApiError('validation_failed', `The request body holds more than ${MAX_REQUEST_VALUES} values.`, [{ field: 'body', issue: `holds more than ${MAX_REQUEST_VALUES} values` }]);
    }
    const invalid = invalidUtf8InForm(bytes);
    if (invalid !== null) throw notUtf8(quotable(invalid) ?? 'body');
    // A parameter sent twice is refused, not resolved to one of its values (RFC 6749 section 3.1).
    const form = new Map<string, string | string[]>();
    for (const [name, value] of new URLSearchParams(bytes.toString('utf8'))) {
      // Sent without a value is as if omitted (RFC 6749 section 3.1).
      if (value === '') continue;
      const earlier = form.get(name);
      if (earlier === undefined) form.set(name, value);
      else if (options.repeated === 'list') form.set(name, [...(Array.isArray(earlier) ? earlier : [earlier]), value]);
      else {
        const quoted = quotable(name);
        throw new ApiError('validation_failed', `The request body repeats ${quoted ?? 'a parameter'}: send each parameter once.`, [{ field: quoted ?? 'body', issue: 'repeated' }]);
      }
    }
    return Object.fromEntries(form);
  }
  const issue = jsonShapeIssue(bytes);
  if (issue) throw new ApiError('validation_failed', `The request body ${issue}.`, [{ field: 'body', issue }]);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.', [{ field: 'body', issue: 'malformed JSON' }]);
  }
  if (!isUtf8(bytes)) {
    // Well-formed once decoded, so the strings can be told apart on the bytes: the first that is not UTF-8 is named.
    const found = invalidUtf8InJson(bytes) ?? { field: '', key: false };
    const within = options.fieldsWithin;
    const field = within && found.field.startsWith(`${within}.`) ? found.field.slice(within.length + 1) : found.field;
    throw notUtf8(field || 'body', found.key ? `a key ${INVALID_UTF8}` : INVALID_UTF8);
  }
  return value;
}
