// The authorization pages driven over HTTP as a browser would drive them (forms, cookies, redirects),
// for tests that are about the protocol rather than the pages (test/e2e/oauth-browser.test.ts drives
// them in Chromium).
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';

export const DEMO_REDIRECT_URI = 'http://localhost:8765/callback';
/** http on localhost: what oauth4webapi refuses by default. */
export const insecure = { [oauth.allowInsecureRequests]: true };

/** The authorisation server's metadata, as an OAuth client discovers it (RFC 8414). */
export async function discover(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
}

/** A fresh authorization request of app_demo with PKCE: its verifier, state and query parameters. */
export async function authorizationRequest(scope = 'event:manage broadcast:manage') {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const query: Record<string, string> = {
    response_type: 'code',
    client_id: 'app_demo',
    redirect_uri: DEMO_REDIRECT_URI,
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  };
  return { verifier, state, query };
}

/** A tiny cookie jar: what Set-Cookie gave, sent back on the next request. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/** The hidden fields of the page's form. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]] = unescape(match[2]);
  return fields;
}

export class AuthorizeSession {
  readonly jar = new CookieJar();

  constructor(readonly base: string) {}

  async get(path: string): Promise<Response> {
    const response = await fetch(new URL(path, this.base), { redirect: 'manual', headers: { cookie: this.jar.header() } });
    this.jar.take(response);
    return response;
  }

  async post(fields: Record<string, string>): Promise<Response> {
    const response = await fetch(`${this.base}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    this.jar.take(response);
    return response;
  }

  /**
   * Signs in (if asked to) and answers the consent page; resolves to the redirect to the client, the
   * URL it would have been sent to.
   */
  async authorize(query: Record<string, string>, options: { username?: string; password?: string; decision?: 'approve' | 'deny' } = {}): Promise<URL> {
    let page = await this.get(`/oauth/authorize?${new URLSearchParams(query)}`);
    if (page.status === 302) return new URL(page.headers.get('location')!);
    expect(page.status).toBe(200);
    let html = await page.text();
    if (html.includes('name="password"')) {
      const signedIn = await this.post({ ...formFields(html), action: 'sign_in', username: options.username ?? 'alice', password: options.password ?? 'demo-password' });
      expect(signedIn.status, await signedIn.clone().text()).toBe(303);
      page = await this.get(signedIn.headers.get('location')!);
      expect(page.status).toBe(200);
      html = await page.text();
    }
    expect(html).toContain('wants to act for you');
    const answered = await this.post({ ...formFields(html), action: options.decision ?? 'approve' });
    expect(answered.status).toBe(303);
    return new URL(answered.headers.get('location')!);
  }
}
