// The front door: GET /, and the bare bases /api/v2 and /api/v1 the start-up banner names. A browser (Accept: text/html) gets a page naming where to go
// next; any other client gets the same index as JSON. Server-rendered, no script, nothing loaded from
// elsewhere (the policy allows its one inline style). The demo world's credentials are listed only
// while the database holds the demo world: a deployment without it publishes nothing of the kind.
import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Database } from '../../platform/db/database.ts';
import { DEMO, isDemoWorldLoaded } from '../../subgraphs/demo-world.ts';
import { escapeHtml } from '../oauth/pages.ts';
import type { Issuer } from './oauth-metadata.ts';

/** How long the answer to "is the demo world loaded?" is kept: the index costs no query per request. */
const DEMO_CHECK_TTL_MS = 30_000;

/** The user guides, in the repository beside the server (the platform serves the API reference, /docs). */
export const GUIDES: ReadonlyArray<{ path: string; title: string }> = [
  { path: 'docs/getting-started.md', title: 'Getting started: a token, a first call' },
  { path: 'docs/demo-world.md', title: 'The demo world: every id and credential' },
  { path: 'docs/authentication.md', title: 'Authentication, scopes and permissions' },
  { path: 'docs/competitions.md', title: 'Competition API' },
  { path: 'docs/v1.md', title: 'v1 read API, API keys and overlay tokens' },
  { path: 'docs/realtime.md', title: 'Realtime gateway (graphql-ws)' },
  { path: 'docs/webhooks.md', title: 'Webhooks' },
  { path: 'docs/errors.md', title: 'Errors and HTTP conventions' },
  { path: 'docs/deployment.md', title: 'Deployment' },
];

export interface DemoCredentials {
  accessTokens: string[];
  oauthClients: Array<{ clientId: string; clientSecret: string }>;
  apiKeys: Array<{ organisationId: string; apiKey: string }>;
  userPassword: string;
  users: string[];
}

const DEMO_CREDENTIALS: DemoCredentials = {
  accessTokens: Object.values(DEMO.tokens),
  oauthClients: Object.entries(DEMO.clients).map(([clientId, clientSecret]) => ({ clientId, clientSecret })),
  apiKeys: Object.entries(DEMO.apiKeys).map(([organisationId, apiKey]) => ({ organisationId, apiKey })),
  userPassword: DEMO.password,
  users: ['usr_alice', 'usr_bob', 'usr_carol', 'usr_dave', 'usr_erin'],
};

/** Overlays served by the platform: their URLs as documented, with the parameters a caller fills in. */
const OVERLAYS = [
  { name: 'scoreboard', url: '/overlays/scoreboard?token=…&matchId=…' },
  { name: 'bracket', url: '/overlays/bracket?token=…&stageId=…' },
];
const OVERLAY_TOKEN_SOURCE = 'POST /api/v2/organisations/{organisationId}/overlay-tokens';

