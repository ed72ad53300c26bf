// The overlays a broadcaster puts in a browser source: /overlays/scoreboard and /overlays/bracket.
// Each is a static page whose script reads the public v1 routes and follows the gateway with the
// overlay token of its URL, exactly as any API user's overlay would: the server knows nothing more
// here than what those routes answer. Everything the page loads comes from this server (the
// Content-Security-Policy allows nothing else but team logos over https), and the page's address,
// token included, is never sent to another site (Referrer-Policy: no-referrer) nor kept by a cache
// (Cache-Control: no-store, on every answer to a page's address, errors included).
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { ApiError } from '../../platform/api/errors.ts';
import { validate } from '../../platform/api/validation.ts';
import { assertUtf8Query } from '../../platform/api/input-safety.ts';
import { fromRoot } from '../../platform/process/paths.ts';
import { assetServer, packageFile, type AssetSource } from '../http/static-assets.ts';
import { answerMethods } from '../http/allowed-methods.ts';
import { overlayScript } from './bundle.ts';

const token = z.string().min(1).max(200).describe('The overlay token (ovl_…).');
const id = z.string().min(1).max(100);

const scoreboardQuery = z
  .object({ token, matchId: id.optional(), playdayId: id.optional() })
  .strict()
  .refine((q) => (q.matchId === undefined) !== (q.playdayId === undefined), { message: 'either matchId or playdayId is required, not both', path: ['matchId'] });
const bracketQuery = z.object({ token, stageId: id }).strict();

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' https: data:; font-src 'self' data:; base-uri 'none'; form-action 'none'";


const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escape(title)}</title>
${head}<link rel="stylesheet" href="/overlays/assets/overlay.css">
</head>
<body>
${body}
</body>
</html>
`;
}

const SCOREBOARD = page(
  'Scoreboard overlay',
  `<main id="overlay" class="scoreboard" aria-live="polite"></main>
<p id="status" role="status" hidden></p>
<script src="/overlays/assets/scoreboard.js"></script>`,
);

const BRACKET = page(
  'Bracket overlay',
  `<main id="overlay" class="bracket" aria-live="polite"><h1 id="stage-name"></h1><div id="bracket" class="brackets-viewer"></div><div id="tables"></div></main>
<p id="status" role="status" hidden></p>
<script src="/overlays/assets/brackets-viewer.js"></script>
<script src="/overlays/assets/bracket.js"></script>`,
  '<link rel="stylesheet" href="/overlays/assets/brackets-viewer.css">\n',
);

const STYLE_FILE = fromRoot('facade/overlays/browser/overlay.css');

function headers(ctx: Context): void {
  ctx.set('Content-Security-Policy', POLICY);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // The page's URL holds the token: no cache (the browser's, a proxy's) may keep the answer under it.
  ctx.set('Cache-Control', 'no-store');
}

/** A page whose query is not what the overlay needs: said in words a broadcaster reads in the preview. */
function refuse(ctx: Context, error: ApiError): void {
  if (ctx.accepts(['application/json', 'text/html']) !== 'text/html') throw error;
  ctx.status = 400;
  ctx.type = 'text/html; charset=utf-8';
  const details = (error.details ?? []).map((d) => `<li>${escape(d.field ?? '')}: ${escape(d.issue)}</li>`).join('');
  ctx.body = page('Overlay address not valid', `<main class="message"><h1>This overlay address is not valid</h1><p>${escape(error.message)}</p><ul>${details}</ul></main>`);
}

const PAGE_METHODS = ['GET', 'HEAD'];

function servePage(ctx: Context, schema: z.ZodType, html: string): void {
  // Set first, so that every answer under the page's address carries them, the error body's too.
  headers(ctx);
  if (answerMethods(ctx, PAGE_METHODS)) return;
  try {
    assertUtf8Query(ctx.querystring);
    validate(schema, { ...ctx.query }, 'query');
  } catch (error) {
    if (error instanceof ApiError) return refuse(ctx, error);
    throw error;
  }
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

const sendAsset = assetServer();

const ASSETS: Record<string, { read: AssetSource; type: string }> = {
  'scoreboard.js': { read: () => overlayScript('scoreboard'), type: 'application/javascript' },
  'bracket.js': { read: () => overlayScript('bracket'), type: 'application/javascript' },
  'overlay.css': { read: () => readFile(STYLE_FILE), type: 'text/css' },
  'brackets-viewer.js': { read: packageFile('brackets-viewer', 'dist/brackets-viewer.min.js'), type: 'application/javascript' },
  'brackets-viewer.css': { read: packageFile('brackets-viewer', 'dist/brackets-viewer.min.css'), type: 'text/css' },
};

export function mountOverlays(router: Router): void {
  // Every method, so that a 405 under a page's address carries its headers as well.
  router.all('overlay-scoreboard', '/overlays/scoreboard', (ctx) => {
    ctx.state.route = '/overlays/scoreboard';
    servePage(ctx, scoreboardQuery, SCOREBOARD);
  });
  router.all('overlay-bracket', '/overlays/bracket', (ctx) => {
    ctx.state.route = '/overlays/bracket';
    servePage(ctx, bracketQuery, BRACKET);
  });
  router.get('overlay-assets', '/overlays/assets/:asset', async (ctx) => {
    ctx.state.route = '/overlays/assets/:asset';
    const name = ctx.params.asset;
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return; // 404 with the error body, like any unknown path
    await sendAsset(ctx, name, asset.read, asset.type);
  });
}
