// No client exhausts the server's memory: the server started as `npm start` starts it (its heap
// bounded by --max-old-space-size=128) takes floods of distinct near-limit GraphQL documents by GET
// and POST, with and without a credential, and floods of subscribe (and subscribe/complete) messages
// on both gateway paths, and lives: /healthz answers within a second throughout, every cache and
// budget stays within its bound (/metrics), and so does the heap. The same process takes a flood of
// event creations (valid ones, invalid bodies, no credential, unknown tokens): nothing answers 5xx and
// every valid one creates one event. Bodies are read before any credential is checked: floods of
// deeply nested bodies and of bodies that never finish arriving, without a credential, are refused
// within the same bounds. Floods of distinct stage standings and match reads, with and without a
// credential, are answered within them too, and so are floods of overlay tokens: issued, unknown and
// valid ones on distinct routes, and gateway sockets opened with distinct unknown tokens; and so are
// floods of the overlay pages and their assets, the index and the realtime browser script.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, isAlive, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { overLatencyBudget, slowAnswers, slowestOwnMs, watchHealth, type Watched } from '../support/health-budget.ts';
import { TRUSTED_DOCUMENTS_PATH, type Manifest } from '../../facade/graphql/trusted-documents.ts';

let server: ServerProcess;
let cleanup: () => Promise<void>;
let base: string;

beforeAll(async () => {
  let env: Record<string, string>;
  ({ env, cleanup } = await scratchEnvironment('t_floods'));
  server = await startServerProcess({
    args: ['start', '--silent'],
    // A short drain: the floods leave nothing worth waiting for at the end.
    // The token's quota is out of the way: every valid creation of the write flood must get through.
    // So are the address's failed sign-ins: the floods of unknown gateway credentials would otherwise
    // lock this address out of the gateway for the floods after them (realtime.test.ts holds that limit).
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', SHUTDOWN_DRAIN_MS: '1000', RATE_LIMIT_TOKEN: '1000000/60', RATE_LIMIT_AUTH_FAILURES: '1000000/600' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });
  base = server.base;
  // Warm up: the first documents of each kind compile the server's code paths and fill its caches
  // (and its heap grows to hold them) once; the floods below measure the server warm.
  await flood(160, 16, (i) => [post, get][i % 2](i % 4 < 2 ? refusedDocument(-1 - i) : admittedDocument(-1 - i, i % 2 ? 8_000 : 28_000), i % 3 ? 'demo-token-app' : undefined));
  // And the gateway: a subscription on each path (its access check is planned and compiled once).
  for (const [path, params] of [['/graphql', { authorization: 'Bearer demo-token-app' }], ['/api/v1/gateway', { apiKey: 'demo-org-key-0001' }]] as const) {
    const ws = await openSocket(path, params);
    for (let i = 0; i < 20; i++) ws.send(JSON.stringify({ id: `w${i}`, type: 'subscribe', payload: subscription(-1 - i) }));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    ws.close();
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await cleanup?.();
  assertNoServerLeft();
});

const rep = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(' ');

interface Seen extends Watched {
  /** The slowest /healthz answer the server is answerable for (ms): see support/health-budget.ts. */
  slowestHealthMs: number;
  /** The slowest /healthz answer by the clock (ms), the machine's share included. */
  slowestWallMs: number;
}

interface Watch {
  /** Stops watching: the slowest /healthz answer (ms), failures, and the highest figures seen. */
  stop(): Promise<Seen>;
}

/** Asks /healthz every 100 ms and reads /metrics every 250 ms while a flood runs (in a thread of its own); answers once it watches. */
async function watch(): Promise<Watch> {
  const watching = await watchHealth(base, server.pid, { metrics: true });
  return {
    async stop() {
      const seen = await watching.stop();
      return { ...seen, slowestHealthMs: slowestOwnMs(seen.samples), slowestWallMs: Math.max(0, ...seen.samples.map((sample) => sample.wallMs)) };
    },
  };
}

async function expectSurvived(watching: Watch, slowestHealthMs = 1000) {
  const seen = await watching.stop();
  const slow = slowAnswers(seen.samples);
  if (slow.length) console.info(`slow /healthz answers [asked at ms, took ms, server CPU ms]: ${JSON.stringify(slow)}`);
  expect(isAlive(server.pid), `the server died:\n${server.output().slice(-2000)}`).toBe(true);
  expect(seen.healthFailures).toEqual([]);
  // Within a second of the server's own time: a stall fails it, a machine busy with other work does not.
  expect(overLatencyBudget(seen.samples, slowestHealthMs), JSON.stringify(slowAnswers(seen.samples))).toEqual([]);
  expect(seen.overBudget).toEqual([]);
  // The old space is capped at 128 MiB by the flags; the young generation adds up to 3 × 8 MiB.
  expect(seen.heapMiB).toBeGreaterThan(0);
  expect(seen.heapMiB).toBeLessThan(152);
  return seen;
}

/** Runs `count` requests, `concurrency` at a time; answers the statuses seen. */
async function flood(count: number, concurrency: number, send: (i: number) => Promise<Response>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        try {
          const response = await send(i);
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        } catch {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        }
      }
    }),
  );
  return statuses;
}

