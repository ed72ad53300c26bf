// The shared secret between the gateway (or Apollo Router) and the subgraphs served over HTTP. A
// subgraph trusts what it is sent (entity references without a token, the propagated headers), so it
// answers only requests that carry SUBGRAPH_SECRET in this header; the platform's gateway sets it on
// every subgraph request, Apollo Router by router.yaml's header rules. There is no default: a subgraph
// or a gateway with SUBGRAPH_URLS refuses to start without one (docs/deployment.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { StartupError } from './startup.ts';

export const SUBGRAPH_SECRET_HEADER = 'svc-subgraph-secret';
export const SUBGRAPH_SECRET_MIN_LENGTH = 32;

// Visible ASCII only: it travels as a header value.
const SHAPE = /^[\x21-\x7e]+$/;

/** SUBGRAPH_SECRET, checked; `who` names the process in the refusal ("the competitions subgraph", "SUBGRAPH_URLS"). */
export function subgraphSecretFromEnv(who: string, env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.SUBGRAPH_SECRET ?? '';
  const advice = `set SUBGRAPH_SECRET to the same random value of at least ${SUBGRAPH_SECRET_MIN_LENGTH} visible ASCII characters (e.g. the output of \`openssl rand -hex 32\`) for the subgraphs and the gateway or router in front of them`;
  if (secret === '') throw new StartupError(`SUBGRAPH_SECRET is not set, and ${who} needs it: ${advice}.`);
  if (secret.length < SUBGRAPH_SECRET_MIN_LENGTH || !SHAPE.test(secret)) {
    throw new StartupError(`SUBGRAPH_SECRET is too weak for ${who} (${secret.length} characters${SHAPE.test(secret) ? '' : ', not all visible ASCII'}): ${advice}.`);
  }
  return secret;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A checker of the header's value, in constant time whatever is sent. */
export function subgraphSecretCheck(secret: string): (given: string | string[] | undefined) => boolean {
  const expected = digest(secret);
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expected);
}
