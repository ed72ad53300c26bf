import type Router from '@koa/router';
import type { Database } from '../../subgraphs/shared/db/database.ts';
import type { Registry } from 'prom-client';
import { sendError } from './problem.ts';

export function mountHealth(router: Router, db: Database, registry: Registry) {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await db.query('SELECT 1');
      ctx.body = { status: 'ready', database: db.kind };
    } catch {
      sendError(ctx, 503, 'service_unavailable', 'The database is not reachable.');
    }
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