// Near the limits and each one distinct: 4,990 tokens of fields (refused: more than 1,000 fields;
// its parse holds about 2.4 MB), and a document that passes every limit and validation (90
// __typename with two directives each, about as many as fieldMerges lets through, and a long
// string, up to the 32 KiB of text).
const refusedDocument = (i: number) => `{ u${i < 0 ? `w${-i}` : i} ${'a '.repeat(4990)}}`;
const admittedDocument = (i: number, text = 28_000) => `query Q${i < 0 ? `w${-i}` : i} { __type(name: "${'T'.repeat(text)}") { name } ${rep(90, () => '__typename @include(if: true) @skip(if: false)')} }`;
const post = (query: string, token?: string) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
const get = (query: string, token?: string) =>
  fetch(`${base}/graphql?${new URLSearchParams({ query })}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('floods of distinct GraphQL documents', () => {
  it.each([
    ['POST', 'no credential', post, undefined],
    ['POST', 'a token', post, 'demo-token-app'],
    ['GET', 'no credential', get, undefined],
    ['GET', 'a token', get, 'demo-token-app'],
  ] as const)('by %s with %s: the server lives and stays within its budgets', async (method, _who, send, token) => {
    const watching = await watch();
    // GET carries the text in the URL (16 KB of request line and headers at most): a shorter admitted document.
    const admitted = (i: number) => admittedDocument(i, method === 'GET' ? 8_000 : 28_000);
    const statuses = await flood(300, 16, (i) => send(i % 2 ? refusedDocument(i) : admitted(i), token));
    await expectSurvived(watching);
    // Each was answered: admitted (200), refused by a limit (400), past a quota or the in-flight budget (429, 503).
    expect([...statuses.keys()].every((status) => [200, 400, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(400)).toBeGreaterThan(0);
  }, 180_000);
});

describe('floods of distinct documents that run directly on a subgraph', () => {
  // Each one is planned, validated on its subgraph and compiled by graphql-jit, then kept
  // (graphql_direct_documents, bounded in bytes): ten aliased event reads, about 130 KB of estimate.
  const direct = (i: number) => `query D${i < 0 ? `w${-i}` : i} { ${rep(10, (k) => `a${k}_${i < 0 ? 0 : i}: event(id: "evt_open") { id name stages { id name format bestOf } }`)} }`;
  it.each([
    ['no credential', undefined],
    ['a token', 'demo-token-app'],
  ] as const)('with %s: the server lives and stays within its budgets', async (_who, token) => {
    const watching = await watch();
    const statuses = await flood(300, 16, (i) => post(direct(i), token));
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [200, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    // Without a credential the address's anonymous quota may already be spent by the floods before.
    expect((statuses.get(200) ?? 0) + (token ? 0 : (statuses.get(429) ?? 0))).toBeGreaterThan(0);
  }, 180_000);
});

describe('floods of distinct document ids', () => {
  // Trusted documents by hash: unknown ids of every shape, and now and then a manifest one.
  const known = (JSON.parse(readFileSync(TRUSTED_DOCUMENTS_PATH, 'utf8')) as Manifest).operations.find((operation) => operation.name === 'ListOrganisationEvents')!.id;
  const named = (i: number, token?: string) => {
    const id = i % 10 === 0 ? `sha256:${known}` : i % 3 ? `sha256:${createHash('sha256').update(String(i)).digest('hex')}` : `x-${i}-${'i'.repeat(i % 500)}`;
    const body = i % 2 ? { documentId: id, variables: { organisationId: 'org_demo' } } : { extensions: { persistedQuery: { version: 1, sha256Hash: id.slice(7) } }, variables: { organisationId: 'org_demo' } };
    return fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  };
  it.each([
    ['no credential', undefined],
    ['a token', 'demo-token-app'],
  ] as const)('with %s: answered 200/404 (or past a quota), the server lives', async (_who, token) => {
    const watching = await watch();
    const statuses = await flood(2000, 24, (i) => named(i, token));
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [200, 404, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    // Without a credential the address's anonymous quota may already be spent by the floods before.
    expect((statuses.get(404) ?? 0) + (token ? 0 : (statuses.get(429) ?? 0))).toBeGreaterThan(0);
  }, 180_000);
});

describe('floods of distinct tournament reads', () => {
  // Stage standings and matches with distinct stages, groups, cursors and limits: a third with the
  // token on the demo world's stage, a third with unknown tokens, a third with none.
  const read = (i: number) => {
    const kind = i % 3;
    const route = i % 2 ? 'standings' : 'matches';
    const stage = kind === 0 ? 'stg_open_groups' : `stg_flood_${i}_${'s'.repeat(i % 200)}`;
    const query = new URLSearchParams({ limit: String((i % 120) + 1), ...(i % 4 === 0 && route === 'standings' ? { groupId: `grp_flood_${i}` } : {}), ...(i % 5 === 0 ? { cursor: `c${i}.${'x'.repeat(i % 300)}` } : {}) });
    const headers: Record<string, string> = kind === 0 ? { authorization: 'Bearer demo-token-app' } : kind === 1 ? { authorization: `Bearer flood-${i}-${'t'.repeat(100)}` } : {};
    return fetch(`${base}/api/v2/events/evt_open/stages/${stage}/${route}?${query}`, { headers });
  };
  it('3,000 distinct standings and stage-match reads with and without credentials: answered 2xx/4xx, the server lives', async () => {
    const watching = await watch();
    const statuses = await flood(3000, 24, read);
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [200, 400, 401, 404, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(0);
    // Without a valid credential: 401, or 429 once the floods before this one spent the address's anonymous quota.
    expect((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)).toBeGreaterThan(0);
  }, 180_000);
});

describe('floods of request bodies, without a credential', () => {
  // 400,000 nested arrays in 0.8 MB: JSON.parse alone would build them all before any check.
  const deep = (i: number) => `{"query":"query Q${i}($v: JSON) { __typename }","variables":{"v":${'['.repeat(400_000)}${']'.repeat(400_000)}}}`;
  it.each([
    ['/graphql', 'POST /graphql'],
    ['/api/v2/events/evt_open/stages', 'a REST write'],
  ] as const)('deeply nested bodies to %s (%s): refused before parsing, the server lives', async (path, _what) => {
    const watching = await watch();
    const statuses = await flood(96, 12, (i) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'if-match': '"1"', 'idempotency-key': `deep-${i}` }, body: deep(i) }),
    );
    await expectSurvived(watching);
    // Refused as too deep (400), or past the body budget or the anonymous quota (429, 503).
    expect([...statuses.keys()].every((status) => [400, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(400)).toBeGreaterThan(0);
  }, 180_000);

  it('form bodies of 180,000 distinct keys to the OAuth endpoints: refused before they are split, the server lives', async () => {
    const watching = await watch();
    const form = (i: number) => Array.from({ length: 180_000 }, (_, k) => `k${i}_${k}`).join('&').slice(0, 1_000_000);
    const statuses = await flood(48, 8, (i) =>
      fetch(`${base}${['/oauth/token', '/oauth/revoke', '/oauth/introspect'][i % 3]}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(i) }),
    );
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [400, 429, 503].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(400)).toBeGreaterThan(0);
  }, 180_000);

  it('bodies that never finish arriving: each address holds a bounded share, the server lives', async () => {
    const watching = await watch();
    const sockets: net.Socket[] = [];
    const answers: string[] = [];
    // The head, the start of the JSON and spaces: 16 bytes short of the length announced.
    const start = (i: number) => `{"query":"{ t${i} }"`;
    const almost = (i: number) => Buffer.alloc(BODY_BYTES - 16 - start(i).length, 0x20);
    await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        new Promise<void>((resolve) => {
          const socket = net.connect(Number(new URL(base).port), '127.0.0.1', () => {
            socket.write(`POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${BODY_BYTES}\r\n\r\n${start(i)}`);
            socket.write(almost(i), () => resolve());
          });
          socket.on('data', (data) => {
            // Status lines only (a response may arrive in more than one piece).
            const line = String(data).split('\r\n')[0];
            if (line.startsWith('HTTP/')) answers.push(line);
          });
          socket.on('error', () => resolve());
          sockets.push(socket);
        }),
      ),
    );
    // The bodies stay unfinished while the server is watched; meanwhile another address is served.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await postFrom('127.0.0.2', '{ __typename }')).toBe(200);
    const seen = await expectSurvived(watching);
    for (const socket of sockets) socket.destroy();
    // Beyond this address's share (4 MiB), the server answered at once (429) instead of reading on;
    // the others are still being received.
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((line) => / 429 /.test(line)), JSON.stringify(answers.slice(0, 5))).toBe(true);
    console.info(`unfinished bodies: slowest /healthz ${seen.slowestHealthMs.toFixed(0)} ms, heap at most ${seen.heapMiB.toFixed(0)} MiB`);
    // Once they are gone, a body from the same address is read again (with a token: the floods of
    // this file have spent the address's anonymous quota).
    let after = 0;
    for (let tries = 0; tries < 50 && after !== 200; tries++) {
      if (tries) await new Promise((resolve) => setTimeout(resolve, 100));
      after = (await post('{ __typename }', 'demo-token-app')).status;
    }
    expect(after).toBe(200);
  }, 120_000);

  it("a body refused past its address's share is read to its end and dropped: the client gets its answer, then the next on the same connection", async () => {
    const address = '127.0.0.7';
    // Four bodies 32 bytes short of 1 MiB hold this address's 4 MiB share while they stay unfinished.
    const holders = await Promise.all(Array.from({ length: 4 }, () => RawConnection.open(address)));
    for (const holder of holders) {
      holder.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n{"query":"{ a }"${' '.repeat(BODY_BYTES - 32 - 16)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const half = ' '.repeat(100_000);
    const refusedHead = (path: string, type: string, length: number) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
    // Refused, then the rest of its body trickles in and never ends: the connection is closed once the
    // request's 30 s are up (checked every 5 s), with no second answer (the parser's 408).
    const trickling = await RawConnection.open(address);
    trickling.write(refusedHead('/graphql', 'application/json', 2 * half.length) + half);
    expect((await trickling.next()).status).toBe(429);
    const trickle = setInterval(() => trickling.write(' '), 1000);
    const trickleStarted = Date.now();
    for (const [path, type, refusal] of [
      ['/oauth/token', 'application/x-www-form-urlencoded', { error: 'temporarily_unavailable' }],
      ['/graphql', 'application/json', { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'rate_limited', details: [{ issue: 'bodies_in_flight' }] }) })] }],
    ] as const) {
      const probe = await RawConnection.open(address);
      probe.write(refusedHead(path, type, 2 * half.length) + half);
      const refused = await probe.next();
      expect(refused.status, path).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.connection).toBe('keep-alive');
      expect(JSON.parse(refused.body)).toEqual(expect.objectContaining(refusal));
      // The rest of the body is read (and dropped), so the connection is ready for the next request.
      probe.write(`${half}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect((await probe.next()).status, path).toBe(200);
      probe.destroy();
    }
    // A chunked body is read on after its refusal only up to 1 MiB in all: past that, its connection goes.
    const chunked = await RawConnection.open(address);
    chunked.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`;
    chunked.write(chunk);
    expect((await chunked.next()).status).toBe(429);
    for (let sent = 1; sent < 48 && !chunked.closed; sent++) await chunked.writeAndWait(chunk);
    await chunked.whenClosed(10_000);
    expect(chunked.closed).toBe(true);
    expect(chunked.unread()).toBe('');
    // The rest of a refused body that breaks (a chunk size that is not one) closes the connection
    // without a second answer.
    const broken = await RawConnection.open(address);
    broken.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`);
    expect((await broken.next()).status).toBe(429);
    broken.write('zz\r\n');
    await broken.whenClosed(10_000);
    expect(broken.closed).toBe(true);
    expect(broken.unread()).toBe('');
    for (const holder of holders) holder.destroy();
    // fetch (from 127.0.0.1, its share held the same way) writing a chunked body of 8 MiB into the
    // refusal gets its 429, not a connection reset under it.
    const fetchHolders = await Promise.all(Array.from({ length: 4 }, () => RawConnection.open('127.0.0.1')));
    for (const holder of fetchHolders) {
      holder.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n{"query":"{ a }"${' '.repeat(BODY_BYTES - 32 - 16)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let i = 0; i < 3; i++) {
      let pieces = 0;
      const body = new ReadableStream({ pull: (controller) => (++pieces > 128 ? controller.close() : controller.enqueue(new Uint8Array(0x10000).fill(0x20))) });
      expect((await postBody('/graphql', 'application/json', body)).status).toBe(429);
    }
    for (const holder of fetchHolders) holder.destroy();
    // A body announced over 1 MiB is refused before it is read, in the OAuth endpoint's format, and
    // the connection closed after the answer.
    const large = await RawConnection.open(address);
    large.write(`POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${2 * BODY_BYTES}\r\n\r\n`);
    const tooLarge = await large.next();
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toEqual({ error: 'invalid_request', error_description: 'The request body is too large (at most 1 MiB).' });
    await large.whenClosed(10_000);
    expect(large.closed).toBe(true);
    // The consent form answers a browser with a page, not the API's JSON.
    const consent = await RawConnection.open(address);
    consent.write(`POST /oauth/authorize HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${2 * BODY_BYTES}\r\n\r\n`);
    const page = await consent.next();
    expect(page.status).toBe(413);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('The request body is too large (at most 1 MiB).');
    consent.destroy();
    // A client writing all 8 MiB of such a body reads the 413 (not EPIPE from a connection reset under it).
    for (const [path, type] of [['/oauth/token', 'application/x-www-form-urlencoded'], ['/graphql', 'application/json']]) {
      for (let i = 0; i < 3; i++) expect((await postBody(path, type, Buffer.alloc(8 * BODY_BYTES, 0x61))).status, path).toBe(413);
    }
    await trickling.whenClosed(45_000 - (Date.now() - trickleStarted));
    clearInterval(trickle);
    expect(trickling.closed).toBe(true);
    expect(Date.now() - trickleStarted).toBeLessThan(45_000);
    expect(trickling.unread()).toBe('');
  }, 120_000);
});

/** A POST with fetch: the answer, its body read. */
async function postBody(path: string, type: string, body: Buffer | ReadableStream): Promise<Response> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type }, body, duplex: 'half' } as RequestInit);
  await response.arrayBuffer();
  return response;
}

const BODY_BYTES = 1024 * 1024;

/** A client connection from a chosen loopback address, reading responses of known length in turn. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  closed = false;
  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (data) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.waiting?.();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(localAddress: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port: Number(new URL(base).port), host: '127.0.0.1', localAddress }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string) {
    this.socket.write(text);
  }

  writeAndWait(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      this.socket.write(text, () => resolve());
    });
  }

  /** The next response: its status, headers (lower-case names) and body. */
  async next(timeoutMs = 10_000): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end !== -1) {
        const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.subarray(end + 4, end + 4 + length).toString();
          this.buffer = this.buffer.subarray(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.closed || Date.now() > deadline) throw new Error(`no complete response (closed: ${this.closed}): ${JSON.stringify(this.buffer.subarray(0, 200).toString())}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  /** What has arrived and is not part of an answer taken by next(). */
  unread(): string {
    return this.buffer.toString('latin1');
  }

  async whenClosed(timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  destroy() {
    this.socket.destroy();
  }
}

/** POST /graphql from another loopback address: the status. */
function postFrom(localAddress: string, query: string): Promise<number> {
  const url = new URL(`${base}/graphql`);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(JSON.stringify({ query }));
  });
}

