// The HTTP conventions of docs/errors.md: request ids, JSON error bodies for every kind of bad request,
// GraphQL over HTTP, health, readiness, metrics and docs.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function expectJsonError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
  return body.error;
}

describe('request ids', () => {
  it('echoes a valid x-request-id and replaces an invalid one', async () => {
    const good = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'abc.DEF_1:2-3' } });
    expect(good.headers.get('x-request-id')).toBe('abc.DEF_1:2-3');
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const response = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': bad } });
      expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });
});

describe('bad requests answer JSON 4xx, never 500 or HTML', () => {
  const token = (body: string, contentType: string) =>
    fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('unknown route: 404 not_found', async () => {
    await expectJsonError(await fetch(`${server.url}/api/v2/nope`), 404, 'not_found');
    await expectJsonError(await fetch(`${server.url}/`), 404, 'not_found');
  });

  it('wrong method: 405 with Allow', async () => {
    const response = await fetch(`${server.url}/api/v2/auth/context`, { method: 'DELETE', headers: bearer('demo-token-app') });
    const error = await expectJsonError(response, 405, 'validation_failed');
    expect(error.details).toEqual([{ issue: 'method_not_allowed' }]);
    expect(response.headers.get('allow')).toContain('GET');
    await expectJsonError(await fetch(`${server.url}/graphql`, { method: 'PUT' }), 405, 'validation_failed');
  });

  it('malformed JSON: 400 validation_failed', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    const error = await expectJsonError(response, 400, 'validation_failed');
    expect(error.details[0].field).toBe('body');
  });

  it('wrong content type: 415 validation_failed naming content-type (RFC 6749 invalid_request on /oauth/token)', async () => {
    const oauth = await token('{"grant_type":"client_credentials"}', 'text/plain');
    expect(oauth.status).toBe(400);
    expect((await oauth.json()).error).toBe('invalid_request');
    const error = await expectJsonError(await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }), 415, 'validation_failed');
    expect(error.details[0].field).toBe('content-type');
  });

  it('oversized body: 413 validation_failed', async () => {
    const big = JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1024 * 1024 + 10) });
    const error = await expectJsonError(await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 413, 'validation_failed');
    expect(error.details[0].issue).toBe('payload_too_large');
  });

  it('unknown or repeated query parameters and bad values: 400 naming the parameter', async () => {
    const get = (query: string) => fetch(`${server.url}/api/v2/auth/context${query}`, { headers: bearer('demo-token-app') });
    expect((await expectJsonError(await get('?limit=abc'), 400, 'validation_failed')).details[0].field).toBe('limit');
    expect((await expectJsonError(await get('?targetType=galaxy&targetId=1'), 400, 'validation_failed')).details[0].field).toBe('targetType');
    expect((await expectJsonError(await get('?targetId=a&targetId=b&targetType=user'), 400, 'validation_failed')).details[0].field).toBe('targetId');
    expect((await expectJsonError(await get(`?targetType=user&targetId=${'x'.repeat(200)}`), 400, 'validation_failed')).details[0].field).toBe('targetId');
  });
});

describe('connections', () => {
  it('answers a client that half-closes its side right after its request (HTTP/1.1 allows it)', async () => {
    const { port } = new URL(server.url);
    const answers = await Promise.all(
      ['/api/v2/organisations/org_demo/events', '/api/v2/auth/context'].map(
        (path) =>
          new Promise<string>((resolve, reject) => {
            const socket = net.connect(Number(port), '127.0.0.1', () => {
              // The request and the FIN in one go; the answer waits on the database.
              socket.end(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-token-app\r\n\r\n`);
            });
            let answer = '';
            socket.on('data', (chunk) => (answer += chunk.toString()));
            socket.on('close', () => resolve(answer));
            socket.on('error', reject);
          }),
      ),
    );
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('GraphQL over HTTP', () => {
  const query = '{ authContext { applicationId } }';

  it('POST application/json', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('demo-token-app') }, body: JSON.stringify({ query }) });
    expect(response.status).toBe(200);
    expect((await response.json()).data.authContext.applicationId).toBe('app_demo');
  });

  it('GET with the query in the URL', async () => {
    const response = await fetch(`${server.url}/graphql?query=${encodeURIComponent(query)}`, { headers: bearer('demo-token-app') });
    expect(response.status).toBe(200);
    expect((await response.json()).data.authContext.applicationId).toBe('app_demo');
  });

  it('answers application/graphql-response+json when asked', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...bearer('demo-token-app') },
      body: JSON.stringify({ query }),
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect((await response.json()).data.authContext.applicationId).toBe('app_demo');
  });

  it('a syntax error is a 400 with a GraphQL error body', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ authContext {' }) });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('never leaks internals: users read without an installation are not_found', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('demo-token-app') }, body: JSON.stringify({ query: '{ user(id: "usr_erin") { id } }' }) });
    const body = await response.json();
    expect(body.errors[0].extensions.code).toBe('not_found');
    expect(JSON.stringify(body)).not.toMatch(/prisma|stack|SELECT/i);
  });
});

describe('operations endpoints', () => {
  it('/healthz and /readyz', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe('ready');
  });

  it('/metrics counts requests and latency by route pattern', async () => {
    await fetch(`${server.url}/api/v2/auth/context`, { headers: bearer('demo-token-app') });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v2\/auth\/context",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/api\/v2\/auth\/context"\}/);
  });

  it('/docs renders the OpenAPI document with a locally served script', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/api/openapi.json');
    const script = await fetch(`${server.url}/docs/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
