// Every request that checks a client secret or a password goes through here: POST /oauth/token,
// /oauth/revoke and /oauth/introspect, their GraphQL fields on /graphql (issueAccessToken,
// revokeAccessToken, introspectAccessToken) and the sign-in form of /oauth/authorize. One failure
// accounting and one refusal for all of them (docs/errors.md#rate-limits):
//
// - auth_failures, per address: a failure is held before the check, kept when the check fails and
//   given back otherwise, so that requests in flight at once cannot try more secrets than the quota
//   allows. Past it the address is refused, right secrets included, until the window ends. Only kept
//   failures reach a shared store: checks in flight count on the instance running them.
// - client, per client id: counted only once the client has authenticated, so that strangers who
//   guess at a client's secret spend their own addresses' failures, never the client's quota.
import type { GraphQLFormattedError } from 'graphql';
import type { Decision, RateLimits } from './rate-limits.ts';

/** What the check found: the secret or password was right, wrong, or never checked (a fault, a malformed request). */
export type CheckOutcome = 'authenticated' | 'failed' | 'unknown';

export interface CredentialCheck {
  /** Records what the check found; answers the decision whose fields the response carries. */
  settle(outcome: CheckOutcome): Promise<Decision>;
}

/**
 * Admits one check of a secret or password from `address` (for `clientId`, when a client
 * authenticates): the refusal to answer with 429, or the check to settle once its outcome is known.
 */
export async function beginCredentialCheck(limits: RateLimits, address: string, clientId?: string): Promise<{ refused: Decision } | { check: CredentialCheck }> {
  const reserved = await limits.reserveAuthFailure(address);
  if (!reserved.allowed) return { refused: reserved };
  const spent = clientId === undefined ? null : await limits.clientOver(clientId);
  if (spent) {
    reserved.giveBack?.();
    return { refused: spent };
  }
  let settled: Promise<Decision> | null = null;
  return {
    check: {
      settle(outcome) {
        settled ??= (async () => {
          if (outcome === 'failed') {
            reserved.keep?.();
            return reserved;
          }
          reserved.giveBack?.();
          if (outcome === 'authenticated' && clientId !== undefined) return limits.chargeClient(clientId);
          return reserved;
        })();
        return settled;
      },
    },
  };
}

/**
 * The outcome of an operation that authenticates a client, from its errors and whether its field
 * answered (data, not null). The developer subgraph's OAuth module authenticates the client before
 * anything else, so every OAuth error but invalid_client comes after a right secret; errors without
 * an OAuth code (a request graphql-js refused, a fault) say nothing about the secret.
 */
export function outcomeOfAnswer(errors: readonly GraphQLFormattedError[] | undefined, answered: boolean): CheckOutcome {
  const oauthErrors = (errors ?? []).map((error) => error.extensions?.oauthError).filter((code) => typeof code === 'string');
  if (oauthErrors.includes('invalid_client')) return 'failed';
  return oauthErrors.length > 0 || answered ? 'authenticated' : 'unknown';
}