/** The index as JSON, for API clients. */
export function landingIndex(base: string, demo: boolean) {
  const ws = base.replace(/^http/, 'ws');
  return {
    name: 'Esports competition platform',
    links: {
      apiReference: `${base}/docs`,
      openapi: `${base}/api/openapi.json`,
      restV2: `${base}/api/v2`,
      restV1: `${base}/api/v1`,
      graphql: `${base}/graphql`,
      realtimeGateway: { apiKeysAndOverlayTokens: `${ws}/api/v1/gateway`, accessTokens: `${ws}/graphql` },
      oauthMetadata: `${base}/.well-known/oauth-authorization-server`,
      oauthToken: `${base}/oauth/token`,
      oauthAuthorize: `${base}/oauth/authorize`,
      health: `${base}/healthz`,
    },
    overlays: {
      urls: OVERLAYS.map((overlay) => `${base}${overlay.url}`),
      token: `An overlay token comes from ${OVERLAY_TOKEN_SOURCE} (docs/v1.md#overlay-tokens).`,
    },
    guides: GUIDES.map((guide) => guide.path),
    demoWorld: demo ? DEMO_CREDENTIALS : null,
  };
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:46rem;margin:2.5rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.1rem;margin-top:1.6rem}code{font-size:.9rem;background:#f0f1f4;padding:0 .2rem;border-radius:3px}
pre{background:#f0f1f4;padding:.6rem;overflow-x:auto;font-size:.85rem}table{border-collapse:collapse}td{padding:.15rem .8rem .15rem 0;vertical-align:top}
.muted{color:#555;font-size:.9rem}a{color:#2456d6}`;

/** No script, no frames, no forms; nothing loaded but the inline style (by its hash) and the empty data: icon. */
export const LANDING_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const link = (href: string, text = href) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
const row = (...cells: string[]) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;

export function landingPage(base: string, demo: boolean): string {
  const ws = base.replace(/^http/, 'ws');
  const demoSection = demo
    ? `<h2>Demo credentials</h2>
<p>This database holds the demo world: fixed ids and published credentials, for trying the API on this machine only.</p>
<table>
${row('access tokens', DEMO_CREDENTIALS.accessTokens.map(code).join(', '))}
${row('OAuth clients', DEMO_CREDENTIALS.oauthClients.map((c) => code(`${c.clientId}:${c.clientSecret}`)).join(', '))}
${row('v1 API keys', DEMO_CREDENTIALS.apiKeys.map((k) => `${code(k.apiKey)} (${escapeHtml(k.organisationId)})`).join(', '))}
${row('user password', `${code(DEMO_CREDENTIALS.userPassword)} (${DEMO_CREDENTIALS.users.map(escapeHtml).join(', ')})`)}
</table>
<p>A first call:</p>
<pre>curl -s -H 'Authorization: Bearer ${escapeHtml(DEMO.tokens.app)}' ${escapeHtml(base)}/api/v2/auth/context</pre>
<p class="muted">Every id and credential, and what each is for: <code>docs/demo-world.md</code>.</p>`
    : `<h2>Credentials</h2>
<p>Applications get access tokens from ${code('POST /oauth/token')} (client credentials, or the authorization-code flow with PKCE for a user); v1 reads take an organisation API key in ${code('x-api-key')}.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>Esports competition platform</title><style>${STYLE}</style></head><body><main>
<h1>Esports competition platform</h1>
<p>Organisations run events; applications call the API with OAuth 2.0 access tokens. REST and GraphQL give the same answers.</p>
<h2>Explore the API</h2>
<table>
${row(link('/docs', 'API reference'), 'every REST route, rendered from the OpenAPI document')}
${row(link('/api/openapi.json', 'OpenAPI document'), 'OpenAPI 3.1, for client generators')}
${row(link('/graphql', 'GraphiQL'), 'the federated graph in the browser, with a token ready in its headers')}
${row(code(`${base}/api/v2`), 'REST v2 (Authorization: Bearer …), e.g. /api/v2/auth/context')}
${row(code(`${base}/api/v1`), 'v1 reads (x-api-key or x-overlay-token), e.g. /api/v1/events')}
${row(code(`${ws}/api/v1/gateway`), 'realtime gateway (graphql-ws) for API keys and overlay tokens')}
${row(code(`${ws}/graphql`), 'realtime subscriptions for access tokens')}
${row(link('/.well-known/oauth-authorization-server', 'OAuth metadata'), `token endpoint ${code('/oauth/token')}, sign-in and consent at ${code('/oauth/authorize')}`)}
${row(link('/healthz', 'Health'), `${code('/readyz')}, ${code('/metrics')}`)}
</table>
<h2>Overlays</h2>
<p>Pages for a broadcast (a browser source in streaming software), each for one event:</p>
<table>
${OVERLAYS.map((overlay) => row(escapeHtml(overlay.name), code(`${base}${overlay.url}`))).join('\n')}
</table>
<p>An overlay token comes from ${code(OVERLAY_TOKEN_SOURCE)} (<code>docs/v1.md#overlay-tokens</code>): it reads one event only, and is revoked as easily.</p>
${demoSection}
<h2>Guides</h2>
<p>The guides are Markdown files in the repository this server runs from:</p>
<table>
${GUIDES.map((guide) => row(code(guide.path), escapeHtml(guide.title))).join('\n')}
</table>
</main></body></html>`;
}

/** Whether the database holds the demo world, asked at most every DEMO_CHECK_TTL_MS. */
function demoWorldCheck(db: Database): () => Promise<boolean> {
  let cached: { at: number; answer: Promise<boolean> } | undefined;
  return () => {
    if (!cached || Date.now() - cached.at > DEMO_CHECK_TTL_MS) {
      // A database that cannot answer shows no credentials (until the next check).
      cached = { at: Date.now(), answer: isDemoWorldLoaded(db.prisma).catch(() => false) };
    }
    return cached.answer;
  };
}

const wantsPage = (ctx: Context) => ctx.accepts(['application/json', 'text/html']) === 'text/html';

export function mountLanding(router: Router, db: Database, issuer: Issuer) {
  const demoLoaded = demoWorldCheck(db);
  const answer = async (ctx: Context) => {
    const demo = await demoLoaded();
    // The addresses are the issuer's (PUBLIC_URL or where the server listens), never the request's Host.
    const base = issuer.url;
    // private: a page that may list the demo credentials is kept by no shared cache.
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.vary('Accept');
    if (wantsPage(ctx)) {
      ctx.set('Content-Security-Policy', LANDING_CSP);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = landingPage(base, demo);
      return;
    }
    ctx.body = { data: landingIndex(base, demo) };
  };
  router.get('/', answer);
  router.get('/api/v2', answer);
  router.get('/api/v1', answer);
}
