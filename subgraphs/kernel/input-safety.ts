// Values a client sends that PostgreSQL (and PGlite) cannot store: a NUL character is refused by
// text and jsonb alike (SQLSTATE 22021), and a lone UTF-16 surrogate either fails a jsonb insert or
// is silently turned into U+FFFD on a text column. Both are refused at the door, naming the field,
// so that nothing a client sends can become a database error. Timestamps are kept to a range both
// PostgreSQL and JavaScript read alike.
import { Kind, visit, type DocumentNode, type ValueNode } from 'graphql';
import { ApiError, type ErrorDetail } from './errors.ts';

const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** JSON nested deeper than this is refused: no request needs it, and walking it costs stack. */
export const MAX_JSON_DEPTH = 32;

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
