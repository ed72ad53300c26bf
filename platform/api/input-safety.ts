// Values a client sends that PostgreSQL (and PGlite) cannot store: a NUL character is refused by
// text and jsonb alike (SQLSTATE 22021), and a lone UTF-16 surrogate either fails a jsonb insert or
// is silently turned into U+FFFD on a text column. Both are refused at the door, naming the field,
// so that nothing a client sends can become a database error; so are bytes that are not UTF-8 in a
// body or a URL, which decoding would silently turn into U+FFFD. Timestamps are kept to a range both
// PostgreSQL and JavaScript read alike.
import { isUtf8 } from 'node:buffer';
import { Kind, visit, type DocumentNode, type ValueNode } from 'graphql';
import { ApiError, type ErrorDetail } from './errors.ts';

const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** JSON nested deeper than this is refused: no request needs it, and walking it costs stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * Text that arrives as bytes (a body, a URL) must be UTF-8: decoded leniently, an invalid sequence
 * would become U+FFFD and be stored as if the client had sent it. Refused instead, naming the field.
 */
export const INVALID_UTF8 = 'must be valid UTF-8 (it holds an invalid byte sequence)';

/** The ASCII bytes that the checks made on raw bytes (bodies, URLs) look for, before anything is decoded. */
export const ASCII = {
  quote: 0x22,
  backslash: 0x5c,
  percent: 0x25,
  plus: 0x2b,
  ampersand: 0x26,
  equals: 0x3d,
  colon: 0x3a,
  comma: 0x2c,
  space: 0x20,
  braceOpen: 0x7b,
  braceClose: 0x7d,
  bracketOpen: 0x5b,
  bracketClose: 0x5d,
} as const;

/**
 * Where a JSON text that is well-formed but not valid UTF-8 holds its first invalid sequence: the
 * path of the string (joined with dots, as findUnsafeValue names fields; '' for the whole text) and
 * whether that string is an object's key (then the path is the object's), or null when none does.
 * An invalid sequence never hides an ASCII byte (a decoder ends it before one), so quotes, brackets
 * and commas are found on the bytes; a string's bytes are judged as they came, before any escape is
 * read, so a U+FFFD the client sent (encoded, or as \ufffd) is never mistaken for one.
 */
export function invalidUtf8InJson(bytes: Uint8Array): { field: string; key: boolean } | null {
  // Per open array or object: the index or key of the member being read, and (objects) whether the next string is a key.
  const levels: { at: string | number; array: boolean; expectsKey: boolean }[] = [];
  const pathTo = (depth: number) => levels.slice(0, depth).map((level) => level.at).join('.');
  let start = -1;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    const level = levels[levels.length - 1];
    if (start >= 0) {
      if (byte === ASCII.backslash) i++;
      else if (byte === ASCII.quote) {
        const text = bytes.subarray(start, i + 1);
        const key = level !== undefined && level.expectsKey;
        if (!isUtf8(text)) return { field: pathTo(key ? levels.length - 1 : levels.length), key };
        if (key) level.at = JSON.parse(Buffer.from(text).toString('utf8')) as string;
        start = -1;
      }
    } else if (byte === ASCII.quote) start = i;
    else if (byte === ASCII.braceOpen) levels.push({ at: '', array: false, expectsKey: true });
    else if (byte === ASCII.bracketOpen) levels.push({ at: 0, array: true, expectsKey: false });
    else if (byte === ASCII.braceClose || byte === ASCII.bracketClose) levels.pop();
    else if (byte === ASCII.colon && level) level.expectsKey = false;
    else if (byte === ASCII.comma && level) {
      if (level.array) level.at = (level.at as number) + 1;
      else level.expectsKey = true;
    } else if (byte >= 0x80) return { field: '', key: false };
  }
  return null;
}

/** Percent-decoded bytes of a URL's or a form's component (and + as a space, for forms and queries). */
export function percentDecoded(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    const digits = byte === ASCII.percent ? String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0) : '';
    // As URLSearchParams reads them: a % without two hex digits stays itself.
    if (/^[0-9a-f]{2}$/i.test(digits)) {
      out[n++] = Number.parseInt(digits, 16);
      i += 2;
    } else out[n++] = byte === ASCII.plus ? ASCII.space : byte;
  }
  return out.subarray(0, n);
}

