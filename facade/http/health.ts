import type Router from '@koa/router';
import type { Database } from '../../subgraphs/shared/db/database.ts';
import type { Registry } from 'prom-client';

export function mountHealth(router: Router, db: Database, registry: Registry) {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await db.query('SELECT 1');
      ctx.body = { status: 'ready', database: db.kind };
    } catch {
      ctx.status = 503;
      ctx.body = { error: { code: 'service_unavailable', message: 'The database is not reachable.', requestId: ctx.state.requestId } };
    }
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
