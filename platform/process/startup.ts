// How a process that fails to start says so: one sentence on stderr and exit code 1, never a stack
// trace and never a process that lives on without serving (docs/deployment.md#start-up).

/** A start-up failure whose message is already the one sentence an operator reads. */
export class StartupError extends Error {}

/** The one line that explains why a start failed: a StartupError's own sentence, else `prefix: the error`. */
export function describeStartupFailure(error: unknown, prefix = 'Could not start'): string {
  if (error instanceof StartupError) return error.message.split('\n')[0];
  const message = String((error as Error)?.message ?? error).split('\n')[0];
  return `${prefix}: ${message}`;
}

/** Prints why the start failed and exits 1 (the process's lock on its data directory goes with it). */
export function exitWithStartupFailure(error: unknown, prefix?: string): never {
  console.error(describeStartupFailure(error, prefix));
  process.exit(1);
}