/** A gateway socket, initialised with `params`; resolves with the socket once acknowledged. */
function openSocket(path: string, params: Record<string, string>, localAddress?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, 'graphql-transport-ws', { localAddress });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: params })));
    ws.once('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_ack') resolve(ws);
      else reject(new Error(`not acknowledged: ${String(data)}`));
    });
    ws.once('error', reject);
  });
}

const closeOf = (ws: WebSocket) => new Promise<number>((resolve) => (ws.readyState === ws.CLOSED ? resolve(-1) : ws.once('close', (code) => resolve(code))));

// Every third one follows the standings of a distinct (unknown) stage: each is an access check
// through the graph, answered not_found.
const subscription = (i: number) => ({
  query:
    i % 3 === 1
      ? `subscription S${i} { standingsChanged(eventId: "evt_open", stageId: "stg_flood_${i}") { cursor standings { rank points ${rep(60, () => '__typename @include(if: true)')} } } }`
      : `subscription S${i < 0 ? `w${-i}` : i} { eventChanged(eventId: "evt_open") { cursor ${rep(80, () => '__typename @include(if: true)')} } }`,
});

describe('floods of overlay tokens', () => {
  const issue = (i: number, eventId = 'evt_open') =>
    fetch(`${base}/api/v2/organisations/org_demo/overlay-tokens`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-token-alice', 'content-type': 'application/json' },
      body: JSON.stringify({ eventId, label: `Flood ${i} ${'l'.repeat(i % 90)}`, expiresIn: 60 + i }),
    });

  it('3,000 reads with unknown tokens and a valid one on distinct routes, then 300 sockets with unknown tokens: 2xx/4xx only, the server lives', async () => {
    const first = await issue(3000);
    expect(first.status).toBe(201);
    const { token } = (await first.json()).data;
    const watching = await watch();
    const statuses = await flood(3000, 24, (i) => {
      const overlay = i % 2 ? `ovl_flood_${i}_${'t'.repeat(i % 180)}` : token;
      const path = i % 4 === 0 ? `/api/v2/events/evt_open/stages/stg_flood_${i}/matches` : `/api/v1/events/${i % 5 ? 'evt_open' : 'evt_live'}/matches?limit=${(i % 100) + 1}&stageId=stg_flood_${i}`;
      return fetch(`${base}${path}`, { headers: { 'x-overlay-token': overlay } });
    });
    const sockets = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/v1/gateway', 'graphql-transport-ws');
        // A handshake refused (an address's sockets without connection_init are bounded) counts as its status, negated.
        const refused = new Promise<number>((resolve) =>
          ws.once('unexpected-response', (_request, response) => {
            response.resume();
            resolve(-(response.statusCode ?? 0));
            ws.terminate();
          }),
        );
        const closed = closeOf(ws);
        ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { overlayToken: `ovl_socket_${i}_${'s'.repeat(i % 150)}` } })));
        ws.on('error', () => undefined);
        return Promise.race([refused, closed]);
      }),
    );
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [200, 401, 404, 429].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(0);
    // Unknown tokens: 401, or 429 once the file's earlier floods spent the address's anonymous quota.
    expect((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)).toBeGreaterThan(0);
    expect(sockets).toContain(4403);
    expect([...new Set(sockets)].every((code) => code === 4403 || code === -429), JSON.stringify([...new Set(sockets)])).toBe(true);
  }, 180_000);

  it('3,000 requests for the overlay pages and their assets, the token record, the index and the realtime script, with distinct addresses and tokens: 2xx/4xx only, the server lives', async () => {
    const watching = await watch();
    const statuses = await flood(3000, 24, (i) => {
      const token = `ovl_page_${i}_${'p'.repeat(i % 150)}`;
      const accept = i % 2 ? 'text/html' : 'application/json';
      const paths = [
        `/overlays/scoreboard?token=${token}&matchId=mtc_${i}`,
        `/overlays/scoreboard?token=${token}&playdayId=pd_${i}&matchId=mtc_${i}`,
        `/overlays/bracket?token=${token}&stageId=${'s'.repeat((i % 120) + 1)}&extra${i}=1`,
        `/overlays/assets/${Math.floor(i / 6) % 3 ? 'bracket.js' : `x${i}.js`}`,
        `/overlays/assets/${['scoreboard.js', 'overlay.css', 'brackets-viewer.js'][Math.floor(i / 6) % 3]}`,
        '/api/v1/overlay-token',
        // The index and the browser script the realtime example loads: no credential, any Accept.
        `${['/', '/api/v2', '/api/v1'][Math.floor(i / 8) % 3]}?from=${i}`,
        `/realtime/graphql-ws.js?v=${i}`,
      ];
      return fetch(`${base}${paths[i % paths.length]}`, { headers: { accept, 'x-overlay-token': token } });
    });
    await expectSurvived(watching);
    expect([...statuses.keys()].every((status) => [200, 400, 401, 404, 429].includes(status)), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(1000);
  }, 180_000);

  it('1,000 issuances, valid and for unknown events: 201 up to the limit of the event, then 409; 400 for unknown events; the server lives', async () => {
    const watching = await watch();
    const statuses = await flood(1000, 24, (i) => issue(i, i % 2 ? 'evt_open' : `evt_flood_${i}`));
    await expectSurvived(watching);
    // Unknown events are refused; evt_open takes tokens up to its 100 that work (one issued above), then 409.
    expect(statuses.get(400)).toBe(500);
    expect((statuses.get(201) ?? 0) + (statuses.get(409) ?? 0)).toBe(500);
    expect(statuses.get(201)).toBe(99);
  }, 180_000);
});