/**
 * The first parameter of form-encoded text (a body, or a URL's query, as bytes) whose name or value
 * is not UTF-8 once percent-decoded: its name, '' when the name itself is not, or null.
 */
export function invalidUtf8InForm(bytes: Uint8Array): string | null {
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(ASCII.ampersand, start);
    if (end < 0) end = bytes.length;
    const pair = bytes.subarray(start, end);
    const equals = pair.indexOf(ASCII.equals);
    const name = percentDecoded(equals < 0 ? pair : pair.subarray(0, equals));
    if (!isUtf8(name)) return '';
    if (equals >= 0 && !isUtf8(percentDecoded(pair.subarray(equals + 1)))) return name.toString('utf8');
    start = end + 1;
  }
  return null;
}

/** Throws validation_failed naming the first query parameter (of a URL's raw query) that is not UTF-8 once percent-decoded. */
export function assertUtf8Query(querystring: string): void {
  const name = invalidUtf8InForm(Buffer.from(querystring, 'latin1'));
  if (name === null) return;
  const field = name || 'query';
  throw new ApiError('validation_failed', `The request query is not valid: ${field}: ${INVALID_UTF8}.`, [{ field, issue: INVALID_UTF8 }]);
}

/** Throws validation_failed naming the first parameter of a raw path that is not UTF-8 once percent-decoded (template: /a/{name}/b). */
export function assertUtf8Path(template: string, path: string): void {
  const segments = path.split('/');
  template.split('/').forEach((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name && segments[index] !== undefined && !isUtf8(percentDecoded(Buffer.from(segments[index], 'latin1')))) {
      throw new ApiError('validation_failed', `The request path is not valid: ${name}: ${INVALID_UTF8}.`, [{ field: name, issue: INVALID_UTF8 }]);
    }
  });
}

/** Why a string cannot be stored, or null when it can. */
export function textIssue(value: string): string | null {
  if (NUL.test(value)) return 'must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (it holds a lone surrogate)';
  return null;
}

/** Values (strings, numbers, arrays, objects…) a request's body or variables may hold: none needs more. */
export const MAX_REQUEST_VALUES = 10_000;

