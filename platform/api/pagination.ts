// Keyset pagination: opaque cursors holding the sort key of the last item, bound to the list and
// filters they came from, so that a cursor from another list is refused instead of misread.
import { createHash } from 'node:crypto';
import { ApiError } from './errors.ts';
import { textIssue } from './input-safety.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export function pageLimit(limit: number | null | undefined): number {
  if (limit == null) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ApiError('validation_failed', `limit must be an integer from 1 to ${MAX_LIMIT}.`, [{ field: 'limit', issue: `must be 1–${MAX_LIMIT}` }]);
  }
  return limit;
}

const bindingOf = (binding: string) => createHash('sha256').update(binding).digest('base64url').slice(0, 10);

export function encodeCursor(binding: string, key: unknown[]): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(binding), k: key })).toString('base64url');
}

const isKeyPart = (part: unknown) =>
  (typeof part === 'string' && part.length <= 200 && textIssue(part) === null) ||
  (typeof part === 'number' && Number.isFinite(part) && Math.abs(part) < 2 ** 31);

export function decodeCursor(binding: string, cursor: string | null | undefined): unknown[] | null {
  if (cursor == null || cursor === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { b?: string; k?: unknown };
    // The binding is no secret: a cursor is client input like any other, so each part of its key
    // must be something the statements can take (a storable string, an int4-sized finite number).
    if (parsed.b === bindingOf(binding) && Array.isArray(parsed.k) && parsed.k.every(isKeyPart)) return parsed.k;
  } catch {
    // fall through
  }
  throw new ApiError('validation_failed', 'cursor is not a cursor of this list (use meta.nextCursor of the previous page, with the same filters).', [
    { field: 'cursor', issue: 'invalid' },
  ]);
}

export interface Page<T> {
  data: T[];
  meta: { nextCursor: string | null; hasMore: boolean };
}

/** Builds a page from limit + 1 fetched rows. */
export function pageOf<R, T>(rows: R[], limit: number, binding: string, keyOf: (row: R) => unknown[], map: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: items.map(map),
    meta: { hasMore, nextCursor: hasMore ? encodeCursor(binding, keyOf(items[items.length - 1])) : null },
  };
}

/** Prisma's where for the rows after `values` in the order of `fields`: a keyset condition. */
export function keysetAfter(fields: string[], values: unknown[], direction: 'asc' | 'desc' = 'asc'): Record<string, unknown> {
  const beyond = direction === 'asc' ? 'gt' : 'lt';
  return {
    OR: fields.map((field, i) => ({
      ...Object.fromEntries(fields.slice(0, i).map((earlier, j) => [earlier, values[j]])),
      [field]: { [beyond]: values[i] },
    })),
  };
}

export interface KeysetPageSpec<R, T> {
  /** Names the list and its filters: a cursor of another list is refused. */
  binding: string;
  args: { cursor?: string | null; limit?: number | null };
  /** The sort key; its last field is unique. */
  order: (keyof R & string)[];
  direction?: 'asc' | 'desc';
  where: Record<string, unknown>;
  /** The model's findMany with these arguments. */
  find(where: Record<string, unknown>, orderBy: Record<string, 'asc' | 'desc'>[], take: number): Promise<R[]>;
  map?: (row: R) => T;
}

/** A keyset page through Prisma's model API: the page starts at the cursor's index position. */
export async function keysetPage<R, T = R>(spec: KeysetPageSpec<R, T>): Promise<Page<T>> {
  const limit = pageLimit(spec.args.limit);
  const direction = spec.direction ?? 'asc';
  const after = decodeCursor(spec.binding, spec.args.cursor);
  if (after && after.length !== spec.order.length) {
    throw new ApiError('validation_failed', 'cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const where = after ? { AND: [spec.where, keysetAfter(spec.order, after, direction)] } : spec.where;
  const rows = await spec.find(where, spec.order.map((field) => ({ [field]: direction })), limit + 1);
  const key = (row: R) => spec.order.map((field) => (row[field] instanceof Date ? (row[field] as Date).toISOString() : row[field]));
  return pageOf(rows, limit, spec.binding, key, spec.map ?? ((row) => row as unknown as T));
}
