// The authorization endpoint's decisions (RFC 6749 §4.1, OAuth 2.1 §4.1): which requests may be
// shown to a user at all, which errors go back to the client, and the code issued on consent.
//
// - client_id and redirect_uri are checked first: an unknown client or a redirect URI that is not
//   registered for it, exactly, is answered with a page of its own and never redirected to;
// - anything else wrong (response type, PKCE, scope, state) goes back to the registered redirect URI
//   as an error, with the state and the issuer (RFC 9207);
// - PKCE is required, S256 only.
import { Request, Response, InvalidScopeError } from '@node-oauth/oauth2-server';
import { fromOAuthError, oauthServer } from './tokens.ts';
import { findClient, grantedScopes, type OAuthClient, type OAuthUser, type OAuthStore } from './model.ts';

export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
export type AuthorizationParams = Partial<Record<(typeof AUTHORIZATION_PARAMS)[number], string>>;

export type AuthorizationCheck =
  /** Answered with an error page: nothing may be sent to this redirect URI. */
  | { kind: 'invalid'; message: string }
  /** An error for the client, sent to its redirect URI. */
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; client: OAuthClient; scopes: string[]; params: AuthorizationParams };

// RFC 6749 appendix A: visible ASCII; a code challenge is 43–128 unreserved characters (RFC 7636 §4.2).
const VSCHAR = /^[\x20-\x7e]*$/;
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The client's redirect URI with an error (RFC 6749 §4.1.2.1), its state and the issuer. */
export function errorRedirect(redirectUri: string, error: string, description: string, state: string | undefined, issuer: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/**
 * Checks an authorization request. `repeated` names parameters given more than once (RFC 6749 §3.1
 * forbids it): on client_id or redirect_uri the request cannot be trusted to redirect anywhere.
 */
export async function checkAuthorizationRequest(database: OAuthStore, params: AuthorizationParams, repeated: string[], issuer: string): Promise<AuthorizationCheck> {
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return { kind: 'invalid', message: `The parameter ${repeated.includes('client_id') ? 'client_id' : 'redirect_uri'} is given more than once.` };
  }
  if (!params.client_id) return { kind: 'invalid', message: 'The request names no client (client_id is missing).' };
  const client = VSCHAR.test(params.client_id) ? await findClient(database, params.client_id) : null;
  if (!client) return { kind: 'invalid', message: 'The application asking for access is not known here (client_id).' };
  if (!params.redirect_uri) return { kind: 'invalid', message: 'The request names no redirect_uri; it must be one the application registered.' };
  if (!client.redirectUris.includes(params.redirect_uri)) {
    return { kind: 'invalid', message: 'The redirect_uri is not one the application registered (it must match exactly).' };
  }
  const fail = (error: string, description: string) => ({
    kind: 'redirect' as const,
    location: errorRedirect(params.redirect_uri!, error, description, params.state && VSCHAR.test(params.state) ? params.state : undefined, issuer),
  });
  if (repeated.length) return fail('invalid_request', `The parameter ${repeated[0]} is given more than once.`);
  if (params.state !== undefined && !VSCHAR.test(params.state)) return fail('invalid_request', 'state holds characters outside visible ASCII.');
  if (!params.response_type) return fail('invalid_request', 'response_type is missing.');
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!params.code_challenge) return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (params.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256.');
  if (!CODE_CHALLENGE.test(params.code_challenge)) return fail('invalid_request', 'code_challenge is not a valid S256 challenge.');
  let scopes: string[];
  try {
    const requested = params.scope?.trim() ? params.scope.trim().split(/\s+/) : undefined;
    scopes = grantedScopes(client, requested);
  } catch (error) {
    if (error instanceof InvalidScopeError) return fail('invalid_scope', error.message);
    throw error;
  }
  return { kind: 'ok', client, scopes, params };
}

/** The user said no: access_denied at the client's redirect URI. */
export function denyAuthorization(check: Extract<AuthorizationCheck, { kind: 'ok' }>, issuer: string): string {
  return errorRedirect(check.params.redirect_uri!, 'access_denied', 'The user did not authorise the application.', check.params.state, issuer);
}

/** The user consented: a single-use code for the client, under a new grant, at its redirect URI. */
export async function approveAuthorization(database: OAuthStore, check: Extract<AuthorizationCheck, { kind: 'ok' }>, userId: string, issuer: string): Promise<string> {
  const query: Record<string, string> = { ...check.params, scope: check.scopes.join(' ') } as Record<string, string>;
  const request = new Request({ method: 'GET', query, headers: {}, body: {} });
  const response = new Response();
  const user: OAuthUser = { userId, grantId: null };
  try {
    await oauthServer(database).authorize(request, response, { authenticateHandler: { handle: () => user } });
  } catch (error) {
    throw fromOAuthError(error);
  }
  const location = new URL(response.get('location') as string);
  location.searchParams.set('iss', issuer);
  return location.toString();
}
