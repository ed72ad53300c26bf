// GET /realtime/graphql-ws.js: the graphql-ws client for browsers (its UMD build, a global
// `graphqlWs`), served from the installed package, so that a page following the realtime gateway
// needs nothing from a CDN and works offline against a fresh `npm start` (docs/realtime.md).
import type Router from '@koa/router';
import { assetServer, packageFile } from '../http/static-assets.ts';

export const CLIENT_SCRIPT_PATH = '/realtime/graphql-ws.js';

const read = packageFile('graphql-ws', 'umd/graphql-ws.min.js');

export function mountClientScript(router: Router) {
  const send = assetServer();
  router.get(CLIENT_SCRIPT_PATH, async (ctx) => {
    // Pages of any origin (an overlay opened from a file, a streaming tool's browser source) load it.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    await send(ctx, 'graphql-ws.js', read, 'application/javascript; charset=utf-8');
  });
}
