// The token endpoint (RFC 6749 §3.2 with OAuth 2.1's rules): authorization_code with PKCE,
// refresh_token with rotation, client_credentials. @node-oauth/oauth2-server runs the grants on the
// model of model.ts; this module hands it the request and turns its answer or error into ours.
import OAuth2Server, { OAuthError, Request, Response } from '@node-oauth/oauth2-server';
import { oauthError } from '../../../platform/api/errors.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  authenticateClient,
  GRANT_TYPES,
  GrantRevokedError,
  oauthModel,
  REFRESH_TOKEN_TTL_SECONDS,
  type OAuthClient,
  type OAuthStore,
} from './model.ts';

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  scope?: string | null;
  code?: string | null;
  redirectUri?: string | null;
  codeVerifier?: string | null;
  refreshToken?: string | null;
}

export interface IssuedToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  scope: string;
  refreshToken: string | null;
}

/**
 * The library's server over this store (cheap to make: it holds the model and the options), for one
 * request; `authenticated` is the client that request has authenticated already.
 */
export function oauthServer(database: OAuthStore, authenticated?: OAuthClient): OAuth2Server {
  return new OAuth2Server({
      model: oauthModel(database, authenticated),
      accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenLifetime: REFRESH_TOKEN_TTL_SECONDS,
      authorizationCodeLifetime: AUTHORIZATION_CODE_TTL_SECONDS,
      alwaysIssueNewRefreshToken: true,
      // state is the client's to choose; OAuth 2.1 lets PKCE carry the CSRF protection
      allowEmptyState: true,
      allowExtendedTokenAttributes: false,
  });
}

// The library's own descriptions name its parameters in backticks; ours read as sentences.
const DESCRIPTIONS: Record<string, string> = {
  invalid_client: 'Client authentication failed.',
};

/** An error of the library as the platform's RFC 6749 error. */
export function fromOAuthError(error: unknown): Error {
  if (error instanceof OAuthError) {
    const inner = (error as OAuthError & { inner?: Error }).inner;
    if (inner instanceof GrantRevokedError) return oauthError('invalid_grant', 'The authorisation behind this grant was revoked.');
    if (error.name === 'server_error') return inner ?? error;
    return oauthError(error.name, DESCRIPTIONS[error.name] ?? error.message.replace(/`/g, ''));
  }
  return error as Error;
}

export async function issueToken(database: OAuthStore, input: TokenRequest): Promise<IssuedToken> {
  // The client first, before anything about the request is judged: so every answer but
  // invalid_client says that the client's secret was right, and only invalid_client counts as a
  // failed authentication (a wrong grant, code or scope after a right secret is no guess at it).
  const client = await authenticateClient(database, input.clientId, input.clientSecret);
  if (!client) throw oauthError('invalid_client', 'Client authentication failed.');
  if (!(GRANT_TYPES as readonly string[]).includes(input.grantType)) {
    throw oauthError('unsupported_grant_type', `grant_type must be one of: ${GRANT_TYPES.join(', ')}.`);
  }
  const body: Record<string, string> = { grant_type: input.grantType, client_id: input.clientId, client_secret: input.clientSecret };
  if (input.scope != null) body.scope = input.scope;
  if (input.code != null) body.code = input.code;
  if (input.redirectUri != null) body.redirect_uri = input.redirectUri;
  if (input.codeVerifier != null) body.code_verifier = input.codeVerifier;
  if (input.refreshToken != null) body.refresh_token = input.refreshToken;
  const request = new Request({ method: 'POST', query: {}, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' }, body });
  const response = new Response();
  try {
    await oauthServer(database, client).token(request, response);
  } catch (error) {
    throw fromOAuthError(error);
  }
  const answer = response.body as { access_token: string; scope?: string; refresh_token?: string };
  return {
    accessToken: answer.access_token,
    tokenType: 'Bearer',
    // The library counts what is left of the lifetime, which is by now a second short of it.
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    scope: answer.scope ?? '',
    refreshToken: answer.refresh_token ?? null,
  };
}
