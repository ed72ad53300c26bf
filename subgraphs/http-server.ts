// One subgraph served alone over HTTP, for the distributed topology (Apollo Router or
// @apollo/gateway in front). Authority comes from the propagated headers, which only the gateway or
// router may send: every request but /healthz must carry the shared secret (subgraph-secret.ts).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { apolloKoa } from '../platform/graphql/apollo-koa.ts';
import Koa from 'koa';
import { GraphQLError } from 'graphql';
import getRawBody from 'raw-body';
import { createLogger } from '../platform/process/logger.ts';
import { createSubgraphContext, scopeFromHeaders, type SubgraphContext } from '../platform/domain/context.ts';
import { formatSubgraphError } from '../platform/graphql/error-format.ts';
import { ApiError } from '../platform/api/errors.ts';
import { assertStorableOperation } from '../platform/api/input-safety.ts';
import type { Database } from '../platform/db/database.ts';
import { loadSubgraphSchema, type SubgraphName } from './index.ts';
import { DEFAULT_HOST, listen, reachableBase } from '../platform/process/listen.ts';
import { SUBGRAPH_SECRET_HEADER, subgraphSecretCheck } from '../platform/process/subgraph-secret.ts';

export interface SubgraphServer {
  url: string;
  close(): Promise<void>;
}

export interface SubgraphServerOptions {
  /** The shared secret every request must carry in svc-subgraph-secret (SUBGRAPH_SECRET). */
  secret: string;
  port?: number;
  host?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function startSubgraphServer(name: SubgraphName, db: Database, { secret, port = 0, host = DEFAULT_HOST }: SubgraphServerOptions): Promise<SubgraphServer> {
  if (!secret) throw new Error('startSubgraphServer: a subgraph served over HTTP needs its shared secret');
  const authentic = subgraphSecretCheck(secret);
  const logger = createLogger(`subgraph-${name}`);
  const server = new ApolloServer<SubgraphContext>({
    schema: await loadSubgraphSchema(name),
    csrfPrevention: false,
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      // The subgraph's own guard on what it is sent (the gateway's entry points check first).
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, request }) {
              try {
                assertStorableOperation(document, request.variables);
              } catch (error) {
                if (error instanceof ApiError) throw new ApiError(error.code, error.message, error.details, { extensions: { http: { status: 200 } } });
                throw error;
              }
            },
          };
        },
      },
    ],
    includeStacktraceInErrorResponses: false,
    formatError: (_formatted, error) =>
      error instanceof GraphQLError
        ? formatSubgraphError(error, (err) => logger.error({ err }, 'subgraph error'))
        : { message: 'Internal error.', extensions: { code: 'internal' } },
  });
  await server.start();
  const app = new Koa();
  // Before anything is read or parsed: without the secret a request gets nothing but this answer.
  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz' || authentic(ctx.headers[SUBGRAPH_SECRET_HEADER])) return next();
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;
    ctx.set('x-request-id', requestId);
    ctx.set('connection', 'close');
    ctx.status = 403;
    ctx.body = {
      error: {
        code: 'forbidden',
        message: `This subgraph answers only the platform's gateway or router: the request lacks the shared secret (${SUBGRAPH_SECRET_HEADER}).`,
        requestId,
        details: [{ field: SUBGRAPH_SECRET_HEADER, issue: 'subgraph_secret_required' }],
      },
    };
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/graphql') {
      ctx.status = ctx.path === '/healthz' ? 200 : 404;
      ctx.body = ctx.status === 200 ? { status: 'ok', subgraph: name } : { error: { code: 'not_found', message: 'Only /graphql is served here.' } };
      return;
    }
    if (ctx.method === 'POST') {
      const raw = await getRawBody(ctx.req, { limit: '1mb', encoding: 'utf8' });
      try {
        (ctx.request as { body?: unknown }).body = raw ? JSON.parse(raw) : {};
      } catch {
        ctx.status = 400;
        ctx.body = { errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'validation_failed' } }] };
        return;
      }
    }
    await next();
  });
  app.use(apolloKoa(server, async (ctx) => createSubgraphContext(db, scopeFromHeaders(ctx.headers, `req_${randomUUID()}`))));
  const httpServer = http.createServer(app.callback());
  let bound: number;
  try {
    bound = await listen(httpServer, { port, host });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: `${reachableBase(host, bound)}/graphql`,
    async close() {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
      await server.stop();
    },
  };
}
