import type Router from '@koa/router';
import type { Database } from '../../platform/db/database.ts';
import type { Registry } from 'prom-client';
import { sendError } from './problem.ts';

/** /readyz waits this long for the database's answer before it says not ready. */
const READY_TIMEOUT_MS = 2_000;

/** Whether the database answers a trivial statement within READY_TIMEOUT_MS. */
function databaseAnswers(db: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
  const answer = db.query('SELECT 1').then(
    () => true,
    () => false,
  );
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

export function mountHealth(router: Router, db: Database, registry: Registry) {
  // Liveness: the process serves requests. It never asks the database: an outage is no reason to
  // restart the server (its pool reconnects by itself), and restarting every instance at once
  // would only add load when the database comes back (docs/deployment.md#health-and-metrics).
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  // Readiness: this instance can serve API requests now, that is its database answers.
  router.get('/readyz', async (ctx) => {
    if (await databaseAnswers(db)) {
      ctx.body = { status: 'ready', database: db.kind };
      return;
    }
    sendError(ctx, 503, 'service_unavailable', 'The database is not reachable: this instance is not ready.', [{ issue: 'database_unavailable' }]);
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
