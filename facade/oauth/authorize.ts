// GET and POST /oauth/authorize: the browser side of the authorization-code flow. The decisions are
// the developer subgraph's (subgraphs/developer/oauth/); this module is their HTML and HTTP: pages,
// cookies, redirects.
//
// Unlike the API routes, these pages are not GraphQL operations: a form that takes a user's password
// must not also be an API call an application could make for the user (that is the password grant
// OAuth 2.1 removed), so they call the subgraph's module in this process.
//
// Forms carry the authorization request as hidden fields and a CSRF token bound to the browser's
// session: an HMAC keyed by its sign-in session (the esp_session cookie) while it is signed in, else by
// a random pre-session id (the esp_csrf cookie). A token taken from one session, or from before a
// sign-in or sign-out, is worth nothing in a signed-in session, even with the pre-session cookie it
// belongs to planted beside it. Before sign-in the token is a double submit of esp_csrf: whoever can
// set that cookie in a browser (another site cannot: SameSite=Lax, HttpOnly, host-only, scoped to
// /oauth) can also hold a token for it, as with any double-submit scheme.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Database } from '../../platform/db/database.ts';
import { randomSecret } from '../../platform/api/crypto.ts';
import { invalidUtf8InForm, textIssue } from '../../platform/api/input-safety.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../platform/db/unavailable.ts';
import {
  AUTHORIZATION_PARAMS,
  approveAuthorization,
  checkAuthorizationRequest,
  denyAuthorization,
  type AuthorizationCheck,
  type AuthorizationParams,
} from '../../subgraphs/developer/oauth/authorization.ts';
import { sessionUser, signIn, signOut, SESSION_TTL_SECONDS, type SessionUser } from '../../subgraphs/developer/oauth/sessions.ts';
import { readBody } from '../http/body.ts';
import type { Issuer } from '../http/oauth-metadata.ts';
import { refusalHeaders, type RateLimits } from '../http/rate-limits.ts';
import { beginCredentialCheck } from '../http/credential-checks.ts';
import { consentPage, errorPage, PAGE_CSP, signInPage } from './pages.ts';

const SESSION_COOKIE = 'esp_session';
/** The pre-session id a browser's CSRF tokens are bound to until it signs in (named for what it guards). */
const PRE_SESSION_COOKIE = 'esp_csrf';
const MAX_PARAM_LENGTH = 2000;
/** What this site's session and pre-session ids look like; any other cookie value is ignored. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

function cookieOptions(ctx: Context, maxAgeSeconds?: number) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/oauth', secure: ctx.secure, overwrite: true, ...(maxAgeSeconds ? { maxAge: maxAgeSeconds * 1000 } : {}) };
}

function sendPage(ctx: Context, status: number, html: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = html;
}

/** The consent form's fields, or null once a page has said why the body could not be read (a browser gets a page, not the API's JSON). */
async function readForm(ctx: Context): Promise<Record<string, unknown> | null> {
  try {
    return ((await readBody(ctx, 'form', { repeated: 'list' })) ?? {}) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    sendPage(ctx, error.status, errorPage(error.message));
    ctx.set(error.headers);
    return null;
  }
}

function redirect(ctx: Context, status: 302 | 303, location: string) {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Location', location);
  ctx.body = '';
}

/** The request's parameters, the names given more than once, and whether any is unusable text. */
function readParams(source: Record<string, unknown>): { params: AuthorizationParams; repeated: string[]; unusable: string | null } {
  const params: AuthorizationParams = {};
  const repeated: string[] = [];
  let unusable: string | null = null;
  for (const name of AUTHORIZATION_PARAMS) {
    let value = source[name];
    if (Array.isArray(value)) {
      repeated.push(name);
      value = value[0];
    }
    if (typeof value !== 'string') continue;
    if (value.length > MAX_PARAM_LENGTH || textIssue(value) !== null) unusable ??= name;
    else params[name] = value;
  }
  return { params, repeated, unusable };
}

/** The browser's pre-session id (before it signs in): its cookie, set now when it has none. */
function preSessionOf(ctx: Context): string {
  let id = ctx.cookies.get(PRE_SESSION_COOKIE);
  if (!id || !TOKEN_SHAPE.test(id)) {
    id = randomSecret(24);
    ctx.cookies.set(PRE_SESSION_COOKIE, id, cookieOptions(ctx));
  }
  return id;
}

const sessionOf = (ctx: Context) => {
  const token = ctx.cookies.get(SESSION_COOKIE);
  return token && TOKEN_SHAPE.test(token) ? token : undefined;
};

/** The CSRF token of forms shown to this session. */
const csrfFor = (binding: string) => createHmac('sha256', binding).update('esp-csrf-v1').digest('base64url');

function csrfMatches(binding: string, submitted: unknown): boolean {
  const expected = csrfFor(binding);
  if (typeof submitted !== 'string' || submitted.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(submitted));
}

/** A page whose database is away says so in a page of its own (503 with Retry-After), not in the API's JSON. */
function unavailablePage(handler: Middleware): Middleware {
  return async (ctx, next) => {
    try {
      await handler(ctx, next);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      sendPage(ctx, 503, errorPage(`The service is unavailable for a moment. Try again in a few seconds.`));
    }
  };
}

