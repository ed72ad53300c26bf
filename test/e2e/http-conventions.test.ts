// The HTTP conventions of docs/errors.md: request ids, JSON error bodies for every kind of bad request
// (those Node's HTTP server meets before the application included, sent over raw sockets), GraphQL
// over HTTP and its client errors, health, readiness, metrics and docs.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';
import { exchange, type RawResponse } from '../support/raw-http.ts';

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

/** /graphql answers its errors as GraphQL error bodies, with the platform's code, details and request id. */
async function expectGraphQLError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
  const body = await response.json();
  expect(body.data).toBeUndefined();
  expect(body.errors.length).toBeGreaterThan(0);
  expect(body.errors[0].extensions.code).toBe(code);
  for (const error of body.errors) {
    expect(typeof error.message).toBe('string');
    expect(error.extensions.requestId).toBe(response.headers.get('x-request-id'));
  }
  return body.errors[0];
}

/** An answer read off a raw socket, with the platform's error body. */
function expectRawError(response: RawResponse | undefined, status: number, code: string) {
  expect(response?.status).toBe(status);
  expect(response!.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response!.body);
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBe(response!.headers['x-request-id']);
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

  it('replaces an invalid one on API routes too, reads and writes, and answers as without it', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
      const read = await fetch(`${server.url}/api/v2/events/evt_open`, { headers: { ...bearer('demo-token-app'), 'x-request-id': bad } });
      expect(read.status, await read.clone().text()).toBe(200);
      expect(read.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
      const context = await fetch(`${server.url}/api/v2/auth/context`, { headers: { ...bearer('demo-token-app'), 'x-request-id': bad } });
      expect(context.status).toBe(200);
      expect((await context.json()).data.requestId).toBe(context.headers.get('x-request-id'));
      // A write refused for another reason names that reason, not the request id.
      const write = await fetch(`${server.url}/api/v2/events/evt_open/stages`, { method: 'POST', headers: { ...bearer('demo-token-app'), 'x-request-id': bad, 'content-type': 'application/json' }, body: '{}' });
      const error = await expectJsonError(write, 400, 'validation_failed');
      expect(JSON.stringify(error.details)).not.toContain('x-request-id');
    }
  });
});

