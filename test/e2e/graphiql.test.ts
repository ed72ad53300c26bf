// The GraphQL IDE a browser gets at /graphql: GraphiQL served by the platform itself, checked in
// headless Chromium (Debian's chromium package; CHROMIUM_PATH overrides where it is). It loads with
// nothing from any other origin, shows no error, and runs its default query against the API.
// Without a browser on the machine the browser test is skipped, unless REQUIRE_BROWSER=1 (CI) makes
// that a failure.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';

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
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'graphql-ws.js', 'start.js', 'schema.json']) {
      expect((await fetch(`${server.url}/graphql/ide/${asset}`)).status, asset).toBe(200);
    }
    const missing = await fetch(`${server.url}/graphql/ide/nothing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toContain('max-age');
    // The platform's own script and the schema change with the platform: revalidated, 304 while current.
    for (const asset of ['start.js', 'schema.json']) {
      const first = await fetch(`${server.url}/graphql/ide/${asset}`);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const again = await fetch(`${server.url}/graphql/ide/${asset}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(again.status, asset).toBe(304);
    }
    const query = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'text/html, application/json' } });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' }, extensions: { cost: { estimated: 0, charged: 1 } } });
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

  it('describes the Subscription type the gateway serves, beside the API schema', async () => {
    const introspection = (await (await fetch(`${server.url}/graphql/ide/schema.json`)).json()) as { __schema: { subscriptionType: { name: string } | null; types: { name: string; fields: { name: string }[] | null }[] } };
    expect(introspection.__schema.subscriptionType).toMatchObject({ name: 'Subscription' });
    const subscription = introspection.__schema.types.find((type) => type.name === 'Subscription')!;
    expect(subscription.fields!.map((field) => field.name).sort()).toEqual(['broadcastChanged', 'eventChanged', 'mapsChanged', 'matchChanged', 'playdayChanged', 'standingsChanged']);
    expect(introspection.__schema.types.find((type) => type.name === 'Event')).toBeDefined();
  });

  it.skipIf(!executablePath)('runs a subscription over the gateway socket with the credential of the Headers tab', async () => {
    const tab = await browser!.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    tab.on('pageerror', (error) => problems.push(String(error)));
    // What GraphiQL keeps of the last session: the subscription in the editor.
    await tab.evaluateOnNewDocument(() => {
      localStorage.setItem('graphiql:query', 'subscription Follow { eventChanged(eventId: "evt_open") { cursor type event { name } } }');
    });
    await tab.goto(`${server.url}/graphql`, { waitUntil: 'networkidle0' });
    await tab.waitForSelector('.graphiql-container', { timeout: 20_000 });
    await tab.click('.graphiql-execute-button');
    const name = `Open Cup ${Date.now() % 100_000}`;
    // The socket subscribes from now: write until a message shows (the first write may come before it is in place).
    await vi.waitFor(
      async () => {
        const event = await call(server.url, '/api/v2/events/evt_open', { token: 'demo-token-alice' });
        await call(server.url, '/api/v2/events/evt_open', { method: 'PATCH', token: 'demo-token-alice', ifMatch: event.body.data.revision, key: uniqueKey('ide'), body: { name } });
        const response = await tab.$eval('.graphiql-response', (element) => element.textContent ?? '');
        expect(response).toContain(name);
      },
      { timeout: 20_000, interval: 1000 },
    );
    const response = await tab.$eval('.graphiql-response', (element) => element.textContent ?? '');
    expect(response).toContain('event.updated');
    expect(response).toContain('cursor');
    expect(response).not.toContain('createFetcher');
    expect(problems).toEqual([]);
    await tab.close();
  });
});