describe('floods of gateway messages', () => {
  it.each([
    ['/graphql', { authorization: 'Bearer demo-token-app' }, 'subscribe'],
    ['/graphql', { authorization: 'Bearer demo-token-app' }, 'subscribe/complete'],
    ['/api/v1/gateway', { apiKey: 'demo-org-key-0001' }, 'subscribe'],
    ['/api/v1/gateway', { apiKey: 'demo-org-key-0001' }, 'subscribe/complete'],
  ] as const)('on %s: a %s flood of 30,000 messages closes the socket with 4429 and the server lives', async (path, params, kind) => {
    const watching = await watch();
    const ws = await openSocket(path, params);
    const closed = closeOf(ws);
    // As fast as the socket takes them, distinct subscriptions near the limits.
    for (let i = 0; i < 30_000 && ws.readyState === ws.OPEN; i++) {
      ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: subscription(i) }));
      if (kind === 'subscribe/complete') ws.send(JSON.stringify({ id: `s${i}`, type: 'complete' }));
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await closed).toBe(4429);
    await expectSurvived(watching);
  }, 120_000);

  it('many sockets of one key, each within the message limit, subscribing distinct documents: budgets hold', async () => {
    const watching = await watch();
    const sockets = await Promise.all(Array.from({ length: 20 }, () => openSocket('/api/v1/gateway', { apiKey: 'demo-org-key-0001' })));
    const answers = new Map<string, number>();
    for (const ws of sockets) {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        const code = message.type === 'error' ? (message.payload?.[0]?.extensions?.code ?? 'error') : message.type;
        answers.set(code, (answers.get(code) ?? 0) + 1);
      });
    }
    let n = 0;
    for (const ws of sockets) for (let i = 0; i < 45; i++) ws.send(JSON.stringify({ id: `m${n}`, type: 'subscribe', payload: subscription(n++) }));
    await new Promise((resolve) => setTimeout(resolve, 8000));
    await expectSurvived(watching);
    // Some started (no message until a change), the rest were refused with a reason, none crashed a socket.
    expect(sockets.every((ws) => ws.readyState === ws.OPEN)).toBe(true);
    expect([...answers.keys()].every((code) => ['rate_limited', 'service_unavailable', 'too_many_subscriptions', 'not_found'].includes(code)), JSON.stringify([...answers])).toBe(true);
    for (const ws of sockets) ws.close();
  }, 120_000);
});

