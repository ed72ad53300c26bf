// Every route of the table is documented in /api/openapi.json, and real responses of every route,
// success and error, match the schema the document gives for them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

type Sample = { path: string; init?: RequestInit; status: number };
const basic = `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`;
const form = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body,
});

/** Real requests for every route: a new route without samples fails the first test. */
const SAMPLES: Record<string, Sample[]> = {
  getAuthContext: [
    { path: '/api/v2/auth/context', init: { headers: bearer('demo-token-app') }, status: 200 },
    { path: '/api/v2/auth/context?targetType=organisation&targetId=org_demo', init: { headers: bearer('demo-token-alice') }, status: 200 },
    { path: '/api/v2/auth/context?targetType=user&targetId=usr_carol', init: { headers: bearer('demo-token-app') }, status: 200 },
    { path: '/api/v2/auth/context?targetType=user', init: { headers: bearer('demo-token-app') }, status: 400 },
    { path: '/api/v2/auth/context', status: 401 },
  ],
  issueToken: [
    { path: '/oauth/token', init: form('grant_type=client_credentials', { authorization: basic }), status: 200 },
    { path: '/oauth/token', init: form('grant_type=client_credentials&client_id=app_demo&client_secret=demo-app-secret&scope=event%3Amanage'), status: 200 },
    { path: '/oauth/token', init: form('grant_type=client_credentials&scope=nope', { authorization: basic }), status: 400 },
    { path: '/oauth/token', init: form('grant_type=client_credentials&client_id=app_demo&client_secret=x'), status: 401 },
  ],
};

let server: TestServer;
let document: { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>>; components: object };
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  server = await startTestServer();
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
});
afterAll(() => server?.close());

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents every row of the route table', () => {
    expect((document as unknown as { openapi: string }).openapi).toBe('3.1.0');
    for (const row of routeTable) {
      expect(document.paths[row.path]?.[row.method], `${row.method} ${row.path}`).toBeDefined();
      expect(SAMPLES[row.operationId], `samples for ${row.operationId}`).toBeDefined();
    }
  });

  for (const row of routeTable) {
    it(`real responses of ${row.operationId} match the documented schemas`, async () => {
      const statuses = new Set<number>();
      for (const sample of SAMPLES[row.operationId] ?? []) {
        const response = await fetch(`${server.url}${sample.path}`, { method: row.method.toUpperCase(), ...sample.init });
        expect(response.status, sample.path).toBe(sample.status);
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