/** The browser's signed-in user, if any, and what its CSRF tokens are bound to. */
interface Browser {
  user: SessionUser | null;
  binding: string;
}

export function mountAuthorizePages(router: Router, db: Database, limits: RateLimits, issuer: Issuer) {
  /** The browser's signed-in user, if any, and what its CSRF tokens are bound to: that session, else its pre-session. */
  async function browserOf(ctx: Context): Promise<Browser> {
    const session = sessionOf(ctx);
    const user = await sessionUser(db, session);
    if (user && session) return { user, binding: `session:${session}` };
    return { user: null, binding: `browser:${preSessionOf(ctx)}` };
  }

  /** The check of the request, or the answer already sent when it cannot go on. */
  async function check(ctx: Context, source: Record<string, unknown>, answer: 302 | 303): Promise<Extract<AuthorizationCheck, { kind: 'ok' }> | null> {
    const { params, repeated, unusable } = readParams(source);
    if (unusable) {
      sendPage(ctx, 400, errorPage(`The parameter ${unusable} is too long or holds characters that cannot be used.`));
      return null;
    }
    const result = await checkAuthorizationRequest(db, params, repeated, issuer.url);
    if (result.kind === 'invalid') sendPage(ctx, 400, errorPage(result.message));
    else if (result.kind === 'redirect') redirect(ctx, answer, result.location);
    else return result;
    return null;
  }

  function showPage(ctx: Context, { user, binding }: Browser, request: Extract<AuthorizationCheck, { kind: 'ok' }>, signInError?: { status: number; message: string }) {
    const csrf = csrfFor(binding);
    if (!user || signInError) return sendPage(ctx, signInError?.status ?? 200, signInPage(request.client.name, request.params, csrf, signInError?.message));
    sendPage(ctx, 200, consentPage(request.client.name, user.displayName, request.scopes, request.params, csrf));
  }

  router.get('oauthAuthorize', '/oauth/authorize', unavailablePage(async (ctx) => {
    ctx.state.route = '/oauth/authorize';
    // A parameter decoded leniently would hold U+FFFD where the address held bytes that are not UTF-8.
    const notUtf8 = invalidUtf8InForm(Buffer.from(ctx.querystring, 'latin1'));
    if (notUtf8 !== null) return sendPage(ctx, 400, errorPage(`The ${notUtf8 ? `parameter ${notUtf8}` : 'address'} holds bytes that are not UTF-8.`));
    const request = await check(ctx, ctx.query, 302);
    if (request) showPage(ctx, await browserOf(ctx), request);
  }));

  router.post('oauthAuthorizeForm', '/oauth/authorize', unavailablePage(async (ctx) => {
    ctx.state.route = '/oauth/authorize';
    // Repeats are judged as on the GET: an authorization parameter's by the redirect rules, the form's own here.
    const form = await readForm(ctx);
    if (!form) return;
    const request = await check(ctx, form, 303);
    if (!request) return;
    if (Object.values(form).some(Array.isArray)) return sendPage(ctx, 400, errorPage('This form was sent with a field twice. Go back to the application and start again.'));
    const browser = await browserOf(ctx);
    if (!csrfMatches(browser.binding, form.csrf)) {
      return sendPage(ctx, 400, errorPage('This form has expired or did not come from this site. Go back to the application and start again.'));
    }
    const again = `/oauth/authorize?${new URLSearchParams(request.params as Record<string, string>)}`;
    switch (form.action) {
      case 'sign_in': {
        const username = typeof form.username === 'string' ? form.username : '';
        const password = typeof form.password === 'string' ? form.password : '';
        if (!username || !password || username.length > 200 || password.length > 200 || textIssue(username) || textIssue(password)) {
          return showPage(ctx, browser, request, { status: 400, message: 'Enter your username and password.' });
        }
        const admitted = await beginCredentialCheck(limits, ctx.ip);
        if ('refused' in admitted) {
          ctx.set(refusalHeaders(admitted.refused));
          return showPage(ctx, browser, request, { status: 429, message: `Too many failed sign-ins from your network: try again in ${Math.max(1, admitted.refused.resetSeconds)} s.` });
        }
        let session: Awaited<ReturnType<typeof signIn>>;
        try {
          session = await signIn(db, username, password);
        } catch (error) {
          await admitted.check.settle('unknown');
          throw error;
        }
        await admitted.check.settle(session ? 'authenticated' : 'failed');
        if (!session) return showPage(ctx, browser, request, { status: 401, message: 'That username and password do not match.' });
        ctx.cookies.set(SESSION_COOKIE, session.token, cookieOptions(ctx, SESSION_TTL_SECONDS));
        return redirect(ctx, 303, again);
      }
      case 'sign_out':
        await signOut(db, sessionOf(ctx));
        ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 });
        return redirect(ctx, 303, again);
      case 'approve':
        if (!browser.user) return showPage(ctx, browser, request);
        return redirect(ctx, 303, await approveAuthorization(db, request, browser.user.id, issuer.url));
      case 'deny':
        return redirect(ctx, 303, denyAuthorization(request, issuer.url));
      default:
        return sendPage(ctx, 400, errorPage('The form was sent without a choice.'));
    }
  }));
}
