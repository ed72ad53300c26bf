// /graphql over HTTP: Apollo Server on the gateway (POST, GET and the GraphQL-over-HTTP media types).
import type Router from '@koa/router';
import { ApolloServer } from '@apollo/server';
import { apolloKoa } from '../../subgraphs/shared/apollo-koa.ts';
import type { ApolloGateway } from '@apollo/gateway';
import type { Logger } from 'pino';
import { readBody } from '../http/body.ts';
import { scopeOf } from '../http/scope.ts';
import type { GatewayContext } from './context.ts';

export async function startGraphQLServer(gateway: ApolloGateway, logger: Logger) {
  const server = new ApolloServer<GatewayContext>({
    gateway,
    // Bearer tokens, never cookies, authorise this API: there is no ambient credential for a
    // cross-site request to ride on, so GET needs no preflight header.
    csrfPrevention: false,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => logger.warn(message),
      error: (message) => logger.error(message),
    },
  });
  await server.start();
  return server;
}

export function mountGraphQL(router: Router, server: ApolloServer<GatewayContext>) {
  const handler = apolloKoa(server, async (ctx) => ({ scope: scopeOf(ctx) }));
  router.all('graphql', '/graphql', async (ctx, next) => {
    ctx.state.route = '/graphql';
    if (ctx.method === 'POST') (ctx.request as { body?: unknown }).body = (await readBody(ctx, 'json')) ?? {};
    if (ctx.method !== 'POST' && ctx.method !== 'GET') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, POST');
      ctx.body = { error: { code: 'validation_failed', message: 'GraphQL accepts GET and POST.', requestId: ctx.state.requestId, details: [{ issue: 'method_not_allowed' }] } };
      return;
    }
    await handler(ctx, next);
  });
}
