// RFC 8414 authorization server metadata, so OAuth client libraries can discover the endpoints, and
// the issuer they are discovered under.
//
// The issuer is fixed for the process, never taken from a request's Host: PUBLIC_URL, else the
// address the server listens on. A request naming another host gets the same metadata (which may
// therefore be cached), and the iss of every authorization response (RFC 9207) is the same issuer.
import type Router from '@koa/router';
import { KNOWN_SCOPES } from '../../platform/domain/scopes.ts';
import { setting } from '../../platform/process/config.ts';
import { GRANT_TYPES } from '../../subgraphs/developer/oauth/model.ts';

/** PUBLIC_URL's origin (null when unset); anything but an http(s) origin throws its one sentence. */
export const publicUrlOf = (value: string | undefined): string | null => setting('PUBLIC_URL', { PUBLIC_URL: value }) ?? null;

/** The platform's issuer: PUBLIC_URL, else (local use) the first address it listens on. */
export class Issuer {
  private value: string | null;
  /** Whether it follows PUBLIC_URL (else the listening address). */
  readonly configured: boolean;

  constructor(publicUrl = setting('PUBLIC_URL')) {
    this.value = publicUrl ?? null;
    this.configured = this.value !== null;
  }

  /** The server listens at `url` (http://host:port). */
  listening(url: string): void {
    this.value ??= url;
  }

  get url(): string {
    if (!this.value) throw new Error('The OAuth issuer is not known before the server listens.');
    return this.value;
  }
}

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

export function mountOAuthMetadata(router: Router, issuerOf: Issuer) {
  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    const issuer = issuerOf.url;
    // The same for every request (nothing in it comes from the request), so caches may keep it.
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
      scopes_supported: KNOWN_SCOPES,
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
  });
}
