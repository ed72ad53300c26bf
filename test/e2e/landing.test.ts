// The front door a newcomer meets: GET / (and the bare bases /api/v2 and /api/v1 the start-up banner
// names) answers a browser with a self-contained page and any other client with a JSON index, both
// pointing at what exists: every link on the page answers, the guides it names are in the
// repository, and the demo credentials appear only while the database holds the demo world. Its
// addresses never come from the request's Host, and a flood of requests is not a query each.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { root } from '../support/processes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { GUIDES } from '../../facade/http/landing.ts';
import { exchange } from '../support/raw-http.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => file && existsSync(file));
if (!executablePath && process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');

let server: TestServer;
let bare: TestServer;
beforeAll(async () => {
  // No webhook worker: its polling would be counted with the index's queries.
  server = await startTestServer({ countQueries: true, webhookWorker: false });
  // A database with the schema and nothing else: a deployment without the demo world.
  bare = await startTestServer({ db: await createTestDatabase({ seed: false }) });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await bare?.close();
  await bare?.db.drop();
});

describe('the index', () => {
  it('serves browsers a page with a strict policy, whose every link answers', async () => {
    for (const where of ['/', '/api/v2', '/api/v1']) {
      const response = await fetch(`${server.url}${where}`, { headers: HTML });
      expect(response.status, where).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('vary')).toMatch(/accept/i);
      const policy = response.headers.get('content-security-policy')!;
      // Kept by no shared cache (it may list the demo credentials), and never sniffed as another type.
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain('script-src');
      const html = await response.text();
      // The one inline style is the one the policy allows by hash; nothing else is loaded.
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
      expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
      expect(html).not.toMatch(/<script|src=|<link rel="stylesheet"/);
      for (const text of ['/docs', '/api/openapi.json', '/graphql', '/api/v1/gateway', '/overlays/scoreboard?token=…&amp;matchId=…', '/overlays/bracket?token=…&amp;stageId=…', 'POST /api/v2/organisations/{organisationId}/overlay-tokens', 'docs/v1.md#overlay-tokens']) {
        expect(html, text).toContain(text);
      }
      for (const text of ['demo-token-app', 'app_demo:demo-app-secret', 'demo-org-key-0001', 'demo-password']) expect(html, text).toContain(text);
      const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]).filter((href) => href !== 'data:,');
      expect(links).toEqual(expect.arrayContaining(['/docs', '/api/openapi.json', '/graphql']));
      for (const href of links) {
        expect(href, 'links stay on this server').toMatch(/^\/[^/]/);
        expect((await fetch(`${server.url}${href}`, { headers: HTML })).status, href).toBe(200);
      }
    }
  });

  it('names guides that are in the repository', () => {
    for (const guide of GUIDES) expect(existsSync(path.join(root, guide.path)), guide.path).toBe(true);
  });

  it('answers API clients with a JSON index in the documented shape, whose addresses answer', async () => {
    const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false });
    for (const where of ['/', '/api/v2', '/api/v1']) {
      const response = await fetch(`${server.url}${where}`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      const schema = document.paths[where].get.responses['200'].content['application/json'].schema;
      expect(ajv.validate(schema, body), JSON.stringify(ajv.errors)).toBe(true);
      const { links, demoWorld, overlays } = body.data;
      for (const url of [links.apiReference, links.openapi, links.restV2, links.restV1, links.graphql, links.oauthMetadata, links.health]) {
        expect(url.startsWith(`${server.url}/`), url).toBe(true);
        // As a browser follows them (GET /graphql without a query is GraphiQL for a browser only).
        expect((await fetch(url, { headers: HTML })).status, url).toBe(200);
      }
      expect(links.realtimeGateway.apiKeysAndOverlayTokens).toBe(`${server.url.replace(/^http/, 'ws')}/api/v1/gateway`);
      expect(overlays.token).toContain('POST /api/v2/organisations/{organisationId}/overlay-tokens');
      expect(demoWorld.accessTokens).toContain('demo-token-app');
    }
    // curl's default Accept (*/*) is an API client.
    const [curlLike] = await exchange(server.url, 'GET / HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nConnection: close\r\n\r\n');
    expect(curlLike.headers['content-type']).toMatch(/^application\/json/);
    // The demo token it lists works.
    const context = await fetch(`${server.url}/api/v2/auth/context`, { headers: { authorization: 'Bearer demo-token-app' } });
    expect(context.status).toBe(200);
  });

  it('takes its addresses from the server, never from the Host header', async () => {
    for (const accept of [HTML.accept, 'application/json']) {
      const [answer] = await exchange(server.url, `GET / HTTP/1.1\r\nHost: evil.example\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain('evil.example');
    }
  });

  it('lists no credentials for a database without the demo world', async () => {
    const page = await (await fetch(`${bare.url}/`, { headers: HTML })).text();
    expect(page).toContain('/docs');
    for (const text of ['demo-token', 'demo-app-secret', 'demo-org-key', 'demo-password']) expect(page, text).not.toContain(text);
    const index = await (await fetch(`${bare.url}/api/v2`)).json();
    expect(index.data.demoWorld).toBeNull();
    expect(JSON.stringify(index)).not.toContain('demo-token');
  });

  it('other methods: 405 with Allow; a flood of 1,000 requests is not a query each, and /healthz stays fast', async () => {
    const post = await fetch(`${server.url}/api/v2`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('HEAD, GET');
    const accepts = ['text/html', 'application/json', '*/*', 'text/*;q=0.5, application/*', ''];
    const requestIds: string[] = [];
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${server.url}${['/', '/api/v2', '/api/v1'][i % 3]}?n=${round}-${i}`, { headers: { accept: accepts[i % accepts.length], authorization: i % 2 ? 'Bearer demo-token-app' : 'Bearer nope' } }).then((r) => {
            requestIds.push(r.headers.get('x-request-id')!);
            return r.arrayBuffer();
          }),
        ),
      );
    }
    // The demo-world check is cached: of the 1,000 requests' own statements, a handful at most.
    expect(new Set(requestIds).size).toBe(1_000);
    expect(requestIds.reduce((sum, id) => sum + server.db.queryCount(id), 0)).toBeLessThan(5);
    const started = Date.now();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it.runIf(executablePath)('renders in Chromium without a policy violation or a request elsewhere', async () => {
    const browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const elsewhere: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(String(error)));
      page.on('request', (request) => !request.url().startsWith(server.url) && !request.url().startsWith('data:') && elsewhere.push(request.url()));
      const response = await page.goto(`${server.url}/`, { waitUntil: 'networkidle0' });
      expect(response!.status()).toBe(200);
      expect(await page.$eval('h1', (h1) => h1.textContent)).toBe('Esports competition platform');
      // The stylesheet applied: the policy let it through.
      expect(await page.$eval('main', (main) => getComputedStyle(main).maxWidth)).not.toBe('none');
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
