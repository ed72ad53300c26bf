// Checks inside a pipelined transaction (Database.transaction). Its statements are sent together, so
// Node cannot look at one answer and decide whether the rest should run; a guard makes the statement
// fail instead, which aborts the transaction: the failing arm of a CASE casts a tagged text to
// integer (SQLSTATE 22P02), and the tag names the check and carries one value back.

const TAG = 'write_guard';

/**
 * SQL that fails the statement with check `check`, reporting `valueSql`. The value must depend on
 * a row (a column, an aggregate): a constant would be folded, and raised, while the statement is planned.
 */
export const failWith = (check: string, valueSql: string) => `CAST('${TAG}:${check}:' || (${valueSql}) AS integer)`;

export interface GuardFailure {
  check: string;
  value: string;
}

/** The guard that failed, if this error is one (any other error, 22P02 included, is not). */
export function guardFailure(error: unknown): GuardFailure | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== '22P02' || typeof message !== 'string') return null;
  // Matched without the quotes around the value: a server with other lc_messages quotes differently.
  const match = new RegExp(`${TAG}:([a-z_]+):([A-Za-z0-9_-]*)`).exec(message);
  return match ? { check: match[1], value: match[2] } : null;
}
