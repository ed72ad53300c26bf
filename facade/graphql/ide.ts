// An offline GraphQL IDE for browsers at /graphql: GraphiQL with React, both from npm, served by this
// server. Nothing is loaded from elsewhere (the Content-Security-Policy allows this origin only) and
// nothing is reported anywhere. A browser's GET /graphql without a query gets the page; every other
// request to /graphql is GraphQL. Queries and mutations go over HTTP; subscriptions over the realtime
// gateway's graphql-ws socket on /graphql, with the credential of the Headers tab as its connection
// parameters. The page is given the schema the gateway serves (the API schema with its Subscription
// type), so that the explorer and the editor know subscriptions too.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { withSubscriptions } from '../realtime/schema.ts';
import { assetServer } from '../http/static-assets.ts';

const require = createRequire(import.meta.url);

// Package and file within it: React's exports map hides its browser builds from require.resolve.
const ASSETS: Record<string, { from: string; file: string; type: string }> = {
  'react.js': { from: 'react', file: 'umd/react.production.min.js', type: 'application/javascript' },
  'react-dom.js': { from: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'application/javascript' },
  'graphiql.js': { from: 'graphiql', file: 'graphiql.min.js', type: 'application/javascript' },
  'graphiql.css': { from: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
  'graphql-ws.js': { from: 'graphql-ws', file: 'umd/graphql-ws.min.js', type: 'application/javascript' },
};

const DEFAULT_QUERY = `# The platform's federated graph. Run this with the play button (or Ctrl-Enter).
# The Headers tab below holds the demo world's application token; use your own elsewhere.
query Start {
  authContext(targetType: organisation, targetId: "org_demo") {
    applicationId
    scopes
    installation { id status }
  }
  event(id: "evt_open") { name state revision stages { name format } }
}
`;

const DEFAULT_HEADERS = JSON.stringify({ Authorization: 'Bearer demo-token-app' }, null, 2);

// Script and settings come from this origin too, so the policy needs no inline script.
const START = `
const settings = JSON.parse(document.getElementById('settings').textContent);
const overHttp = GraphiQL.createFetcher({ url: settings.url });
const socketUrl = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + settings.url;
// One socket per credential: the gateway authenticates a socket once, from its connection parameters.
const sockets = new Map();
function socketFor(headers) {
  const header = (name) => Object.entries(headers || {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const params = {};
  if (header('authorization')) params.authorization = header('authorization');
  if (header('x-api-key')) params.apiKey = header('x-api-key');
  if (header('x-overlay-token')) params.overlayToken = header('x-overlay-token');
  const key = JSON.stringify(params);
  if (!sockets.has(key)) sockets.set(key, graphqlWs.createClient({ url: socketUrl, connectionParams: params, lazy: true, retryAttempts: 0 }));
  return sockets.get(key);
}
function isSubscription(document, name) {
  const operations = (document?.definitions || []).filter((d) => d.kind === 'OperationDefinition');
  const operation = name ? operations.find((o) => o.name?.value === name) : operations.length === 1 ? operations[0] : undefined;
  return operation?.operation === 'subscription';
}
const fetcher = (params, options) =>
  isSubscription(options?.documentAST, params.operationName) ? socketFor(options?.headers).iterate(params) : overHttp(params, options);
fetch(settings.schema)
  .then((response) => (response.ok ? response.json() : Promise.reject(new Error('the schema could not be read (HTTP ' + response.status + ')'))))
  .then((schema) => {
    ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, {
      fetcher,
      schema,
      defaultQuery: settings.query,
      defaultHeaders: settings.headers,
      defaultEditorToolsVisibility: true,
    }));
  })
  .catch((error) => {
    document.getElementById('graphiql').textContent = 'GraphiQL could not start: ' + error.message + '. Reload the page.';
  });
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<title>GraphQL · Esports competition platform</title>
<link rel="stylesheet" href="/graphql/ide/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script type="application/json" id="settings">${JSON.stringify({ url: '/graphql', schema: '/graphql/ide/schema.json', query: DEFAULT_QUERY, headers: DEFAULT_HEADERS }).replace(/</g, '\\u003c')}</script>
<script src="/graphql/ide/react.js"></script>
<script src="/graphql/ide/react-dom.js"></script>
<script src="/graphql/ide/graphiql.js"></script>
<script src="/graphql/ide/graphql-ws.js"></script>
<script src="/graphql/ide/start.js"></script>
</body>
</html>
`;

const POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'";

/** A browser asking for a page (not a GraphQL GET, which carries a query). */
export const wantsIde = (ctx: Context) =>
  ctx.method === 'GET' && ctx.query.query === undefined && ctx.query.documentId === undefined && ctx.query.extensions === undefined && ctx.accepts(['application/json', 'text/html']) === 'text/html';

export function sendIde(ctx: Context) {
  ctx.set('Content-Security-Policy', POLICY);
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = PAGE;
}

/**
 * `apiSchema`: the gateway's API schema, once it has loaded; `describes`: whether the schema is
 * published (not when only trusted documents run: GRAPHQL_TRUSTED_DOCUMENTS=require).
 */
export function mountIdeAssets(router: Router, apiSchema: () => GraphQLSchema | undefined, describes = true) {
  const send = assetServer();
  router.get('graphql-ide', '/graphql/ide/:asset', async (ctx) => {
    ctx.state.route = '/graphql/ide/:asset';
    const name = ctx.params.asset;
    // The platform's own script and the schema change with the platform, not with a package:
    // revalidated on every load (static-assets.ts), a 304 while unchanged.
    if (name === 'start.js') return send(ctx, 'graphql-ide-start.js', async () => START, 'application/javascript; charset=utf-8');
    if (name === 'schema.json') {
      const schema = describes ? apiSchema() : undefined;
      if (!schema) return; // 404 until the gateway has loaded, and under require
      return send(ctx, 'graphql-ide-schema.json', async () => JSON.stringify(introspectionFromSchema(withSubscriptions(schema), { descriptions: true })), 'application/json; charset=utf-8');
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return; // 404 with the error body, like any unknown path
    // Assets change only with the installed packages: a day's caching.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = asset.type;
    ctx.body = createReadStream(path.join(path.dirname(require.resolve(`${asset.from}/package.json`)), asset.file));
  });
}
