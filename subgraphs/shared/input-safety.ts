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

/**
 * The first string (value or object key) in a JSON-like value that cannot be stored, or a value
 * nested too deeply. Iterative, so that no input can exhaust the stack.
 */
export function findUnsafeValue(value: unknown, root: string): ErrorDetail | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const issue = textIssue(item.value);
      if (issue) return { field: item.path, issue };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_JSON_DEPTH) return { field: item.path, issue: `nested more than ${MAX_JSON_DEPTH} levels deep` };
    const join = (key: string | number) => (item.path ? `${item.path}.${key}` : String(key));
    if (Array.isArray(item.value)) {
      item.value.forEach((element, index) => stack.push({ value: element, path: join(index), depth: item.depth + 1 }));
      continue;
    }
    for (const [key, element] of Object.entries(item.value as Record<string, unknown>)) {
      const keyIssue = textIssue(key);
      if (keyIssue) return { field: item.path || 'body', issue: `a key ${keyIssue}` };
      stack.push({ value: element, path: join(key), depth: item.depth + 1 });
    }
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
  const detail = (checkLiterals ? findUnsafeLiteral(document) : null) ?? (variables ? findUnsafeValue(variables, '') : null);
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