/** An array or object being walked: its keys (objects) and the next one to visit. */
interface Frame {
  container: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  next: number;
  path: string;
  depth: number;
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Checks one value; pushes a frame for an array or object, whose keys are checked here. */
function visitValue(value: unknown, path: string, depth: number, frames: Frame[]): ErrorDetail | null {
  if (typeof value === 'string') {
    const issue = textIssue(value);
    return issue ? { field: path, issue } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return { field: path, issue: `nested more than ${MAX_JSON_DEPTH} levels deep` };
  if (Array.isArray(value)) {
    frames.push({ container: value, keys: null, next: 0, path, depth });
    return null;
  }
  const keys = Object.keys(value);
  for (const key of keys) {
    const keyIssue = textIssue(key);
    if (keyIssue) return { field: path, issue: `a key ${keyIssue}` };
    // No field is called so; a schema's record would silently drop it (it sets the prototype).
    if (key === '__proto__') return { field: join(path, key), issue: 'not an accepted key' };
  }
  frames.push({ container: value as Record<string, unknown>, keys, next: 0, path, depth });
  return null;
}

/**
 * The first string (value or object key) in a JSON-like value that cannot be stored, a value nested
 * too deeply, or (with maxValues) a value holding more values than that. Depth first with one frame
 * per level: what it holds is bounded by the depth, not by the width (a 500,000-element array costs
 * no more memory than a short one), and no input can exhaust the stack.
 */
export function findUnsafeValue(value: unknown, root: string, maxValues = Infinity): ErrorDetail | null {
  const frames: Frame[] = [];
  const first = visitValue(value, root, 0, frames);
  if (first) return first;
  let count = 1;
  while (frames.length) {
    const frame = frames[frames.length - 1];
    const length = frame.keys ? frame.keys.length : (frame.container as unknown[]).length;
    if (frame.next >= length) {
      frames.pop();
      continue;
    }
    if (++count > maxValues) return { field: root, issue: `holds more than ${maxValues} values` };
    const index = frame.next++;
    const key = frame.keys ? frame.keys[index] : index;
    const child = frame.keys ? (frame.container as Record<string, unknown>)[key] : (frame.container as unknown[])[index];
    const found = visitValue(child, join(frame.path, key), frame.depth + 1, frames);
    if (found) return found;
  }
  return null;
}

/** Throws validation_failed naming the field when the value holds something that cannot be stored. */
export function assertStorable(value: unknown, root: string, where = 'request'): void {
  const detail = findUnsafeValue(value, root);
  if (detail) throw new ApiError('validation_failed', `The ${where} is not valid: ${detail.field} ${detail.issue}.`, [detail]);
}

/** The first string literal of a GraphQL document (argument values, at any depth) that cannot be stored. */
export function findUnsafeLiteral(document: DocumentNode): ErrorDetail | null {
  let found: ErrorDetail | null = null;
  const check = (node: ValueNode, path: string) => {
    const stack: { node: ValueNode; path: string }[] = [{ node, path }];
    while (stack.length && !found) {
      const item = stack.pop()!;
      if (item.node.kind === Kind.STRING) {
        const issue = textIssue(item.node.value);
        if (issue) found = { field: item.path, issue };
      } else if (item.node.kind === Kind.LIST) {
        item.node.values.forEach((value, index) => stack.push({ node: value, path: `${item.path}.${index}` }));
      } else if (item.node.kind === Kind.OBJECT) {
        for (const field of item.node.fields) stack.push({ node: field.value, path: `${item.path}.${field.name.value}` });
      }
    }
  };
  visit(document, {
    Argument(node) {
      if (!found) check(node.value, node.name.value);
      return false;
    },
  });
  return found;
}

/** Literals and variables of a GraphQL operation, checked like any other input. */
export function assertStorableOperation(document: DocumentNode, variables: Record<string, unknown> | undefined, checkLiterals = true): void {
  const found = (checkLiterals ? findUnsafeLiteral(document) : null) ?? (variables ? findUnsafeValue(variables, '', MAX_REQUEST_VALUES) : null);
  // A problem with the variables as a whole (a key of theirs, their number) names them.
  const detail = found && !found.field ? { ...found, field: 'variables' } : found;
  if (detail) throw new ApiError('validation_failed', `The request is not valid: ${detail.field} ${detail.issue}.`, [detail]);
}

// Timestamps: PostgreSQL has no year 0 and JavaScript none beyond 275760; a competition platform
// needs neither. Anything outside these years is refused as out of range.
export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;

export function timestampIssue(date: Date): string | null {
  if (Number.isNaN(date.getTime())) return 'not a valid timestamp';
  const year = date.getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return `must lie between the years ${MIN_YEAR} and ${MAX_YEAR}`;
  return null;
}

/**
 * A database error caused by a value rather than by the platform: a data exception (SQLSTATE class
 * 22, e.g. 22021 invalid byte sequence, 22008 datetime out of range, 22003 numeric out of range).
 * The checks above should make these unreachable; this is the last line, so that a value that slips
 * through still answers 400, never 500.
 */
export function isDataException(error: unknown): boolean {
  return /^22[0-9A-Z]{3}$/.test(sqlStateOf(error) ?? '');
}

function sqlStateOf(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current = error as Record<string, unknown> | undefined;
  // pg puts the SQLSTATE on the error; Prisma wraps it in meta.driverAdapterError.cause.
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    for (const key of ['originalCode', 'code'] as const) {
      const code = current[key];
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('P')) return code;
    }
    const meta = current.meta as Record<string, unknown> | undefined;
    current = (current.cause ?? meta?.driverAdapterError ?? undefined) as Record<string, unknown> | undefined;
  }
  return undefined;
}
