// A server process must never exit because of one request: an exception or rejection that escapes
// every handler is logged (with the stack, for the operator) and the process carries on. The request
// it belonged to, if any, has already been answered 500 by the error middleware or times out.
// Until the process has started (startupFinished), though, nothing is serving yet: an escaped error
// then means the start failed, and the process says so in one sentence and exits 1 instead of living
// on without a port or a database.
import type { Logger } from 'pino';
import { exitWithStartupFailure } from './startup.ts';

let installed = false;
let starting = true;

export function installProcessGuards(logger: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    if (starting) exitWithStartupFailure(reason);
    logger.error({ err: reason }, 'unhandled promise rejection (the process carries on)');
  });
  process.on('uncaughtException', (error, origin) => {
    if (starting) exitWithStartupFailure(error);
    logger.error({ err: error, origin }, 'uncaught exception (the process carries on)');
  });
}

/** From here on an escaped error is logged and the process carries on. */
export function startupFinished(): void {
  starting = false;
}