interface SocketFlood {
  /** Handshakes refused, by HTTP status. */
  handshakes: Map<number, number>;
  /** Sockets the server closed, by close code (before the flood let go of them). */
  closes: Map<number, number>;
  acknowledged: number;
  /** Subscriptions refused, by `code:issue`. */
  refusals: Map<string, number>;
}

const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Opens `sockets` sockets at once, each with the connection parameters `credential(i)` gives (none:
 * it never sends connection_init), and sends `subscribes` subscribe messages on each as soon as it
 * is acknowledged; once every socket is answered (acknowledged, closed or refused; open, without
 * connection_init), holds them `holdMs` for the subscriptions' answers, then drops them all.
 */
interface FloodCredential {
  path: string;
  /** connection_init's payload; null: none is sent. */
  params: Record<string, string> | null;
  /** The event its subscriptions follow. */
  eventId: string;
}

async function socketFlood(credential: (i: number) => FloodCredential, sockets: number, subscribes: number, holdMs = 3000, during?: () => Promise<void>): Promise<SocketFlood> {
  const seen: SocketFlood = { handshakes: new Map(), closes: new Map(), acknowledged: 0, refusals: new Map() };
  let lettingGo = false;
  const opened = Array.from({ length: sockets }, (_, i) => {
    const { path, params, eventId } = credential(i);
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, 'graphql-transport-ws');
    let refused = false;
    let answered!: () => void;
    const decided = new Promise<void>((resolve) => (answered = resolve));
    const settled = new Promise<void>((resolve) => {
      ws.on('unexpected-response', (_request, response) => {
        refused = true;
        count(seen.handshakes, response.statusCode ?? 0);
        response.resume();
        ws.terminate();
      });
      ws.on('error', () => undefined);
      ws.once('close', (code) => {
        if (!lettingGo && !refused) count(seen.closes, code);
        answered();
        resolve();
      });
    });
    ws.once('open', () => (params ? ws.send(JSON.stringify({ type: 'connection_init', payload: params })) : answered()));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_ack') {
        seen.acknowledged++;
        answered();
        // Small and alike, as many overlays send: what costs is their number, not their text.
        for (let s = 0; s < subscribes; s++) {
          const query = s % 2 ? `subscription { eventChanged(eventId: "${eventId}") { cursor } }` : `subscription { matchChanged(eventId: "${eventId}") { cursor match { id } } }`;
          ws.send(JSON.stringify({ id: `s${s}`, type: 'subscribe', payload: { query } }));
        }
      } else if (message.type === 'error') {
        const { code, details } = message.payload?.[0]?.extensions ?? {};
        count(seen.refusals, `${code}:${details?.[0]?.issue ?? ''}`);
      }
    });
    return { ws, settled, decided };
  });
  await Promise.race([Promise.all(opened.map(({ decided }) => decided)), new Promise((resolve) => setTimeout(resolve, 90_000))]);
  await Promise.all([new Promise((resolve) => setTimeout(resolve, holdMs)), during?.()]);
  lettingGo = true;
  for (const { ws } of opened) ws.terminate();
  await Promise.all(opened.map(({ settled }) => settled));
  return seen;
}

