// The browser client of docs/realtime.md runs as written against the platform, with nothing from
// a CDN: its graphql-ws script comes from the platform (/realtime/graphql-ws.js). The page's scripts
// run in Node with the ws package as the browser's WebSocket (always), and the page itself in
// headless Chromium, opened from a file (when Chromium is on the machine); each shows the overlay
// score a playday write sets.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { root } from '../support/processes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => file && existsSync(file));
if (!executablePath && process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The page of the "A browser client" section, with the documented host replaced by the test server's. */
function documentedPage(): string {
  const text = readFileSync(path.join(root, 'docs/realtime.md'), 'utf8');
  const section = text.slice(text.indexOf('## A browser client'));
  const block = /```html\n([\s\S]*?)```/.exec(section)![1];
  return block.replaceAll('localhost:4000', new URL(server.url).host);
}

let score = 0;
/** Sets the playday's overlay score until `shown()` says the page shows it (the subscription may not be running yet). */
async function writeUntilShown(shown: (expected: string) => Promise<boolean>): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    score++;
    const revision = (await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } })).revision;
    const written = await call(server.url, '/api/v2/events/evt_open/playdays/pd_open_1', { method: 'PATCH', ifMatch: revision, body: { overlayScoreA: score, overlayScoreB: 1 } });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const expected = `${score} : 1`;
    for (let i = 0; i < 20; i++) {
      if (await shown(expected)) return expected;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the page never showed the score');
}

describe('the browser client of docs/realtime.md', () => {
  it('loads nothing from elsewhere: its one script is the platform\'s', async () => {
    const page = documentedPage();
    const sources = [...page.matchAll(/src="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual([`${server.url}/realtime/graphql-ws.js`]);
    expect(page).not.toMatch(/import\s|esm\.sh|unpkg|jsdelivr|cdn/i);
    const script = await fetch(sources[0]);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await script.text()).toContain('graphqlWs');
  });

  it('shows the overlay score a write sets (its scripts in Node, ws as the WebSocket)', async () => {
    const page = documentedPage();
    const scripts = [...page.matchAll(/<script(?: src="([^"]+)")?>([\s\S]*?)<\/script>/g)];
    const storage = new Map<string, string>();
    const context = vm.createContext({
      WebSocket,
      console,
      setTimeout,
      clearTimeout,
      localStorage: { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => void storage.set(key, value) },
      document: { body: { textContent: 'waiting for the first change…' } },
    });
    for (const [, src, inline] of scripts) vm.runInContext(src ? await (await fetch(src)).text() : inline, context);
    try {
      const expected = await writeUntilShown(async (text) => (context.document as { body: { textContent: string } }).body.textContent === text);
      expect((context.document as { body: { textContent: string } }).body.textContent).toBe(expected);
      // The cursor is kept, as the example says, for a reload to resume from.
      expect(storage.get('overlay-cursor')).toMatch(/.+/);
    } finally {
      await vm.runInContext('client.dispose()', context);
    }
  }, 30_000);

  it.runIf(executablePath)('shows the overlay score a write sets, opened from a file in Chromium', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'overlay-'));
    const file = path.join(dir, 'overlay.html');
    writeFileSync(file, documentedPage());
    const browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(String(error)));
      await tab.goto(`file://${file}`);
      await writeUntilShown(async (text) => (await tab.evaluate(() => document.body.textContent)) === text);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
