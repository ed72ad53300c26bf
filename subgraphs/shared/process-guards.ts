// A server process must never exit because of one request: an exception or rejection that escapes
// every handler is logged (with the stack, for the operator) and the process carries on. The request
// it belonged to, if any, has already been answered 500 by the error middleware or times out.
import type { Logger } from 'pino';

let installed = false;

export function installProcessGuards(logger: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection (the process carries on)');
  });
  process.on('uncaughtException', (error, origin) => {
    logger.error({ err: error, origin }, 'uncaught exception (the process carries on)');
  });
}
