// Apollo Server on Koa: the request as Apollo's HTTPGraphQLRequest, its answer back onto ctx. (The
// @as-integrations/koa package does the same but requires Node 22.) The body must be parsed first.
import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Context, Middleware } from 'koa';

export function apolloKoa<T extends BaseContext>(server: ApolloServer<T>, context: (ctx: Context) => Promise<T>): Middleware {
  server.assertStarted('apolloKoa()');
  return async (ctx) => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: ctx.method.toUpperCase(),
        headers,
        search: ctx.querystring ? `?${ctx.querystring}` : '',
        body: (ctx.request as { body?: unknown }).body,
      },
      context: () => context(ctx),
    });
    for (const [key, value] of response.headers) ctx.set(key, value);
    ctx.status = response.status ?? 200;
    ctx.body = response.body.kind === 'complete' ? response.body.string : Readable.from(response.body.asyncIterator);
  };
}
