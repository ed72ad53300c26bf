// Imported first by every entry point (npm start, start:subgraph, router, worker and the database
// tools): every setting is parsed here, before any other module is evaluated, so that a bad value
// stops the start with its one sentence and exit code 1 rather than a stack trace from whichever
// module read it first.
import { readConfig } from './config.ts';
import { exitWithStartupFailure } from './startup.ts';

try {
  readConfig();
} catch (error) {
  exitWithStartupFailure(error);
}
