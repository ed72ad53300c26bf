// The overlays the platform serves, in headless Chromium (Debian's chromium package; CHROMIUM_PATH
// overrides where it is), driven the way a broadcaster's browser source is: the page is opened with
// an overlay token in its address and left alone while results are reported through the API. The
// pages talk to the server through a TCP relay the test can cut, so a dropped connection is a real
// one. The screenshots in docs/overlays.md are written by this file. Without a browser on the
// machine the browser tests are skipped, unless REQUIRE_BROWSER=1 (CI) makes that a failure.
import { existsSync } from 'node:fs';
import net from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { createEventWithParticipants } from '../support/stage-fixtures.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
if (!executablePath && process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
const SCREENSHOTS = process.env.OVERLAY_SCREENSHOTS === '1' ? new URL('../../docs/overlays/', import.meta.url) : null;

/** A relay in front of the server whose connections the test can cut, and refuse for a while. */
class Relay {
  private readonly sockets = new Set<net.Socket>();
  private refusing = false;
  private server!: net.Server;
  url = '';

  async start(target: URL): Promise<void> {
    this.server = net.createServer((client) => {
      if (this.refusing) return client.destroy();
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Cuts every open connection and refuses new ones until resume(). */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  resume(): void {
    this.refusing = false;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let server: TestServer;
let browser: Browser | undefined;
const relay = new Relay();

beforeAll(async () => {
  server = await startTestServer({ webhookWorker: false });
  await relay.start(new URL(server.url));
  if (executablePath) {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await relay.close();
  await server?.close();
});

const ALICE = 'demo-token-alice';

/** A write of the organiser, with the event's current revision and a fresh idempotency key. */
async function write(eventId: string, method: string, path: string, body?: unknown) {
  const event = await call(server.url, `/api/v2/events/${eventId}`, { token: ALICE });
  const response = await call(server.url, path, { method, token: ALICE, body, ifMatch: event.body.data.revision, key: uniqueKey('overlay') });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.data;
}

async function overlayToken(eventId: string): Promise<{ id: string; token: string }> {
  const response = await call(server.url, '/api/v2/organisations/org_demo/overlay-tokens', { method: 'POST', token: ALICE, body: { eventId, label: 'Browser source', expiresIn: 3600 } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.data.overlayToken.id, token: response.body.data.token };
}

/** An event of org_demo with a started stage of the given format over `count` new teams. */
async function startedStage(count: number, format: string, settings: Record<string, unknown> = {}) {
  const { eventId } = await createEventWithParticipants(server, count);
  const stage = await write(eventId, 'POST', `/api/v2/events/${eventId}/stages`, { name: format === 'round_robin' ? 'Groups' : 'Playoffs', format, bestOf: 3, settings });
  await write(eventId, 'POST', `/api/v2/events/${eventId}/stages/${stage.resourceId}/start`);
  const matches = await call(server.url, `/api/v1/events/${eventId}/matches?stageId=${stage.resourceId}&limit=100`, { token: null, headers: { 'x-api-key': 'demo-org-key-0001' } });
  return { eventId, stageId: stage.resourceId as string, matches: matches.body.data as Array<Record<string, any>> };
}

/** A tab at 1280×720 that records page errors, CSP violations and requests leaving the server. */
async function tab(url: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  const problems: string[] = [];
  page.on('console', (message) => {
    // The browser reports the refused reads and, while the relay is cut, the reads and sockets that failed.
    if (message.type() === 'error' && !/^(Failed to load resource: the server responded with a status of (401|404)|Failed to load resource: net::ERR_|WebSocket connection to .* failed)/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url().startsWith(relay.url)) return void request.continue();
    // Team logos live on their owners' sites: a browser source loads them, this machine is offline.
    if (request.resourceType() === 'image') return void request.respond({ status: 404, body: '' });
    problems.push(`request to another origin: ${request.url()}`);
    void request.abort();
  });
  await page.goto(`${relay.url}${url}`);
  return { page, problems };
}

/**
 * A screenshot for docs/overlays.md, over a dark stand-in for the game feed the page is laid on in a
 * browser source (the page itself is transparent: asserted in the scoreboard test).
 */
async function screenshot(page: Page, name: string, height?: number): Promise<void> {
  if (!SCREENSHOTS) return;
  await page.evaluate(() => (document.documentElement.style.background = 'linear-gradient(135deg, #3a4a5c, #1b232c)'));
  await page.screenshot({ path: new URL(name, SCREENSHOTS).pathname, ...(height ? { clip: { x: 0, y: 0, width: 1280, height } } : { fullPage: true }) });
  await page.evaluate(() => (document.documentElement.style.background = ''));
}

const text = (page: Page, selector: string) => page.$eval(selector, (node) => node.textContent ?? '').catch(() => null);

/** Waits until the page shows what is expected, and answers how long that took. */
async function shows(page: Page, check: string, timeout = 1000): Promise<number> {
  const started = performance.now();
  await page.waitForFunction(check, { timeout, polling: 'mutation' });
  return performance.now() - started;
}

/**
 * Waits until the page is live and past its first second: a change committed before its
 * subscription is in place shows at the reread a second after subscribing (docs/overlays.md), so
 * only a change made after that is held to the one-second promise.
 */
async function following(page: Page): Promise<void> {
  await shows(page, `document.body.dataset.status === 'live'`, 5000);
  await new Promise((resolve) => setTimeout(resolve, 1200));
}

describe('overlay pages without a browser', () => {
  it('answer their page with a policy that keeps everything on this server and the token off other sites', async () => {
    const response = await fetch(`${server.url}/overlays/scoreboard?token=ovl_x&matchId=mtc_1`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    // The address holds the token: no cache keeps the page under it.
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bracket = await fetch(`${server.url}/overlays/bracket?token=ovl_x&stageId=stg_1`, { method: 'HEAD' });
    expect([bracket.status, bracket.headers.get('cache-control'), bracket.headers.get('referrer-policy')]).toEqual([200, 'no-store', 'no-referrer']);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('/overlays/assets/scoreboard.js');
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['scoreboard.js', 'bracket.js', 'overlay.css', 'brackets-viewer.js', 'brackets-viewer.css']) {
      const answer = await fetch(`${server.url}/overlays/assets/${asset}`);
      expect(answer.status, asset).toBe(200);
      expect(await answer.text(), asset).not.toMatch(/https?:\/\/(?!github\.com)[a-z]/i);
    }
    const notThere = await fetch(`${server.url}/overlays/assets/nope.js`);
    expect(notThere.status).toBe(404);
    expect(notThere.headers.get('cache-control')).toBeNull();
    // Revalidated on every load: a 304 while unchanged, so a page never runs a script of another version.
    const script = await fetch(`${server.url}/overlays/assets/scoreboard.js`);
    expect(script.headers.get('cache-control')).toBe('no-cache');
    const etag = script.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await fetch(`${server.url}/overlays/assets/scoreboard.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // The realtime browser script is served the same way (facade/http/static-assets.ts).
    const realtime = await fetch(`${server.url}/realtime/graphql-ws.js`);
    expect(realtime.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/realtime/graphql-ws.js`, { headers: { 'if-none-match': realtime.headers.get('etag')! } })).status).toBe(304);
  });

  it('refuse an address that cannot work with a sentence naming the parameter, as HTML in a browser and the error body otherwise', async () => {
    for (const [path, field] of [
      ['/overlays/scoreboard?matchId=mtc_1', 'token'],
      ['/overlays/scoreboard?token=ovl_x', 'matchId'],
      ['/overlays/scoreboard?token=ovl_x&matchId=a&playdayId=b', 'matchId'],
      ['/overlays/bracket?token=ovl_x', 'stageId'],
      ['/overlays/bracket?token=ovl_x&stageId=s&colour=red', 'colour'],
    ]) {
      const json = await call(server.url, path, { token: null });
      expect(json.status, path).toBe(400);
      expect(json.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(json.body.error.details), path).toContain(field);
      const html = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(html.status).toBe(400);
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(await html.text()).toContain('This overlay address is not valid');
      // A refusal's address holds the token as well: neither answer is stored or sent on as a Referer.
      for (const answer of [json, html]) {
        expect([answer.headers.get('cache-control'), answer.headers.get('referrer-policy')], path).toEqual(['no-store', 'no-referrer']);
      }
    }
    for (const method of ['POST', 'DELETE']) {
      const refused = await fetch(`${server.url}/overlays/scoreboard?token=ovl_x&matchId=mtc_1`, { method });
      expect([refused.status, refused.headers.get('allow'), refused.headers.get('cache-control')], method).toEqual([405, 'GET, HEAD', 'no-store']);
      expect((await refused.json()).error.details[0].issue).toBe('method_not_allowed');
    }
  });
});

describe('overlays in Chromium', () => {
  it.skipIf(!executablePath)('the scoreboard shows a result reported through the API within a second, and resumes from its cursor after the connection drops', async () => {
    const { eventId, matches } = await startedStage(8, 'single_elimination', { thirdPlaceMatch: true });
    const match = matches.find((m) => m.bracket === 'winners' && m.roundNumber === 1 && m.position === 1)!;
    const { token } = await overlayToken(eventId);
    const { page, problems } = await tab(`/overlays/scoreboard?token=${token}&matchId=${match.id}`);
    await shows(page, `document.querySelector('.name-a')?.textContent === ${JSON.stringify(match.opponentA.name)}`, 5000);
    expect(await text(page, '.name-b')).toBe(match.opponentB.name);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    await following(page);

    const path = `/api/v2/events/${eventId}/matches/${match.id}`;
    await write(eventId, 'PATCH', path, { status: 'live', scoreA: 1, scoreB: 0, maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 9, winner: 'a' }] });
    const shown = await shows(page, `document.querySelector('.score-a')?.textContent === '1' && document.querySelector('.state')?.textContent === 'LIVE'`);
    expect(shown).toBeLessThan(1000);
    expect(await text(page, '.map')).toBe('Map 2');
    await screenshot(page, 'scoreboard.png', 130);

    // The connection drops and stays down while a map is scored: the page says so, keeps what it
    // showed, and on its return takes the change made meanwhile from its last cursor.
    const sent: Array<Record<string, any>> = [];
    const session = await page.createCDPSession();
    await session.send('Network.enable');
    session.on('Network.webSocketFrameSent', (frame) => sent.push(JSON.parse(frame.response.payloadData)));
    relay.cut();
    await shows(page, `document.body.dataset.status === 'reconnecting'`, 5000);
    await write(eventId, 'PATCH', path, { scoreA: 1, scoreB: 1, maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 9, winner: 'a' }, { mapId: 'map_nuke', scoreA: 7, scoreB: 13, winner: 'b' }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await text(page, '.score-b')).toBe('0');
    relay.resume();
    await shows(page, `document.querySelector('.score-b')?.textContent === '1' && document.body.dataset.status === 'live'`, 15_000);
    // It came back with the cursor of the last message it had handled, not from "now".
    // (DevTools reports frames apart from the page's own events: they may come a little later.)
    const resumed = await vi.waitFor(() => {
      const frame = sent.find((message) => message.type === 'subscribe' && message.payload.variables.matchId === match.id);
      expect(frame, JSON.stringify(sent)).toBeDefined();
      return frame!;
    });
    expect(resumed.payload.variables.after).toEqual(expect.any(String));

    await write(eventId, 'PATCH', path, { scoreA: 2, scoreB: 1, status: 'completed', maps: [{ mapId: 'map_mirage', scoreA: 13, scoreB: 9, winner: 'a' }, { mapId: 'map_nuke', scoreA: 7, scoreB: 13, winner: 'b' }, { mapId: 'map_inferno', scoreA: 13, scoreB: 11, winner: 'a' }] });
    expect(await shows(page, `document.querySelector('.state')?.textContent === 'FINAL' && document.querySelector('.team-a.winner') !== null`)).toBeLessThan(1000);
    expect(problems).toEqual([]);
    await page.browserContext().close();
  }, 60_000);

  it.skipIf(!executablePath)('with playdayId the scoreboard follows the live match the staff put on air', async () => {
    const { token } = await overlayToken('evt_open');
    const { page, problems } = await tab(`/overlays/scoreboard?token=${token}&playdayId=pd_open_1`);
    await shows(page, `document.getElementById('overlay').dataset.match === 'mtc_open_1'`, 5000);
    // The playday's overlay score, set by the staff, is what it shows.
    expect(await text(page, '.score-a')).toBe('1');
    const other = (await call(server.url, '/api/v1/events/evt_open/matches?limit=100', { token: null, headers: { 'x-api-key': 'demo-org-key-0001' } })).body.data.find((m: { id: string; opponentA: unknown }) => m.id !== 'mtc_open_1' && m.opponentA);
    await write('evt_open', 'PATCH', '/api/v2/events/evt_open/playdays/pd_open_1', { liveMatchId: other.id, overlayScoreA: null, overlayScoreB: null });
    await shows(page, `document.getElementById('overlay').dataset.match === ${JSON.stringify(other.id)} && document.querySelector('.name-a')?.textContent === ${JSON.stringify(other.opponentA.name)}`);
    await write('evt_open', 'PATCH', `/api/v2/events/evt_open/matches/${other.id}`, { status: 'live', scoreA: 0, scoreB: 1 });
    expect(await shows(page, `document.querySelector('.score-b')?.textContent === '1'`)).toBeLessThan(1000);
    await write('evt_open', 'PATCH', '/api/v2/events/evt_open/playdays/pd_open_1', { liveMatchId: null });
    await shows(page, `document.querySelector('.idle')?.textContent === 'No match on air'`);
    expect(problems).toEqual([]);
    await page.browserContext().close();
  }, 60_000);

  it.skipIf(!executablePath)('the bracket page draws the stage with brackets-viewer and moves the winner on when a result is reported', async () => {
    const { eventId, stageId, matches } = await startedStage(8, 'double_elimination', { grandFinal: 'double' });
    const { token } = await overlayToken(eventId);
    const { page, problems } = await tab(`/overlays/bracket?token=${token}&stageId=${stageId}`);
    // Every match is drawn, but the grand-final reset, which brackets-viewer draws once it is played.
    const drawn = matches.filter((m) => !(m.bracket === 'grand_final' && m.roundNumber === 2)).map((m) => m.id).sort();
    await shows(page, `document.querySelectorAll('#bracket .match').length === ${drawn.length}`, 5000);
    expect((await page.$$eval('#bracket .match', (nodes) => nodes.map((node) => node.getAttribute('data-match-id')))).sort()).toEqual(drawn);
    expect(await text(page, '#stage-name')).toBe('Playoffs');
    const first = matches.find((m) => m.bracket === 'winners' && m.roundNumber === 1 && m.position === 1)!;
    const winner = first.opponentA.name as string;
    const loser = first.opponentB.name as string;
    const names = () => page.$$eval('#bracket .participant .name', (nodes) => nodes.map((node) => node.textContent));
    const before = await names();
    expect(before.filter((name) => name === winner)).toHaveLength(1);
    await following(page);
    await write(eventId, 'PATCH', `/api/v2/events/${eventId}/matches/${first.id}`, { scoreA: 2, scoreB: 0, status: 'completed' });
    // The winner now also stands in the next winners-bracket match, the loser in the losers bracket.
    const moved = await shows(
      page,
      `(() => { const names = [...document.querySelectorAll('#bracket .participant .name')].map((n) => n.textContent); return names.filter((n) => n === ${JSON.stringify(winner)}).length === 2 && names.filter((n) => n === ${JSON.stringify(loser)}).length === 2; })()`,
    );
    expect(moved).toBeLessThan(1000);
    // Play the rest of the first round for the picture.
    for (const match of matches.filter((m) => m.bracket === 'winners' && m.roundNumber === 1 && m.id !== first.id)) {
      await write(eventId, 'PATCH', `/api/v2/events/${eventId}/matches/${match.id}`, { scoreA: 1, scoreB: 2, status: 'completed' });
    }
    await shows(page, `[...document.querySelectorAll('#bracket .participant.win')].length >= 4`, 3000);
    await screenshot(page, 'bracket.png');
    expect(problems).toEqual([]);
    await page.browserContext().close();
  }, 60_000);

  it.skipIf(!executablePath)("a group stage's bracket page is its standings tables, moved by each result", async () => {
    const { eventId, stageId, matches } = await startedStage(4, 'round_robin');
    const { token } = await overlayToken(eventId);
    const { page, problems } = await tab(`/overlays/bracket?token=${token}&stageId=${stageId}`);
    await shows(page, `document.querySelectorAll('#tables tbody tr').length === 4`, 5000);
    await following(page);
    const match = matches[0];
    await write(eventId, 'PATCH', `/api/v2/events/${eventId}/matches/${match.id}`, { scoreA: 2, scoreB: 1, status: 'completed' });
    const row = `document.querySelector('#tables tr[data-participant=${JSON.stringify(match.opponentA.participantId)}]')`;
    expect(await shows(page, `${row}?.cells[0].textContent === '1' && ${row}?.cells[3].textContent === '1'`)).toBeLessThan(1000);
    await screenshot(page, 'standings.png', 260);
    expect(problems).toEqual([]);
    await page.browserContext().close();
  }, 60_000);

  it.skipIf(!executablePath)('a revoked token clears the overlay for a clear message, on an open page within a second and on a page opened after', async () => {
    const { eventId, matches } = await startedStage(4, 'single_elimination');
    const { id, token } = await overlayToken(eventId);
    const url = `/overlays/scoreboard?token=${token}&matchId=${matches[0].id}`;
    const { page, problems } = await tab(url);
    await shows(page, `document.querySelector('.name-a') !== null && document.body.dataset.status === 'live'`, 5000);
    const revoked = await call(server.url, `/api/v2/organisations/org_demo/overlay-tokens/${id}`, { method: 'DELETE', token: ALICE });
    expect(revoked.status).toBe(200);
    await shows(page, `document.body.dataset.status === 'stopped' && document.querySelector('.name-a') === null`, 2000);
    expect(await text(page, '#status')).toContain('revoked or has expired');
    await screenshot(page, 'revoked.png', 120);
    const again = await tab(url);
    await shows(again.page, `document.body.dataset.status === 'stopped'`, 5000);
    expect(await text(again.page, '#status')).toContain('revoked or has expired');
    expect([...problems, ...again.problems]).toEqual([]);
    await page.browserContext().close();
    await again.page.browserContext().close();
  }, 60_000);
});