/** The budget's figure in /metrics now. */
async function budgetUsed(name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(new RegExp(`^memory_budget_used_bytes\\{budget="${name}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}

describe('floods of gateway sockets', () => {
  const app: FloodCredential = { path: '/graphql', params: { authorization: 'Bearer demo-token-app' }, eventId: 'evt_open' };
  const key: FloodCredential = { path: '/api/v1/gateway', params: { apiKey: 'demo-org-key-0001' }, eventId: 'evt_open' };
  let overlay: FloodCredential;
  beforeAll(async () => {
    // evt_live: the overlay-token floods above take evt_open's tokens up to its limit.
    const issued = await fetch(`${base}/api/v2/organisations/org_demo/overlay-tokens`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-token-alice', 'content-type': 'application/json' },
      body: JSON.stringify({ eventId: 'evt_live', label: 'Gateway flood', expiresIn: 3600 }),
    });
    expect(issued.status).toBe(201);
    overlay = { path: '/api/v1/gateway', params: { overlayToken: (await issued.json()).data.token }, eventId: 'evt_live' };
  });

  // What a flood may be answered: sockets past a credential's 100 closed with 4029, handshakes past
  // an address's share of the sockets' budget 429 (503 past the process's), and subscriptions past
  // the waiting queue, the memory budget or a socket's 50 refused with their own error message. A
  // flooding client starved by its own thousands of sockets may miss the gateway's ping or not finish
  // a close within its second: the gateway cuts it off, which the client sees as 1006.
  const CLOSES = [4029, 1006];
  const HANDSHAKES = [429, 503];
  const REFUSALS = ['rate_limited:too_many_pending', 'rate_limited:memory_limit', 'rate_limited:rate_limit_exceeded', 'service_unavailable:memory_limit', 'too_many_subscriptions:'];

  async function expectHeld(flood: () => Promise<SocketFlood>, expectations: { acknowledgedAtMost: number; refused: boolean; closes?: number[] }) {
    const watching = await watch();
    const seen = await flood();
    const figures = Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v instanceof Map ? [...v] : v]));
    const survived = await expectSurvived(watching).catch((error: unknown) => {
      console.info(`gateway flood, failed: ${JSON.stringify(figures)}`);
      throw error;
    });
    const summary = JSON.stringify({ slowest: survived.slowestHealthMs, slowestWall: survived.slowestWallMs, ...figures });
    console.info(`gateway flood: ${summary}`);
    expect([...seen.closes.keys()].every((code) => (expectations.closes ?? CLOSES).includes(code)), summary).toBe(true);
    expect([...seen.handshakes.keys()].every((status) => HANDSHAKES.includes(status)), summary).toBe(true);
    expect([...seen.refusals.keys()].every((refusal) => REFUSALS.includes(refusal)), summary).toBe(true);
    expect(seen.acknowledged, summary).toBeLessThanOrEqual(expectations.acknowledgedAtMost);
    if (expectations.refused) expect(seen.refusals.size + seen.closes.size + seen.handshakes.size, summary).toBeGreaterThan(0);
    // The sockets' budget moved with the flood, and both went back to nothing once it let go.
    expect(survived.mostUsed.gateway_sockets, summary).toBeGreaterThan(0);
    await expect.poll(() => budgetUsed('gateway_sockets'), { timeout: 15_000, interval: 250 }).toBe(0);
    await expect.poll(() => budgetUsed('gateway_subscriptions'), { timeout: 15_000, interval: 250 }).toBe(0);
    return { seen, survived };
  }

  it.each([
    ['an overlay token', '/api/v1/gateway', 300],
    ['an access token', '/graphql', 300],
    ['an API key', '/api/v1/gateway', 2000],
    ['an access token', '/graphql', 2000],
  ] as const)('%s on %s: %i sockets × 50 subscribes are bounded, the server lives', async (_name, path, sockets) => {
    const credential = path === '/graphql' ? app : sockets === 300 ? overlay : key;
    const { seen, survived } = await expectHeld(() => socketFlood(() => credential, sockets, 50), { acknowledgedAtMost: 100, refused: true });
    // Charged before anything waited: the running subscriptions' budget moved, and no more than one
    // credential's share of it was ever held.
    expect(survived.mostUsed.gateway_subscriptions).toBeGreaterThan(0);
    expect(survived.mostUsed.gateway_subscriptions).toBeLessThanOrEqual(16 * 1024 * 1024);
    // Every socket was acknowledged (100: the credential's limit), closed with 4029 or refused at its handshake.
    expect(seen.acknowledged + (seen.closes.get(4029) ?? 0) + [...seen.handshakes.values()].reduce((a, b) => a + b, 0)).toBe(sockets);
  }, 180_000);

  it('5 credentials mixed on both paths, 2,000 sockets × 50 subscribes: bounded per credential and in all, the server lives', async () => {
    const credentials = [app, key, overlay, { ...app, params: { authorization: 'Bearer demo-token-alice' } }, { ...key, params: { apiKey: 'demo-org-key-0002' }, eventId: 'evt_rival' }];
    const { survived } = await expectHeld(() => socketFlood((i) => credentials[i % credentials.length], 2000, 50), { acknowledgedAtMost: 500, refused: true });
    expect(survived.mostUsed.gateway_subscriptions).toBeGreaterThan(0);
  }, 180_000);

  it('anonymous: 2,000 sockets that never send connection_init and 2,000 with distinct unknown credentials hold their address\'s share, the server lives', async () => {
    // 64 sockets of an address may wait for their connection_init; the rest are refused at the
    // handshake, and a client with a credential still gets in meanwhile.
    let welcomed = false;
    const { seen } = await expectHeld(
      () =>
        socketFlood(() => ({ path: '/api/v1/gateway', params: null, eventId: 'evt_open' }), 2000, 0, 3000, async () => {
          // From another address of the loopback network: this one's places are all taken.
          const ws = await openSocket('/api/v1/gateway', { apiKey: 'demo-org-key-0001' }, '127.0.0.2');
          welcomed = true;
          ws.close();
        }),
      { acknowledgedAtMost: 0, refused: true },
    );
    expect(welcomed).toBe(true);
    expect(seen.handshakes.get(429)).toBe(2000 - 64);
    await expectHeld(
      () =>
        socketFlood(
          (i): FloodCredential => (i % 2 ? { path: '/graphql', params: { authorization: `Bearer flood-${i}-${'t'.repeat(i % 200)}` }, eventId: 'evt_open' } : { path: '/api/v1/gateway', params: { overlayToken: `ovl_flood_${i}` }, eventId: 'evt_open' }),
          2000,
          50,
        ),
      { acknowledgedAtMost: 0, refused: false, closes: [4403] },
    );
  }, 180_000);
});

const CREATIONS = 600;

/** Creation i: a valid one (i % 6 = 0, 1), an invalid body, no credential or an unknown token. */
function creation(i: number): { headers: Record<string, string>; body: string; valid: boolean } {
  const kind = i % 6;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': `flood-${i}-${'k'.repeat(200)}` };
  if (kind < 4) headers.authorization = 'Bearer demo-token-app';
  else if (kind === 4) headers.authorization = `Bearer flood-token-${i}-${'t'.repeat(300)}`;
  const name = `Flood ${i} ${'x'.repeat(80)}`.slice(0, 100);
  const body =
    kind < 2
      ? { name, timezone: 'Europe/Berlin', startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-01-02T00:00:00Z' }
      : kind === 2
        ? { name, timezone: `Nowhere/${i}`, extra: 'y'.repeat(2000) }
        : { name: `${name}${'z'.repeat(i % 3 ? 50 : 5000)}`, slug: `-bad-${i}-` };
  return { headers, body: JSON.stringify(body), valid: kind < 2 };
}

describe('a flood of event creations', () => {
  it('leaves the process alive and healthy, with no 5xx and one event per valid request', async () => {
    const watching = await watch();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < CREATIONS) {
          const i = next++;
          const { headers, body, valid } = creation(i);
          const response = await fetch(`${base}/api/v2/organisations/org_demo/events`, { method: 'POST', headers, body });
          await response.arrayBuffer();
          statuses.push(valid ? response.status : -response.status);
        }
      }),
    );
    // Writes wait on the database, 24 at a time; /healthz does not (on PGlite the queue yields between statements).
    const seen = await expectSurvived(watching);
    console.info(`event creation flood: slowest /healthz ${seen.slowestHealthMs.toFixed(0)} ms, heap at most ${seen.heapMiB.toFixed(0)} MiB`);
    const abs = statuses.map(Math.abs);
    expect(abs.filter((status) => status >= 500)).toEqual([]);
    // Valid requests created (201); the others were refused as client errors (400, 401, or 429 for the anonymous quota).
    expect(statuses.filter((status) => status > 0)).toEqual(Array(CREATIONS / 3).fill(201));
    expect(statuses.filter((status) => status < 0).every((status) => [400, 401, 413, 429].includes(-status))).toBe(true);

    // One event per valid request, each with its own slug; the list reads them all back.
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: Response = await fetch(`${base}/api/v2/organisations/org_demo/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        headers: { authorization: 'Bearer demo-token-app' },
      });
      const body = (await page.json()) as { data: { name: string; slug: string }[]; meta: { nextCursor: string | null } };
      count += body.data.filter((event) => event.name.startsWith('Flood ')).length;
      cursor = body.meta.nextCursor;
    } while (cursor);
    expect(count).toBe(CREATIONS / 3);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  }, 300_000);
});
