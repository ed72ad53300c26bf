// The OAuth endpoints that are API calls: token (RFC 6749 §3.2), revocation (RFC 7009) and
// introspection (RFC 7662), each a row running the developer subgraph's operation. The browser
// pages of /oauth/authorize are in facade/oauth/.
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { defineRoute, type RouteInput } from './table.ts';

const tokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string(),
    refresh_token: z.string().optional().describe('authorization_code and refresh_token grants: the next refresh token (spent on use).'),
  })
  .strict()
  .meta({ id: 'TokenResponse' });

const introspectionResponse = z
  .object({
    active: z.boolean(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    token_type: z.string().optional(),
    exp: z.number().int().optional(),
    iat: z.number().int().optional(),
    sub: z.string().optional(),
  })
  .strict()
  .meta({ id: 'TokenIntrospection' });

const clientFields = { client_id: z.string().max(128).optional(), client_secret: z.string().max(256).optional() };
const tokenParam = z.string().min(1).max(512);

/** client_secret_basic (RFC 6749 §2.3.1): form-urlencoded id and secret in HTTP Basic. */
function clientFromBasic(header: unknown): { id: string; secret: string } | null {
  if (typeof header !== 'string' || !/^Basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw new ApiError('validation_failed', 'The HTTP Basic credentials are not form-urlencoded.', [{ field: 'authorization', issue: 'malformed' }]);
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

/** The authenticated client of a form: HTTP Basic or client_id and client_secret in the body, not both. */
export function clientCredentials({ body, headers }: RouteInput): { clientId: string; clientSecret: string } {
  const form = body as { client_id?: string; client_secret?: string };
  const basic = clientFromBasic(headers.authorization);
  if (basic && form.client_secret) {
    throw new ApiError('validation_failed', 'Use one client authentication method, not both.', [{ field: 'client_secret', issue: 'two authentication methods' }]);
  }
  // A client_id in the body beside HTTP Basic may only repeat it: two clients are never resolved to one.
  if (basic && form.client_id !== undefined && form.client_id !== basic.id) {
    throw new ApiError('validation_failed', 'client_id in the body names another client than HTTP Basic.', [{ field: 'client_id', issue: 'differs from HTTP Basic' }]);
  }
  const clientId = basic?.id ?? form.client_id;
  const clientSecret = basic?.secret ?? form.client_secret;
  if (!clientId || !clientSecret) {
    throw new ApiError('validation_failed', 'Client authentication is required (HTTP Basic or client_id and client_secret).', [{ field: 'client_id', issue: 'required' }]);
  }
  return { clientId, clientSecret };
}

function tokenVariables(input: RouteInput) {
  const form = input.body as Record<string, string | undefined>;
  return {
    input: {
      grantType: form.grant_type,
      ...clientCredentials(input),
      scope: form.scope,
      code: form.code,
      redirectUri: form.redirect_uri,
      codeVerifier: form.code_verifier,
      refreshToken: form.refresh_token,
    },
  };
}

const clientTokenVariables = (input: RouteInput) => {
  const form = input.body as { token: string; token_type_hint?: string };
  return { input: { token: form.token, tokenTypeHint: form.token_type_hint, ...clientCredentials(input) } };
};

/** The limits every client-authenticated endpoint shares (docs/errors.md#rate-limits). */
const LIMITS =
  'The client is authenticated before anything else in the request is judged (a wrong secret is invalid_client whatever else is wrong). A wrong secret counts against the address it comes from, with the GraphQL fields and the sign-in form (auth_failures): past the limit the address is answered 429, right secrets included, until the window ends. The client quota counts only requests in which the client authenticated. 429 carries Retry-After and RateLimit fields.';

const OAUTH_COMMON = {
  security: 'client' as const,
  format: 'raw' as const,
  errorFormat: 'oauth' as const,
  responseHeaders: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
};

const basicHeader = z.object({ authorization: z.string().optional() });

export const oauthRoutes = [
  defineRoute({
    ...OAUTH_COMMON,
    operationId: 'issueToken',
    method: 'post',
    path: '/oauth/token',
    tag: 'OAuth',
    summary: 'Issue an access token',
    description:
      `RFC 6749 token endpoint with the rules of OAuth 2.1. grant_type authorization_code exchanges a code from /oauth/authorize (with its redirect_uri and the PKCE code_verifier) for a token acting for the user and a refresh token; refresh_token spends a refresh token for a new pair (a refused request spends nothing; a spent one still works for its own client for REFRESH_TOKEN_REUSE_SECONDS, 10 by default, giving a fresh pair to a retry racing its rotation; presented again after that it revokes the whole grant); client_credentials gives a token whose actor is the application itself. Authenticate the client with HTTP Basic (client_secret_basic) or client_id and client_secret in the form (client_secret_post). scope, space-separated, must be within the scopes granted to the application (default: all of them). Errors follow RFC 6749 §5.2. ${LIMITS}`,
    input: {
      headers: basicHeader,
      body: z
        .object({
          grant_type: z.string().min(1).max(64),
          scope: z.string().max(1000).optional(),
          ...clientFields,
          code: tokenParam.optional(),
          redirect_uri: z.string().max(2000).optional(),
          code_verifier: z.string().max(128).optional(),
          refresh_token: tokenParam.optional(),
        })
        .strict(),
      bodyType: 'form',
    },
    operation: prepareOperation(/* GraphQL */ `
      mutation IssueAccessToken($input: AccessTokenRequest!) {
        issueAccessToken(input: $input) { accessToken tokenType expiresIn scope refreshToken }
      }
    `),
    variables: tokenVariables,
    result: (data) => {
      const issued = data.issueAccessToken as { accessToken: string; tokenType: string; expiresIn: number; scope: string; refreshToken: string | null };
      return {
        access_token: issued.accessToken,
        token_type: issued.tokenType,
        expires_in: issued.expiresIn,
        scope: issued.scope,
        ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
      };
    },
    success: { status: 200, schema: tokenResponse, description: 'The access token (RFC 6749 §5.1).' },
    errors: [400, 401, 429, 500, 503],
    example: {
      request: 'POST /oauth/token\nAuthorization: Basic YXBwX2RlbW86ZGVtby1hcHAtc2VjcmV0\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&scope=event%3Amanage',
      response: { access_token: 'esp_at_…', token_type: 'Bearer', expires_in: 3600, scope: 'event:manage' },
    },
  }),
  defineRoute({
    ...OAUTH_COMMON,
    operationId: 'revokeToken',
    method: 'post',
    path: '/oauth/revoke',
    tag: 'OAuth',
    summary: 'Revoke a token',
    description:
      `RFC 7009. An access token of the calling client stops working at once; a refresh token revokes its whole grant (every token issued under the same authorisation). Answers 200 with an empty object whether or not the token was known to this client, so that nothing can be learnt about other tokens. token_type_hint (access_token or refresh_token) only says which kind to look for first. ${LIMITS}`,
    input: {
      headers: basicHeader,
      body: z.object({ token: tokenParam, token_type_hint: z.enum(['access_token', 'refresh_token']).optional(), ...clientFields }).strict(),
      bodyType: 'form',
    },
    operation: prepareOperation(`mutation RevokeAccessToken($input: ClientTokenRequest!) { revokeAccessToken(input: $input) { revoked } }`),
    variables: clientTokenVariables,
    result: () => ({}),
    success: { status: 200, schema: z.object({}).strict().meta({ id: 'Empty' }), description: 'Revoked, or not a token of this client.' },
    errors: [400, 401, 429, 500, 503],
    example: { request: 'POST /oauth/revoke\nAuthorization: Basic YXBwX2RlbW86ZGVtby1hcHAtc2VjcmV0\nContent-Type: application/x-www-form-urlencoded\n\ntoken=esp_rt_…&token_type_hint=refresh_token', response: {} },
  }),
  defineRoute({
    ...OAUTH_COMMON,
    operationId: 'introspectToken',
    method: 'post',
    path: '/oauth/introspect',
    tag: 'OAuth',
    summary: 'Introspect a token',
    description:
      `RFC 7662 for tokens of the calling client: {"active": true, scope, client_id, token_type, exp, iat, sub} while it is live (sub is the user it acts for, or the application itself); {"active": false} for anything else, including another client's token. ${LIMITS}`,
    input: {
      headers: basicHeader,
      body: z.object({ token: tokenParam, token_type_hint: z.enum(['access_token', 'refresh_token']).optional(), ...clientFields }).strict(),
      bodyType: 'form',
    },
    operation: prepareOperation(`query IntrospectAccessToken($input: ClientTokenRequest!) { introspectAccessToken(input: $input) { active scope clientId tokenType exp iat sub } }`),
    variables: clientTokenVariables,
    result: (data) => {
      const found = data.introspectAccessToken as { active: boolean; scope: string | null; clientId: string | null; tokenType: string | null; exp: number | null; iat: number | null; sub: string | null };
      if (!found.active) return { active: false };
      return { active: true, scope: found.scope, client_id: found.clientId, token_type: found.tokenType, exp: found.exp, iat: found.iat, sub: found.sub };
    },
    success: { status: 200, schema: introspectionResponse, description: 'Whether the token is active, and what it carries.' },
    errors: [400, 401, 429, 500, 503],
    example: {
      request: 'POST /oauth/introspect\nAuthorization: Basic YXBwX2RlbW86ZGVtby1hcHAtc2VjcmV0\nContent-Type: application/x-www-form-urlencoded\n\ntoken=esp_at_…',
      response: { active: true, scope: 'event:manage', client_id: 'app_demo', token_type: 'Bearer', exp: 1795000000, iat: 1794996400, sub: 'usr_alice' },
    },
  }),
];
