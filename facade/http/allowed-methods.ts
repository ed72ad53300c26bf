// A route that serves some methods at its address: OPTIONS is answered with the methods it serves,
// any other method it does not serve with 405 and the same Allow header, in the platform's error body.
import type { Context } from 'koa';
import { ApiError } from '../../platform/api/errors.ts';

/** Answers OPTIONS (true: nothing more to do); throws 405 for a method not in `allowed`; else false. */
export function answerMethods(ctx: Context, allowed: readonly string[], refusal = `${ctx.method} is not allowed on ${ctx.path}.`): boolean {
  const allow = allowed.join(', ');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Allow', allow);
    ctx.body = '';
    return true;
  }
  if (!allowed.includes(ctx.method)) throw new ApiError('validation_failed', refusal, [{ issue: 'method_not_allowed' }], { status: 405, headers: { Allow: allow } });
  return false;
}
