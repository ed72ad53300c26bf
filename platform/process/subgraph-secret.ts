// The shared secret between the gateway (or Apollo Router) and the subgraphs served over HTTP. A
// subgraph trusts what it is sent (entity references without a token, the propagated headers), so it
// answers only requests that carry SUBGRAPH_SECRET in this header; the platform's gateway sets it on
// every subgraph request, Apollo Router by router.yaml's header rules. There is no default: a subgraph
// or a gateway with SUBGRAPH_URLS refuses to start without one (docs/deployment.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { SETTINGS, setting } from './config.ts';
import { StartupError } from './startup.ts';

export const SUBGRAPH_SECRET_HEADER = 'svc-subgraph-secret';

/** SUBGRAPH_SECRET, which its setting checks (at least 32 visible ASCII characters: it travels as a header value); `who` names the process that needs it in the refusal when unset. */
export function subgraphSecretFromEnv(who: string, env: NodeJS.ProcessEnv = process.env): string {
  const secret = setting('SUBGRAPH_SECRET', env);
  if (secret === undefined) throw new StartupError(`SUBGRAPH_SECRET is not set, and ${who} needs it: set it to a random value of ${SETTINGS.SUBGRAPH_SECRET.expects}.`);
  return secret;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A checker of the header's value, in constant time whatever is sent. */
export function subgraphSecretCheck(secret: string): (given: string | string[] | undefined) => boolean {
  const expected = digest(secret);
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expected);
}
