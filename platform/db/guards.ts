// Checks inside a pipelined transaction (Database.transaction). Its statements are sent together, so
// Node cannot look at one answer and decide whether the rest should run; a guard makes the statement
// fail instead, which aborts the transaction: the failing arm of a CASE calls write_guard_fail
// (prisma/functions/), which raises the platform's own SQLSTATE with the check's name and one value.

const GUARD_SQLSTATE = 'WG001';
const CHECK_NAME = /^[a-z_]+$/;

/** SQL that fails the statement with check `check`, reporting `valueSql` (any expression; it is sent as text). */
export function failWith(check: string, valueSql: string): string {
  if (!CHECK_NAME.test(check)) throw new Error(`A guard's check is named in lower case and underscores: ${check}`);
  return `write_guard_fail('${check}', (${valueSql})::text)`;
}

export interface GuardFailure {
  check: string;
  value: string;
}

/** The guard that failed, if this error is one (any other error is not). */
export function guardFailure(error: unknown): GuardFailure | null {
  const { code, constraint, detail } = (error ?? {}) as { code?: unknown; constraint?: unknown; detail?: unknown };
  if (code !== GUARD_SQLSTATE || typeof constraint !== 'string') return null;
  return { check: constraint, value: typeof detail === 'string' ? detail : '' };
}