describe('bad requests answer JSON 4xx, never 500 or HTML', () => {
  const token = (body: string, contentType: string) =>
    fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('unknown route: 404 not_found', async () => {
    await expectJsonError(await fetch(`${server.url}/api/v2/nope`), 404, 'not_found');
    await expectJsonError(await fetch(`${server.url}/nope`), 404, 'not_found');
  });

  it('wrong method: 405 with Allow', async () => {
    const response = await fetch(`${server.url}/api/v2/auth/context`, { method: 'DELETE', headers: bearer('demo-token-app') });
    const error = await expectJsonError(response, 405, 'validation_failed');
    expect(error.details).toEqual([{ issue: 'method_not_allowed' }]);
    expect(response.headers.get('allow')).toContain('GET');
    const graphql = await fetch(`${server.url}/graphql`, { method: 'PUT' });
    expect(graphql.headers.get('allow')).toBe('GET, POST');
    expect((await expectGraphQLError(graphql, 405, 'validation_failed')).extensions.details).toEqual([{ issue: 'method_not_allowed' }]);
  });

  it('methods Koa does not route by default (TRACE, PROPFIND, M-SEARCH): 405 with Allow where the path exists, 404 where not', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'M-SEARCH']) {
      const [known] = await exchange(server.url, `${method} /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(expectRawError(known, 405, 'validation_failed').details).toEqual([{ issue: 'method_not_allowed' }]);
      expect(known.headers.allow).toBe('HEAD, GET');
      const [unknown] = await exchange(server.url, `${method} /api/v2/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(expectRawError(unknown, 404, 'not_found').details).toEqual([{ issue: 'unknown_route' }]);
      const [graphql] = await exchange(server.url, `${method} /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(graphql.status).toBe(405);
      expect(JSON.parse(graphql.body).errors[0].extensions.details).toEqual([{ issue: 'method_not_allowed' }]);
    }
  });

  it('HEAD and OPTIONS: HEAD as GET without a body, OPTIONS 200 with Allow (on /graphql too), 404 where no path', async () => {
    const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const [path, allow] of [['/api/v2/auth/context', 'HEAD, GET'], ['/graphql', 'GET, POST']]) {
      const options = await fetch(`${server.url}${path}`, { method: 'OPTIONS' });
      expect(options.status).toBe(200);
      expect(options.headers.get('allow')).toBe(allow);
    }
    await expectJsonError(await fetch(`${server.url}/api/v2/nope`, { method: 'OPTIONS' }), 404, 'not_found');
    expect((await fetch(`${server.url}/graphql`, { method: 'HEAD' })).headers.get('allow')).toBe('GET, POST');
  });

  it('malformed JSON: 400 validation_failed naming the body (a GraphQL error body on /graphql)', async () => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'malformed-json', 'if-match': '"1"', ...bearer('demo-token-app') };
    const stages = await fetch(`${server.url}/api/v2/events/evt_open/stages`, { method: 'POST', headers, body: '{"name": ' });
    expect((await expectJsonError(stages, 400, 'validation_failed')).details[0].field).toBe('body');
    const graphql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect((await expectGraphQLError(graphql, 400, 'validation_failed')).extensions.details[0].field).toBe('body');
  });

  it('wrong content type: 415 validation_failed naming content-type (RFC 6749 invalid_request on /oauth/token)', async () => {
    const oauth = await token('{"grant_type":"client_credentials"}', 'text/plain');
    expect(oauth.status).toBe(400);
    expect((await oauth.json()).error).toBe('invalid_request');
    const graphql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/graphql-response+json' }, body: '{}' });
    expect(graphql.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect((await expectGraphQLError(graphql, 415, 'validation_failed')).extensions.details[0].field).toBe('content-type');
  });

  it('oversized body: 413 validation_failed', async () => {
    const big = JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1024 * 1024 + 10) });
    const error = await expectGraphQLError(await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 413, 'validation_failed');
    expect(error.extensions.details[0].issue).toBe('payload_too_large');
  });

  it('unknown or repeated query parameters and bad values: 400 naming the parameter', async () => {
    const get = (query: string) => fetch(`${server.url}/api/v2/auth/context${query}`, { headers: bearer('demo-token-app') });
    expect((await expectJsonError(await get('?limit=abc'), 400, 'validation_failed')).details[0].field).toBe('limit');
    // A page size is digits: what Number() would also read is refused.
    const events = (query: string) => fetch(`${server.url}/api/v2/organisations/org_demo/events${query}`, { headers: bearer('demo-token-app') });
    for (const limit of ['0x10', '1e2', '%201', '1.0', '+5', '']) {
      const error = await expectJsonError(await events(`?limit=${limit}`), 400, 'validation_failed');
      expect(error.details[0], limit).toMatchObject({ field: 'limit' });
    }
    expect((await events('?limit=7')).status).toBe(200);
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

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('demo-token-app'), ...headers }, body: JSON.stringify(body) });
  const get = (parameters: Record<string, string>) => fetch(`${server.url}/graphql?${new URLSearchParams(parameters)}`, { headers: bearer('demo-token-app') });

  it('an operation that cannot be determined is a 400 (unknown operationName, several operations and no name, by POST or GET)', async () => {
    const unknown = await expectGraphQLError(await post({ query: 'query A { __typename }', operationName: 'B' }), 400, 'OPERATION_RESOLUTION_FAILURE');
    expect(unknown.message).toBe('Unknown operation named "B".');
    const twoNamed = 'query A { __typename } query B { __typename }';
    expect((await expectGraphQLError(await post({ query: twoNamed }), 400, 'OPERATION_RESOLUTION_FAILURE')).message).toMatch(/operation name/);
    await expectGraphQLError(await get({ query: twoNamed }), 400, 'OPERATION_RESOLUTION_FAILURE');
    expect((await (await get({ query: twoNamed, operationName: 'B' })).json()).data).toEqual({ __typename: 'Query' });
    await expectGraphQLError(await post({ query: '{ __typename } { __typename }' }), 400, 'GRAPHQL_VALIDATION_FAILED');
  });

  it('an empty operationName is no operationName', async () => {
    expect((await (await post({ query: '{ __typename }', operationName: '' })).json()).data).toEqual({ __typename: 'Query' });
    expect((await (await get({ query: 'query A { __typename }', operationName: '' })).json()).data).toEqual({ __typename: 'Query' });
    // …so a mutation named that way by GET is still refused as one.
    expect((await get({ query: 'mutation { __typename }', operationName: '' })).status).toBe(405);
  });

  it('a subscription over HTTP is a 400 naming the WebSocket; a mutation by GET a 405 with Allow: POST', async () => {
    for (const response of [await post({ query: 'subscription { __typename }' }), await get({ query: 'subscription { __typename }' })]) {
      expect((await expectGraphQLError(response, 400, 'GRAPHQL_VALIDATION_FAILED')).message).toMatch(/WebSocket/);
    }
    const mutation = await get({ query: 'mutation { __typename }' });
    expect(mutation.headers.get('allow')).toBe('POST');
    await expectGraphQLError(mutation, 405, 'BAD_REQUEST');
  });

  it('introspection inside a fragment with @skip or @include is a 400 (the query planner cannot plan it); on the field it is answered', async () => {
    const error = await expectGraphQLError(await post({ query: '{ ... @skip(if: false) { __schema { queryType { name } } } }' }), 400, 'GRAPHQL_VALIDATION_FAILED');
    expect(error.message).toMatch(/__schema .*put the condition on the field/);
    await expectGraphQLError(await post({ query: '{ ...F @include(if: true) } fragment F on Query { __type(name: "Event") { name } }' }), 400, 'GRAPHQL_VALIDATION_FAILED');
    expect((await (await post({ query: '{ __schema @skip(if: false) { queryType { name } } }' })).json()).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('null for a variable with a default, where a value is required, is a 400 before anything runs', async () => {
    const flag = await post({ query: 'query($flag: Boolean = true) { authContext { applicationId @include(if: $flag) } }', variables: { flag: null } });
    expect((await expectGraphQLError(flag, 400, 'BAD_USER_INPUT')).message).toBe('Variable "$flag" is null where a value of type Boolean! is required.');
    const id = await post({ query: 'query($id: ID = "evt_open") { ...E } fragment E on Query { event(id: $id) { id } }', variables: { id: null } });
    await expectGraphQLError(id, 400, 'BAD_USER_INPUT');
    expect((await (await post({ query: 'query($id: ID = "evt_open") { event(id: $id) { id } }', variables: {} })).json()).data).toEqual({ event: { id: 'evt_open' } });
  });

  it('answers without data are never 2xx, and every error carries the request id', async () => {
    // A hash outside the manifest of trusted documents (docs/graphql.md#trusted-documents).
    const persisted = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } });
    await expectGraphQLError(persisted, 404, 'PERSISTED_QUERY_NOT_FOUND');
    await expectGraphQLError(await post([{ query: '{ __typename }' }]), 400, 'BAD_REQUEST');
    await expectGraphQLError(await post({ query: '{ __typename }', variables: [1] }), 400, 'BAD_REQUEST');
    await expectGraphQLError(await post({ query: '{ __typename }' }, { accept: 'text/plain' }), 406, 'BAD_REQUEST');
  });

  it('never leaks internals: users read without an installation are not_found', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('demo-token-app') }, body: JSON.stringify({ query: '{ user(id: "usr_erin") { id } }' }) });
    const body = await response.json();
    expect(body.errors[0].extensions.code).toBe('not_found');
    expect(JSON.stringify(body)).not.toMatch(/prisma|stack|SELECT/i);
  });
});

describe('requests the HTTP server meets before the application: the error body and a request id all the same', () => {
  const send = (request: string | Buffer) => exchange(server.url, request);

  it('HTTP/1.1 without Host, or with two: 400 naming host', async () => {
    const [missing] = await send('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(expectRawError(missing, 400, 'validation_failed').details).toEqual([{ field: 'host', issue: 'required' }]);
    const [twice] = await send('GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
    expect(expectRawError(twice, 400, 'validation_failed').details).toEqual([{ field: 'host', issue: 'repeated' }]);
    // HTTP/1.0 has no Host requirement.
    const [old] = await send('GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it('an Expect other than 100-continue: 417 naming expect; 100-continue goes on', async () => {
    const body = '{"query":"{ __typename }"}';
    const [weird] = await send(`POST /graphql HTTP/1.1\r\nHost: a\r\nExpect: 999-weird\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(expectRawError(weird, 417, 'validation_failed').details).toEqual([{ field: 'expect', issue: 'unsupported_expectation' }]);
    const [answered] = await send(`POST /graphql HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(JSON.parse(answered.body)).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('malformed requests (400), request lines and headers over 16 KB (431), chunk extensions over 16 KB (413)', async () => {
    for (const request of ['GET / HTTP/1.1\r\nHost a\r\n\r\n', 'FOO@ / HTTP/1.1\r\n\r\n', 'GET / HTTP/9.9\r\nHost: a\r\n\r\n', 'POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n']) {
      expect(expectRawError((await send(request))[0], 400, 'validation_failed').details).toEqual([{ issue: 'malformed_request' }]);
    }
    const [large] = await send(`GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(expectRawError(large, 431, 'validation_failed').details).toEqual([{ issue: 'headers_too_large' }]);
    const [extensions] = await send(`POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`);
    expect(expectRawError(extensions, 413, 'validation_failed').details).toEqual([{ field: 'body', issue: 'payload_too_large' }]);
  });

  it('CONNECT: 405 with Allow where the path exists, 404 for anything else, and the socket is closed', async () => {
    const [known] = await send('CONNECT /api/v2/auth/context HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(expectRawError(known, 405, 'validation_failed').details).toEqual([{ issue: 'method_not_allowed' }]);
    expect(known.headers.allow).toBe('HEAD, GET');
    const [authority] = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(expectRawError(authority, 404, 'not_found').details).toEqual([{ issue: 'unknown_route' }]);
  });

  it('an Upgrade the server does not speak is ignored: the request is answered as plain HTTP/1.1, body and keep-alive included', async () => {
    const body = '{"query":"{ __typename }"}';
    const answers = await send(
      'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n' +
        `POST /graphql HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        'GET /api/v2/auth/context HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401]);
    expect(JSON.parse(answers[0].body)).toEqual({ status: 'ok' });
    expect(JSON.parse(answers[1].body)).toMatchObject({ data: { __typename: 'Query' } });
    expectRawError(answers[2], 401, 'invalid_token');
  });

  it('a WebSocket handshake the gateway cannot accept: 400 with the reason', async () => {
    const [noKey] = await send('GET /graphql HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    expect(expectRawError(noKey, 400, 'validation_failed').message).toMatch(/Sec-WebSocket-Key/);
    const [version] = await send('GET /api/v1/gateway HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n\r\n');
    expectRawError(version, 400, 'validation_failed');
    expect(version.headers['sec-websocket-version']).toBe('13, 8');
  });

  it('stays healthy', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
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
