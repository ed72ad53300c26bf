// Trusted documents on /graphql: the platform's own operations (schema/trusted-documents.json, from
// the route table) named by hash in either form clients send, and GRAPHQL_TRUSTED_DOCUMENTS's three
// modes, on servers started with each.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { TRUSTED_DOCUMENTS_PATH, trustedDocumentsConfig, type Manifest } from '../../facade/graphql/trusted-documents.ts';

const manifest = JSON.parse(readFileSync(TRUSTED_DOCUMENTS_PATH, 'utf8')) as Manifest;
const list = manifest.operations.find((operation) => operation.name === 'ListOrganisationEvents')!;
const create = manifest.operations.find((operation) => operation.name === 'CreateEvent')!;
const variables = { organisationId: 'org_demo' };
const APP = { authorization: 'Bearer demo-token-app' };
const KEY = { 'x-api-key': 'demo-org-key-0001' };

let db: TestDatabase;
const servers: Record<'allow' | 'off' | 'require' | 'requireExempt', TestServer> = {} as never;
beforeAll(async () => {
  db = await createTestDatabase();
  for (const [name, mode, exempt] of [
    ['allow', undefined, undefined],
    ['off', 'off', undefined],
    ['require', 'require', 'org_other'],
    ['requireExempt', 'require', 'app_demo,org_demo'],
  ] as const) {
    vi.stubEnv('GRAPHQL_TRUSTED_DOCUMENTS', mode);
    vi.stubEnv('GRAPHQL_ANY_DOCUMENT_CLIENTS', exempt);
    servers[name] = await startTestServer({ db, webhookWorker: false });
  }
  vi.unstubAllEnvs();
}, 180_000);
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.close()));
  await db?.drop();
});

async function post(server: TestServer, body: unknown, headers: Record<string, string> = APP) {
  const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, any>; errors?: { message: string; extensions: Record<string, any> }[] } };
}

