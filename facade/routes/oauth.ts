import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { ApiError } from '../../subgraphs/shared/errors.ts';
import { defineRoute, type RouteInput } from './table.ts';

const tokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string(),
  })
  .strict()
  .meta({ id: 'TokenResponse' });

/** client_secret_basic (RFC 6749 §2.3.1): form-urlencoded id and secret in HTTP Basic. */
function clientFromBasic(header: unknown): { id: string; secret: string } | null {
  if (typeof header !== 'string' || !/^Basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

function tokenVariables({ body, headers }: RouteInput) {
  const form = body as { grant_type: string; scope?: string; client_id?: string; client_secret?: string };
  const basic = clientFromBasic(headers.authorization);
  if (basic && (form.client_id || form.client_secret) && form.client_secret) {
    throw new ApiError('validation_failed', 'Use one client authentication method, not both.', [{ field: 'client_secret', issue: 'two authentication methods' }]);
  }
  const clientId = basic?.id ?? form.client_id;
  const clientSecret = basic?.secret ?? form.client_secret;
  if (!clientId || !clientSecret) {
    throw new ApiError('validation_failed', 'Client authentication is required (HTTP Basic or client_id and client_secret).', [{ field: 'client_id', issue: 'required' }]);
  }
  return { input: { grantType: form.grant_type, clientId, clientSecret, scope: form.scope } };
}

export const oauthRoutes = [
  defineRoute({
    operationId: 'issueToken',
    method: 'post',
    path: '/oauth/token',
    tag: 'OAuth',
    summary: 'Issue an access token',
    description:
      'RFC 6749 token endpoint. grant_type client_credentials gives a token whose actor is the application itself. Authenticate the client with HTTP Basic (client_secret_basic) or with client_id and client_secret in the form (client_secret_post). scope, space-separated, must be a subset of the scopes granted to the application; without it the token carries all of them. Errors follow RFC 6749 §5.2.',
    security: 'client',
    input: {
      headers: z.object({ authorization: z.string().optional() }),
      body: z
        .object({
          grant_type: z.string().min(1),
          scope: z.string().max(1000).optional(),
          client_id: z.string().max(128).optional(),
          client_secret: z.string().max(256).optional(),
        })
        .strict(),
      bodyType: 'form',
    },
    operation: prepareOperation(/* GraphQL */ `
      mutation IssueAccessToken($input: AccessTokenRequest!) {
        issueAccessToken(input: $input) { accessToken tokenType expiresIn scope }
      }
    `),
    variables: tokenVariables,
    result: (data) => {
      const issued = data.issueAccessToken as { accessToken: string; tokenType: string; expiresIn: number; scope: string };
      return { access_token: issued.accessToken, token_type: issued.tokenType, expires_in: issued.expiresIn, scope: issued.scope };
    },
    success: { status: 200, schema: tokenResponse, description: 'The access token (RFC 6749 §5.1).' },
    errors: [400, 401, 429, 500],
    format: 'raw',
    errorFormat: 'oauth',
    responseHeaders: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    example: {
      request: 'POST /oauth/token\nAuthorization: Basic YXBwX2RlbW86ZGVtby1hcHAtc2VjcmV0\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&scope=event%3Amanage',
      response: { access_token: 'esp_at_…', token_type: 'Bearer', expires_in: 3600, scope: 'event:manage' },
    },
  }),
];
