// Every response carries x-request-id: the caller's when it is a sane one, else a fresh one.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the caller's x-request-id when it fits the rule, else a fresh one. */
export const requestIdOf = (given: string | string[] | undefined): string =>
  typeof given === 'string' && VALID.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;

export const requestId: Middleware = async (ctx, next) => {
  const id = requestIdOf(ctx.get('x-request-id'));
  ctx.state.requestId = id;
  ctx.set('x-request-id', id);
  await next();
};