async function get(server: TestServer, params: Record<string, string>, headers: Record<string, string> = APP) {
  const response = await fetch(`${server.url}/graphql?${new URLSearchParams(params)}`, { headers: { ...headers, accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, any>; errors?: { message: string; extensions: Record<string, any> }[] } };
}

describe('the manifest', () => {
  it('holds every route operation once, by the sha256 of its text', () => {
    expect(manifest.format).toBe('apollo-persisted-query-manifest');
    for (const operation of manifest.operations) expect(createHash('sha256').update(operation.body).digest('hex')).toBe(operation.id);
    expect(new Set(manifest.operations.map((operation) => operation.id)).size).toBe(manifest.operations.length);
    expect(list.type).toBe('query');
    expect(create.type).toBe('mutation');
  });
});

describe('allow (the default)', () => {
  it('runs a manifest document named by documentId, by Apollo\'s persistedQuery hash, or sent as text, alike', async () => {
    const byText = await post(servers.allow, { query: list.body, variables });
    expect(byText.status).toBe(200);
    expect(byText.body.data?.organisationEvents.data.length).toBeGreaterThan(0);
    const byId = await post(servers.allow, { documentId: `sha256:${list.id}`, variables });
    const byHash = await post(servers.allow, { variables, extensions: { persistedQuery: { version: 1, sha256Hash: list.id } } });
    const byGet = await get(servers.allow, { documentId: `sha256:${list.id}`, variables: JSON.stringify(variables) });
    const byGetHash = await get(servers.allow, { variables: JSON.stringify(variables), extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: list.id } }) });
    for (const answer of [byId, byHash, byGet, byGetHash]) expect(answer).toEqual(byText);
    // A text with its own hash (an APQ client registering it) runs as text; nothing is registered.
    expect(await post(servers.allow, { query: list.body, variables, extensions: { persistedQuery: { version: 1, sha256Hash: list.id } } })).toEqual(byText);
  });

  it('still runs any text', async () => {
    const answer = await post(servers.allow, { query: '{ event(id: "evt_open") { name } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.data?.event.name).toEqual(expect.any(String));
  });

  it('answers an unknown or malformed id 404 PERSISTED_QUERY_NOT_FOUND, which APQ clients act on, with and without a credential', async () => {
    for (const body of [
      { documentId: `sha256:${'0'.repeat(64)}` },
      { documentId: 'sha256:nothex' },
      { documentId: 'custom-id' },
      { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } },
    ]) {
      for (const headers of [APP, {}]) {
        const answer = await post(servers.allow, body, headers);
        expect(answer.status, JSON.stringify(body)).toBe(404);
        expect(answer.body.errors).toHaveLength(1);
        expect(answer.body.errors![0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', requestId: expect.any(String) } });
        expect(answer.body.data).toBeUndefined();
      }
    }
  });

  it('refuses a documentId that is not one string, and answers a GET by id as GraphQL even to a browser', async () => {
    for (const documentId of [[list.id], 42, null]) {
      const answer = await post(servers.allow, { documentId, variables });
      expect(answer.status, JSON.stringify(documentId)).toBe(400);
      expect(answer.body.errors![0].extensions).toMatchObject({ code: 'BAD_REQUEST', details: [{ field: 'documentId' }] });
    }
    const repeated = await fetch(`${servers.allow.url}/graphql?documentId=sha256:${list.id}&documentId=sha256:${list.id}`, { headers: APP });
    expect(repeated.status).toBe(400);
    const browser = await fetch(`${servers.allow.url}/graphql?${new URLSearchParams({ documentId: `sha256:${list.id}`, variables: JSON.stringify(variables) })}`, { headers: { ...APP, accept: 'text/html,application/json;q=0.9' } });
    expect(browser.headers.get('content-type')).toContain('json');
    expect(((await browser.json()) as { data: { organisationEvents: unknown } }).data.organisationEvents).toBeDefined();
  });

  it('refuses a text that does not match the hash sent with it, and a mutation named by GET', async () => {
    const mismatch = await post(servers.allow, { query: '{ event(id: "evt_open") { name } }', extensions: { persistedQuery: { version: 1, sha256Hash: list.id } } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors![0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    const mutation = await get(servers.allow, { documentId: `sha256:${create.id}`, variables: JSON.stringify({}) });
    expect(mutation.status).toBe(405);
  });
});

describe('off', () => {
  it('answers any hash 400 PERSISTED_QUERY_NOT_SUPPORTED and runs texts', async () => {
    for (const body of [{ documentId: `sha256:${list.id}`, variables }, { variables, extensions: { persistedQuery: { version: 1, sha256Hash: list.id } } }]) {
      const answer = await post(servers.off, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors![0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
    }
    expect((await post(servers.off, { query: list.body, variables })).status).toBe(200);
  });
});

describe('require', () => {
  it('runs only manifest documents for a third-party token, an API key and no credential', async () => {
    for (const headers of [APP, KEY, {}]) {
      const free = await post(servers.require, { query: '{ event(id: "evt_open") { name } }' }, headers);
      expect(free.status, JSON.stringify(headers)).toBe(400);
      expect(free.body.errors![0].extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_IN_LIST', details: [{ field: 'query', issue: 'not_in_manifest' }] });
      const freeByGet = await get(servers.require, { query: '{ __typename }' }, headers);
      expect(freeByGet.status).toBe(400);
    }
    const byId = await post(servers.require, { documentId: `sha256:${list.id}`, variables });
    expect(byId.status).toBe(200);
    expect(byId.body.data?.organisationEvents.data.length).toBeGreaterThan(0);
    // A batch is Apollo Server's to refuse, as in every mode; the schema is not published for the IDE.
    const batch = await fetch(`${servers.require.url}/graphql`, { method: 'POST', headers: { ...APP, 'content-type': 'application/json' }, body: JSON.stringify([{ query: list.body, variables }]) });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_REQUEST');
    expect((await fetch(`${servers.require.url}/graphql/ide/schema.json`)).status).toBe(404);
    expect((await fetch(`${servers.allow.url}/graphql/ide/schema.json`)).status).toBe(200);
    // The manifest's exact text is a manifest document too.
    expect((await post(servers.require, { query: list.body, variables })).status).toBe(200);
    expect((await post(servers.require, { query: `${list.body} `, variables })).status).toBe(400);
  });

  it('lets the clients GRAPHQL_ANY_DOCUMENT_CLIENTS names send any document: an application\'s tokens, an organisation\'s keys', async () => {
    const query = '{ event(id: "evt_open") { name } }';
    const byToken = await post(servers.requireExempt, { query }, APP);
    expect(byToken.status).toBe(200);
    expect(byToken.body.data?.event.name).toEqual(expect.any(String));
    const byKey = await post(servers.requireExempt, { query: '{ apiKey { event(id: "evt_open") { name } } }' }, KEY);
    expect(byKey.status).toBe(200);
    expect(byKey.body.data?.apiKey.event.name).toEqual(byToken.body.data?.event.name);
    // An invalid token is nobody's: refused for the mode before anything reads it.
    expect((await post(servers.requireExempt, { query }, { authorization: 'Bearer not-a-token' })).status).toBe(400);
    expect((await post(servers.requireExempt, { query }, {})).status).toBe(400);
  });
});

describe('configuration', () => {
  it('stops the start with one sentence naming the variable', () => {
    expect(() => trustedDocumentsConfig({ GRAPHQL_TRUSTED_DOCUMENTS: 'sometimes' })).toThrow(/^GRAPHQL_TRUSTED_DOCUMENTS must be off, allow or require/);
    expect(() => trustedDocumentsConfig({ GRAPHQL_ANY_DOCUMENT_CLIENTS: 'app_a,usr_b' })).toThrow(/^GRAPHQL_ANY_DOCUMENT_CLIENTS must be application ids \(app_…\) and organisation ids \(org_…\), comma-separated; "usr_b" is neither\.$/);
    expect(trustedDocumentsConfig({})).toMatchObject({ mode: 'allow' });
    expect(trustedDocumentsConfig({ GRAPHQL_TRUSTED_DOCUMENTS: 'require', GRAPHQL_ANY_DOCUMENT_CLIENTS: ' app_a , org_b ' }).anyDocument).toEqual({ applications: new Set(['app_a']), organisations: new Set(['org_b']) });
  });
});
