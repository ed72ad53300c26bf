// The GraphQL IDE a browser gets at /graphql: GraphiQL served by the platform itself, checked in
// headless Chromium (Debian's chromium package; CHROMIUM_PATH overrides where it is). It loads with
// nothing from any other origin, shows no error, and runs its default query against the API.
// Without a browser on the machine the browser test is skipped, unless REQUIRE_BROWSER=1 (CI) makes
// that a failure.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
if (!executablePath && process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');

let server: TestServer;
let browser: Browser | undefined;
beforeAll(async () => {
  server = await startTestServer();
  if (executablePath) browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('/graphql for browsers', () => {
  it('serves the page to a browser and GraphQL to everyone else', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'start.js']) {
      expect((await fetch(`${server.url}/graphql/ide/${asset}`)).status, asset).toBe(200);
    }
    expect((await fetch(`${server.url}/graphql/ide/nothing.js`)).status).toBe(404);
    const query = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'text/html, application/json' } });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it.skipIf(!executablePath)('loads GraphiQL in headless Chromium from this server alone and runs the default query', async () => {
    const tab = await browser!.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    const origin = new URL(server.url).origin;
    tab.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    tab.on('pageerror', (error) => problems.push(String(error)));
    tab.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await tab.goto(`${server.url}/graphql`, { waitUntil: 'networkidle0' });
    await tab.waitForSelector('.graphiql-container', { timeout: 20_000 });
    await tab.click('.graphiql-execute-button');
    await tab.waitForFunction(() => (document.querySelector('.graphiql-response')?.textContent ?? '').includes('applicationId'), { timeout: 20_000 });
    const response = await tab.$eval('.graphiql-response', (element) => element.textContent ?? '');
    expect(response).toContain('app_demo');
    expect(response).toContain('ins_demo_org');
    expect(response).not.toContain('"errors"');
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await tab.close();
  });
});
