// HTTP/1.1's rules on a request's head that Node's server would apply with an empty answer, applied
// here instead so that they answer the platform's error body with a request id (the server is created
// with requireHostHeader off, and Node's 'checkExpectation' requests are passed on to the application):
// - Host: missing on HTTP/1.1, or given more than once, is 400 (RFC 9112 §3.2);
// - Expect: anything but 100-continue is 417 (RFC 9110 §10.1.1); 100-continue itself Node answers.
import type { Middleware } from 'koa';
import { ApiError } from '../../platform/api/errors.ts';

// Node's own test for a 100-continue expectation (lib/_http_server.js).
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

export const requestHead: Middleware = async (ctx, next) => {
  const expect = ctx.get('expect');
  if (expect && !CONTINUE.test(expect)) {
    throw new ApiError('validation_failed', 'The Expect header cannot be met: only 100-continue is.', [{ field: 'expect', issue: 'unsupported_expectation' }], { status: 417 });
  }
  const raw = ctx.req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1 || (hosts === 0 && ctx.req.httpVersion === '1.1')) {
    throw new ApiError('validation_failed', hosts ? 'The Host header is given more than once.' : 'The Host header is missing (HTTP/1.1 requires it).', [{ field: 'host', issue: hosts ? 'repeated' : 'required' }]);
  }
  await next();
};
