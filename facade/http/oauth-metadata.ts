// RFC 8414 authorization server metadata, so OAuth client libraries can discover the endpoints, and
// the issuer they are discovered under.
//
// The issuer is fixed for the process, never taken from a request's Host: PUBLIC_URL, else the
// address the server listens on. A request naming another host gets the same metadata (which may
// therefore be cached), and the iss of every authorization response (RFC 9207) is the same issuer.
import type Router from '@koa/router';
import { KNOWN_SCOPES } from '../../subgraphs/shared/scopes.ts';
import { GRANT_TYPES } from '../../subgraphs/developer/oauth/model.ts';

/** PUBLIC_URL as an issuer: an http(s) origin (scheme, host, port), nothing after it. */
export function publicUrlOf(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // refused below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new Error(`PUBLIC_URL must be the origin clients call, e.g. https://api.example.com (http or https, no path, query or fragment); it is "${value}".`);
  }
  return url.origin;
}

/** The platform's issuer: PUBLIC_URL, else (local use) the first address it listens on. */
export class Issuer {
  private value: string | null;
  /** Whether it follows PUBLIC_URL (else the listening address). */
  readonly configured: boolean;

  constructor(publicUrl = process.env.PUBLIC_URL) {
    this.value = publicUrlOf(publicUrl);
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
