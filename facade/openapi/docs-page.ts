// /docs: the OpenAPI document rendered for people by Redoc, served from node_modules (no CDN).
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Esports competition platform API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
<redoc spec-url="/api/openapi.json" hide-download-button="false"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>`;

export function mountDocs(router: Router, document: unknown) {
  let script: Promise<Buffer> | undefined;
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/redoc.standalone.js', async (ctx) => {
    script ??= readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await script;
  });
}
