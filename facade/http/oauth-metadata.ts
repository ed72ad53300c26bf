// RFC 8414 authorization server metadata, so OAuth client libraries can discover the endpoints.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { PROVIDER_SCOPES, SCOPES } from '../../subgraphs/shared/scopes.ts';
import { GRANT_TYPES } from '../../subgraphs/developer/oauth/model.ts';

/** The issuer is the public origin: PUBLIC_URL behind a proxy, else the origin of the request. */
export const issuerOf = (ctx: Context) => process.env.PUBLIC_URL?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`;

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

export function mountOAuthMetadata(router: Router) {
  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    const issuer = issuerOf(ctx);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: GRANT_TYPES,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      scopes_supported: [...SCOPES, ...PROVIDER_SCOPES],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
  });
}
