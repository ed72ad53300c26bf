// The HTML of the authorisation pages: sign-in, consent and the error page. Server-rendered, no
// script, one inline stylesheet allowed by its hash; every value written into them is escaped.
import { createHash } from 'node:crypto';
import { SCOPE_DESCRIPTIONS } from '../../platform/domain/scopes.ts';
import { AUTHORIZATION_PARAMS, type AuthorizationParams } from '../../subgraphs/developer/oauth/authorization.ts';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.55rem 1.2rem;margin:1rem .6rem 0 0;font-size:1rem;cursor:pointer}.allow{background:#2456d6;color:#fff;border:0;border-radius:4px}
ul{padding-left:1.2rem}li code{font-size:.85rem;color:#555}.error{color:#b00020}.muted{color:#666;font-size:.9rem}.link{background:none;border:0;color:#2456d6;padding:0;margin:0;text-decoration:underline;font-size:.9rem}`;

/** The pages' Content-Security-Policy: no script, no frames, nothing loaded but the inline style. */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'`;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The authorization request, carried through each form as hidden fields. */
function hiddenFields(params: AuthorizationParams, csrf: string): string {
  const fields = AUTHORIZATION_PARAMS.filter((name) => params[name] !== undefined).map(
    (name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name]!)}">`,
  );
  return [...fields, `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`].join('');
}

export function signInPage(applicationName: string, params: AuthorizationParams, csrf: string, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${escapeHtml(applicationName)}</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">${hiddenFields(params, csrf)}
<label for="username">Username or e-mail</label><input type="text" id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit" name="action" value="sign_in" class="allow">Sign in</button></form>`,
  );
}

export function consentPage(applicationName: string, userName: string, scopes: string[], params: AuthorizationParams, csrf: string): string {
  const items = scopes.map((scope) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)} <code>${escapeHtml(scope)}</code></li>`).join('');
  return page(
    `Authorise ${applicationName}`,
    `<h1>${escapeHtml(applicationName)} wants to act for you</h1>
<p>Signed in as <strong>${escapeHtml(userName)}</strong>. If you allow it, ${escapeHtml(applicationName)} may, where your own roles let you:</p>
${items ? `<ul>${items}</ul>` : '<p>read what you can read (no management scope).</p>'}
<p class="muted">You can revoke this at any time; it never gets your password.</p>
<form method="post" action="/oauth/authorize">${hiddenFields(params, csrf)}
<button type="submit" name="action" value="approve" class="allow">Allow</button><button type="submit" name="action" value="deny">Deny</button>
<p class="muted">Not you? <button type="submit" name="action" value="sign_out" class="link">Sign in as someone else</button></p></form>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Authorisation failed',
    `<h1>This authorisation request cannot be shown</h1><p class="error">${escapeHtml(message)}</p>
<p class="muted">Nothing was sent back to the application. If you followed a link, tell its owner.</p>`,
  );
}
