// GET /realtime/graphql-ws.js: the graphql-ws client for browsers (its UMD build, a global
// `graphqlWs`), served from the installed package, so that a page following the realtime gateway
// needs nothing from a CDN and works offline against a fresh `npm start` (docs/realtime.md).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';

const require = createRequire(import.meta.url);

export const CLIENT_SCRIPT_PATH = '/realtime/graphql-ws.js';

export function mountClientScript(router: Router) {
  // The package's exports map hides umd/ from require.resolve: found beside its package.json.
  let script: Promise<Buffer> | undefined;
  router.get(CLIENT_SCRIPT_PATH, async (ctx) => {
    script ??= readFile(path.join(path.dirname(require.resolve('graphql-ws/package.json')), 'umd/graphql-ws.min.js'));
    ctx.type = 'application/javascript; charset=utf-8';
    // It changes only with the installed package: a day's caching, revalidated after.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Pages of any origin (an overlay opened from a file, a streaming tool's browser source) load it.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.body = await script;
  });
}
