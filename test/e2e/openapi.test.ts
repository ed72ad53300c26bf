// Every route of the table is documented in /api/openapi.json, and real responses of every route,
// success and error, match the schema the document gives for them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { routeSamples, sampleStateOf, samplePath } from '../support/route-samples.ts';

let server: TestServer;
const SAMPLES = routeSamples(sampleStateOf(() => server));
let document: { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>>; components: object };
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  server = await startTestServer();
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
});
afterAll(() => server?.close());

// First, on the demo world as a fresh `npm start` has it: the route samples below change it.
describe('the samples the reference shows are the demo world\'s', () => {
  type Parameter = { name: string; in: string; example?: string };
  type Operation = { parameters?: Parameter[]; security?: Array<Record<string, unknown>>; responses: Record<string, { content?: Record<string, { example?: unknown }> }> };
  const operations = () =>
    Object.entries(document.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

  it('every path parameter has an example', () => {
    const missing = operations().flatMap(({ path, method, operation }) => (operation.parameters ?? []).filter((p) => p.in === 'path' && p.example === undefined).map((p) => `${method} ${path} ${p.name}`));
    expect(missing).toEqual([]);
  });

  it('every read, called with its examples and a demo credential, answers 200 on a fresh demo world', async () => {
    const failures: string[] = [];
    for (const { path, method, operation } of operations()) {
      // The authorization page is a browser's (docs/authentication.md walks through it).
      if (method !== 'get' || !operation.parameters || path === '/oauth/authorize') continue;
      // Answers an overlay token, which an organiser issues (the demo world holds none): its samples run in execution-paths.
      if (path === '/api/v1/overlay-token') continue;
      const parameters = operation.parameters;
      const url = new URL(path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(parameters.find((p) => p.name === name)!.example!)), server.url);
      for (const p of parameters) if (p.in === 'query' && p.example !== undefined) url.searchParams.set(p.name, p.example);
      const headers: Record<string, string> = Object.fromEntries(parameters.filter((p) => p.in === 'header' && p.example !== undefined).map((p) => [p.name, p.example!]));
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
      // The demo application's token; the owner's user where the application is another (app_transfer's transfers).
      const credentials = schemes.includes('apiKey') ? [{ 'x-api-key': 'demo-org-key-0001' }] : [{ authorization: 'Bearer demo-token-app' }, { authorization: 'Bearer demo-token-alice' }];
      let status = 0;
      for (const credential of credentials) {
        status = (await fetch(url, { headers: { ...headers, ...credential } })).status;
        if (status === 200) break;
      }
      if (status !== 200) failures.push(`GET ${url.pathname}${url.search}: ${status}`);
    }
    expect(failures).toEqual([]);
  });

  it('the ids in the example answers of the reads are the demo world\'s, and the reads answer them', async () => {
    const failures: string[] = [];
    for (const row of routeTable) {
      const match = /^GET (\/\S*)$/.exec(row.example?.request ?? '');
      if (!match) continue;
      // Illustrate what a write made: the demo world has no overlay token to list or to read with.
      if (row.operationId === 'listOverlayTokens' || row.operationId === 'v1GetOverlayToken') continue;
      const credentials: Record<string, string>[] = row.security === 'apiKey' ? [{ 'x-api-key': 'demo-org-key-0001' }] : [{ authorization: 'Bearer demo-token-app' }, { authorization: 'Bearer demo-token-alice' }];
      let response = new Response(null, { status: 599 });
      for (const credential of credentials) {
        response = await fetch(`${server.url}${match[1]}`, { headers: { 'svc-installation-id': 'ins_demo_org', ...credential } });
        if (response.status === 200) break;
      }
      const text = await response.text();
      if (response.status !== 200) {
        failures.push(`${row.operationId}: ${response.status}`);
        continue;
      }
      const ids = JSON.stringify(row.example!.response).match(/"(?:id|[a-z]+Id)":"([a-z]+_[a-z0-9_]+)"/gi) ?? [];
      for (const pair of ids) {
        const id = pair.split(':')[1];
        if (!text.includes(id)) failures.push(`${row.operationId}: ${pair} is not in the answer`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is OpenAPI 3.1 and documents every row of the route table', () => {
    expect((document as unknown as { openapi: string }).openapi).toBe('3.1.0');
    for (const row of routeTable) {
      expect(document.paths[row.path]?.[row.method], `${row.method} ${row.path}`).toBeDefined();
      expect(SAMPLES[row.operationId], `samples for ${row.operationId}`).toBeDefined();
    }
  });

  it('marks the headers every write requires as required (If-Match, and Idempotency-Key where the write takes one)', () => {
    type Parameter = { name: string; in: string; required: boolean };
    const headers = (path: string, method: string) => (document.paths[path][method] as unknown as { parameters: Parameter[] }).parameters.filter((p) => p.in === 'header');
    for (const [path, method, idempotent] of [['/api/v2/events/{eventId}/publish', 'post', true], ['/api/v2/events/{eventId}/settings/veto', 'patch', false]] as const) {
      const byName = Object.fromEntries(headers(path, method).map((p) => [p.name, p.required]));
      expect(byName['if-match']).toBe(true);
      expect(byName['idempotency-key']).toBe(idempotent ? true : undefined);
      expect(byName['x-request-id']).toBe(false);
    }
    // The writes without If-Match (a new event; a team answering its invitation) do not document it.
    for (const [path, method, ifMatch] of [
      ['/api/v2/organisations/{organisationId}/events', 'post', false],
      ['/api/v2/events/{eventId}', 'patch', true],
      ['/api/v2/events/{eventId}/participants', 'post', true],
      ['/api/v2/events/{eventId}/invitations/{invitationId}/accept', 'post', false],
    ] as const) {
      const byName = Object.fromEntries(headers(path, method).map((p) => [p.name, p.required]));
      expect(byName['if-match'], `${method} ${path}`).toBe(ifMatch ? true : undefined);
      if (path !== '/api/v2/events/{eventId}') expect(byName['idempotency-key'], `${method} ${path}`).toBe(true);
      const responses = Object.keys(document.paths[path][method].responses);
      expect(responses.includes('412') && responses.includes('428'), `${method} ${path}`).toBe(ifMatch);
      expect(responses).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409']));
    }
  });

  it('every route authorised by an access token answers 401 invalid_token with WWW-Authenticate to a missing or unknown one', async () => {
    for (const row of routeTable.filter((r) => r.security === 'bearer')) {
      const sample = SAMPLES[row.operationId].find((candidate) => candidate.status < 300)!;
      const init = typeof sample.init === 'function' ? await sample.init() : (sample.init ?? {});
      for (const authorization of [undefined, 'Bearer not-a-token']) {
        const headers = { ...(init.headers as Record<string, string>) };
        delete headers.authorization;
        if (authorization) headers.authorization = authorization;
        const response = await fetch(`${server.url}${await samplePath(sample)}`, { method: row.method.toUpperCase(), ...init, headers });
        expect(response.status, `${row.operationId} ${authorization ?? 'without a token'}`).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect((await response.json()).error.code).toBe('invalid_token');
      }
    }
  });

  for (const row of routeTable) {
    it(`real responses of ${row.operationId} match the documented schemas`, async () => {
      const statuses = new Set<number>();
      for (const sample of SAMPLES[row.operationId] ?? []) {
        const init = typeof sample.init === 'function' ? await sample.init() : sample.init;
        const path = await samplePath(sample);
        const response = await fetch(`${server.url}${path}`, { method: row.method.toUpperCase(), ...init });
        expect(response.status, path).toBe(sample.status);
        const documented = document.paths[row.path][row.method].responses[String(response.status)];
        expect(documented, `status ${response.status} documented for ${row.operationId}`).toBeDefined();
        const schema = documented.content['application/json'].schema;
        const validate = ajv.compile({ ...schema, components: document.components });
        const body = await response.json();
        expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
        statuses.add(response.status);
      }
      expect([...statuses].some((status) => status < 300)).toBe(true);
    });
  }
});
