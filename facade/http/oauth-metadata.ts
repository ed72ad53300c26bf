// RFC 8414 authorization server metadata, so OAuth client libraries can discover the endpoints.
import type Router from '@koa/router';
import { PROVIDER_SCOPES, SCOPES } from '../../subgraphs/shared/scopes.ts';
import { SUPPORTED_GRANT_TYPES } from '../../subgraphs/developer/tokens.ts';

export function mountOAuthMetadata(router: Router) {
  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    // The issuer is the public origin: PUBLIC_URL behind a proxy, else the origin of the request.
    const issuer = process.env.PUBLIC_URL?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      grant_types_supported: SUPPORTED_GRANT_TYPES,
      scopes_supported: [...SCOPES, ...PROVIDER_SCOPES],
      response_types_supported: [],
      service_documentation: `${issuer}/docs`,
    };
  });
}
