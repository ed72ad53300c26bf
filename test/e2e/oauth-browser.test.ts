// The sign-in and consent pages in a real browser: headless Chromium (Debian's chromium package;
// CHROMIUM_PATH overrides where it is) signs in as a demo user, reads the consent page, allows, and
// lands on the application's redirect URI (answered by request interception: nothing listens on
// localhost:8765); oauth4webapi then exchanges the code. Without a browser on the machine the test is
// skipped, unless REQUIRE_BROWSER=1 (CI) makes that a failure.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { authorizationRequest, DEMO_REDIRECT_URI, discover, insecure } from '../support/authorize-forms.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
if (!executablePath && process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');

let server: TestServer;
let browser: Browser | undefined;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: 'app_demo' };

beforeAll(async () => {
  server = await startTestServer();
  as = await discover(server.url);
  if (executablePath) {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A tab of a fresh browser context (no cookies from another test) that records problems (page errors,
 * console errors such as CSP violations; the pages' own 4xx answers are expected) and answers the
 * application's redirect URI itself.
 */
async function tab(): Promise<{ page: Page; problems: string[]; callback: Promise<URL> }> {
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.setRequestInterception(true);
  let arrived!: (url: URL) => void;
  const callback = new Promise<URL>((resolve) => (arrived = resolve));
  const application = new URL(DEMO_REDIRECT_URI).origin;
  page.on('request', (request) => {
    if (request.url().startsWith(DEMO_REDIRECT_URI)) {
      arrived(new URL(request.url()));
      void request.respond({ status: 200, contentType: 'text/plain', body: 'the application has the code' });
    } else if (request.url().startsWith(application)) {
      // The application's own page asks for its icon: not the platform's business.
      void request.respond({ status: 404, body: '' });
    } else if (!request.url().startsWith(server.url)) {
      problems.push(`request to another origin: ${request.url()}`);
      void request.abort();
    } else void request.continue();
  });
  return { page, problems, callback };
}

async function authorizationUrl(scope: string) {
  const { verifier, state, query } = await authorizationRequest(scope);
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams(query).toString();
  return { url, verifier, state };
}

describe('the authorisation pages in Chromium', () => {
  it.skipIf(!executablePath)('sign in, consent naming the application and each scope, and the code reaches the application', async () => {
    const { page, problems, callback } = await tab();
    const flow = await authorizationUrl('event:manage event.results:manage');
    await page.goto(flow.url.toString());
    expect(await page.title()).toBe('Sign in');
    await page.type('#username', 'alice');
    await page.type('#password', 'wrong-password');
    await Promise.all([page.waitForNavigation(), page.click('button[value="sign_in"]')]);
    expect(await page.$eval('[role="alert"]', (element) => element.textContent)).toContain('do not match');
    await page.type('#username', 'alice');
    await page.type('#password', 'demo-password');
    await Promise.all([page.waitForNavigation(), page.click('button[value="sign_in"]')]);

    expect(await page.title()).toBe('Authorise Demo App');
    const text = await page.$eval('main', (element) => element.textContent ?? '');
    expect(text).toContain('Demo App wants to act for you');
    expect(text).toContain('Alice Admin');
    expect(text).toContain('event:manage');
    expect(text).toContain('event.results:manage');
    expect(text).toContain('Report match results and adjust standings');
    expect(text).not.toContain('broadcast:manage');

    await page.click('button[value="approve"]');
    const arrived = await callback;
    const params = oauth.validateAuthResponse(as, client, arrived, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic('demo-app-secret'), params, DEMO_REDIRECT_URI, flow.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    const context = await (await fetch(`${server.url}/api/v2/auth/context`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json();
    expect(context.data.actor).toEqual({ type: 'user', userId: 'usr_alice' });
    expect(context.data.scopes).toEqual(['event.results:manage', 'event:manage']);
    expect(problems).toEqual([]);
    await page.browserContext().close();
  });

  it.skipIf(!executablePath)('a user who denies sends access_denied back; an unregistered redirect URI stays on an error page', async () => {
    const { page, problems, callback } = await tab();
    const flow = await authorizationUrl('broadcast:manage');
    await page.goto(flow.url.toString());
    await page.type('#username', 'bob');
    await page.type('#password', 'demo-password');
    await Promise.all([page.waitForNavigation(), page.click('button[value="sign_in"]')]);
    await page.click('button[value="deny"]');
    const arrived = await callback;
    expect(arrived.searchParams.get('error')).toBe('access_denied');
    expect(arrived.searchParams.get('state')).toBe(flow.state);

    const bad = new URL(flow.url);
    bad.searchParams.set('redirect_uri', 'https://evil.example/callback');
    const answer = await page.goto(bad.toString());
    expect(answer?.status()).toBe(400);
    expect(await page.$eval('main', (element) => element.textContent ?? '')).toContain('not one the application registered');
    expect(problems).toEqual([]);
    await page.browserContext().close();
  });
});
