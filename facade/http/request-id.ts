// Every response carries x-request-id: the caller's when it is a sane one, else a fresh one.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId: Middleware = async (ctx, next) => {
  const given = ctx.get('x-request-id');
  const id = given && VALID.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;
  ctx.state.requestId = id;
  ctx.set('x-request-id', id);
  await next();
};
