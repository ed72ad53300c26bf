// Credentials, and the headers they become: an OAuth access token (Authorization: Bearer), an
// organisation API key (x-api-key) or an overlay token (x-overlay-token). Client credentials are
// exchanged at /oauth/token and kept until shortly before they expire.

/** Answers the current access token; called before every request, so it may refresh one. */
export type TokenProvider = () => string | Promise<string>;

export type Credentials =
  | { accessToken: string | TokenProvider }
  | { clientCredentials: { clientId: string; clientSecret: string; scope?: string } }
  | { apiKey: string }
  | { overlayToken: string }
  | { none: true };

export interface Authorizer {
  headers(): Promise<Record<string, string>>;
  /** The gateway's connection_init payload for the same credential. */
  connectionParams(): Promise<Record<string, string>>;
  /** After a 401: forget a cached token, if one was kept; true when another try may succeed. */
  invalidate(): boolean;
}

/** Seconds before expiry when a client-credentials token is replaced. */
const EXPIRY_MARGIN_SECONDS = 60;

export function authorizer(credentials: Credentials, tokenEndpoint: (body: URLSearchParams, basic: string) => Promise<{ access_token: string; expires_in: number }>): Authorizer {
  if ('apiKey' in credentials) {
    return { headers: async () => ({ 'x-api-key': credentials.apiKey }), connectionParams: async () => ({ apiKey: credentials.apiKey }), invalidate: () => false };
  }
  if ('overlayToken' in credentials) {
    return { headers: async () => ({ 'x-overlay-token': credentials.overlayToken }), connectionParams: async () => ({ overlayToken: credentials.overlayToken }), invalidate: () => false };
  }
  if ('none' in credentials) return { headers: async () => ({}), connectionParams: async () => ({}), invalidate: () => false };
  let token: TokenProvider;
  let invalidate = () => false;
  if ('accessToken' in credentials) {
    const given = credentials.accessToken;
    token = typeof given === 'string' ? () => given : given;
  } else {
    const { clientId, clientSecret, scope } = credentials.clientCredentials;
    let cached: { token: string; until: number } | undefined;
    let pending: Promise<string> | undefined;
    token = () => {
      if (cached && Date.now() < cached.until) return cached.token;
      // Concurrent requests share one token request.
      pending ??= (async () => {
        try {
          const body = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
          const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
          const answer = await tokenEndpoint(body, basic);
          cached = { token: answer.access_token, until: Date.now() + Math.max(0, answer.expires_in - EXPIRY_MARGIN_SECONDS) * 1000 };
          return answer.access_token;
        } finally {
          pending = undefined;
        }
      })();
      return pending;
    };
    invalidate = () => {
      const had = cached !== undefined;
      cached = undefined;
      return had;
    };
  }
  return {
    headers: async () => ({ authorization: `Bearer ${await token()}` }),
    connectionParams: async () => ({ authorization: `Bearer ${await token()}` }),
    invalidate: () => invalidate(),
  };
}
