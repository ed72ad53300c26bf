// A hostile client against every operation of /api/openapi.json, so that every route, present and
// future, is covered: malformed path, query, header and body values (wrong types, NUL, lone
// surrogates, huge and negative numbers, 100 KB strings, deep JSON, bad preconditions, repeated
// parameters), sent with a valid token so that validation is reached. No answer may be >= 500, every
// error body must have the documented shape, and the server must stay healthy after each operation.
// Then GraphQL over HTTP: generated documents and requests (methods, media types, operation shapes)
// to /graphql, and every method the HTTP parser accepts on every path.
import http from 'node:http';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, type OperationDefinitionNode } from 'graphql';
import { startTestServer, type TestServer } from '../support/server.ts';
import { graphqlProbe, type GraphQLProbe } from '../support/graphql-requests.ts';
import { routeTable } from '../../facade/routes/index.ts';
import { rateLimitConfig } from '../../facade/http/rate-limits.ts';
import { errorStatus } from '../../platform/api/errors.ts';

type Schema = Record<string, unknown>;
interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }
interface Operation {
  operationId: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Record<string, unknown>[];
}
interface Probe { label: string; path: string; query?: [string, string][]; headers: Record<string, string>; body?: string; method: string }

let server: TestServer;
let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
let validateError: (body: unknown) => boolean;
const failures: string[] = [];
let sent = 0;

beforeAll(async () => {
  // Thousands of requests a minute, some without a token: quotas this file does not reach (the limits
  // themselves are tested in rate-limits.test.ts).
  const unlimited = { quota: 1_000_000, windowSeconds: 60 };
  server = await startTestServer({ rateLimits: { ...rateLimitConfig(), token: { name: 'token', ...unlimited }, anonymous: { name: 'anonymous', ...unlimited } } });
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const [name, schema] of Object.entries(document.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  validateError = ajv.compile({ $ref: '#/components/schemas/Error' });
});
afterAll(() => server?.close());

const HUGE = 'x'.repeat(100 * 1024);
const DEEP = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: deepObject(depth - 1) });

/** Demo-world ids by parameter name; the esports section has its own. */
function idFor(name: string, path: string): string {
  const esports = path.startsWith('/api/v2/esports');
  const ids: Record<string, string> = esports
    ? { eventId: 'ese_major', stageId: 'ess_major_groups', groupId: 'esg_major_a', matchId: 'esm_final' }
    : { eventId: 'evt_open', participantId: 'par_charlie', playdayId: 'pd_open_1', organisationId: 'org_demo', userId: 'usr_bob', appId: 'app_demo', matchId: 'mtc_open_1', messageId: 'msg_hello', stageId: 'stg_open_groups', groupId: 'grp_open_a' };
  return ids[name] ?? 'x_1';
}

/** A plausible value for a schema, so that each probe changes one thing of an otherwise fair request. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.$ref) return sample(document.components.schemas[String(schema.$ref).split('/').pop()!], depth + 1);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) if (Array.isArray(schema[key])) return sample((schema[key] as Schema[])[0], depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sample(value, depth + 1)]));
    }
    case 'array': return [sample(schema.items as Schema, depth + 1)];
    case 'integer': return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number': return 1;
    case 'boolean': return true;
    case 'string': return schema.format === 'date-time' ? '2027-01-01T00:00:00Z' : 'x';
    default: return null;
  }
}

const BAD_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', HUGE, '', ' ', '%', '../..', '😀'.repeat(50), '1e309', '-1', '9'.repeat(40)];
const BAD_JSON_VALUES: unknown[] = [null, 123, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, true, 'x', '\u0000', '\ud800', HUGE, [], {}, deepObject(80), Array.from({ length: 5_000 }, () => 'x'), { '\u0000': 1 }, '0000-01-01T00:00:00Z', '275760-09-13T00:00:00Z'];
const BAD_HEADERS = ['*', 'W/"1"', '"99999999999999999999"', '1', 'abc', '"-1"', '"1", "2"', 'x'.repeat(8_000), '\u00ff\u00fe'];

/** Percent-encodes, writing a lone surrogate as the bytes a careless client would send (WTF-8). */
function encodePathPart(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\ud800-\udfff]/g, '%ED%A0%80');
  }
}

async function revisionOf(path: string): Promise<number> {
  const eventId = /\/events\/([^/]+)/.exec(path)?.[1];
  const event = eventId ? await server.db.prisma.event.findUnique({ where: { id: eventId } }) : null;
  return event?.revision ?? 1;
}

let key = 0;
async function baseRequest(path: string, method: string, operation: Operation): Promise<Probe> {
  const params = operation.parameters ?? [];
  const headers: Record<string, string> = {};
  const security = JSON.stringify(operation.security ?? []);
  if (security.includes('bearerAuth')) headers.authorization = 'Bearer demo-token-app';
  if (security.includes('clientBasic')) headers.authorization = `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`;
  for (const param of params.filter((p) => p.in === 'header')) {
    if (param.name === 'svc-installation-id') headers[param.name] = 'ins_demo_org';
    if (param.name === 'idempotency-key') headers[param.name] = `fuzz-${++key}`;
    if (param.name === 'if-match') headers[param.name] = `"${await revisionOf(path)}"`;
  }
  const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => idFor(name, path));
  const content = operation.requestBody?.content ?? {};
  const form = content['application/x-www-form-urlencoded'];
  const json = content['application/json'];
  let body: string | undefined;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = 'grant_type=client_credentials';
  } else if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(sample(json.schema));
  }
  return { label: 'base', path: concrete, headers, body, method: method.toUpperCase() };
}

function probesFor(path: string, _method: string, operation: Operation, base: Probe): Probe[] {
  const probes: Probe[] = [base];
  const params = operation.parameters ?? [];
  const variant = (label: string, change: Partial<Probe>) => probes.push({ ...base, ...change, headers: { ...base.headers, ...(change.headers ?? {}) }, label });
  for (const param of params.filter((p) => p.in === 'path')) {
    for (const value of BAD_TEXT) {
      const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === param.name ? encodePathPart(value) : idFor(name, path)));
      variant(`path ${param.name}=${JSON.stringify(value.slice(0, 12))}`, { path: concrete });
    }
  }
  const queryParams = params.filter((p) => p.in === 'query');
  for (const param of queryParams) {
    for (const value of BAD_TEXT) variant(`query ${param.name}=${JSON.stringify(value.slice(0, 12))}`, { query: [[param.name, value]] });
    variant(`query ${param.name} repeated`, { query: [[param.name, '1'], [param.name, '2']] });
  }
  variant('unknown query parameter', { query: [['nope', '1']] });
  if (queryParams.some((p) => p.name === 'cursor')) {
    for (const key of [['0000-01-01T00:00:00Z', 'x'], ['\u0000', '\u0000'], [1e300, 'x'], [null], 'x']) {
      const forged = Buffer.from(JSON.stringify({ b: 'whatever', k: key })).toString('base64url');
      variant(`forged cursor ${JSON.stringify(key).slice(0, 20)}`, { query: [['cursor', forged]] });
    }
  }
  for (const param of params.filter((p) => p.in === 'header')) {
    for (const value of BAD_HEADERS) variant(`header ${param.name}=${value.slice(0, 12)}`, { headers: { [param.name]: value } });
    const { [param.name]: _dropped, ...without } = base.headers;
    probes.push({ ...base, headers: without, label: `header ${param.name} missing` });
  }
  variant('authorization garbage', { headers: { authorization: 'Bearer \u00ff' } });
  if (base.body !== undefined && base.headers['content-type'] === 'application/json') {
    const parsed = JSON.parse(base.body) as Record<string, unknown>;
    const fields = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed) : [];
    for (const field of fields) {
      for (const value of BAD_JSON_VALUES) variant(`body ${field}=${JSON.stringify(value)?.slice(0, 16)}`, { body: JSON.stringify({ ...parsed, [field]: value }) });
      const inner = parsed[field];
      if (Array.isArray(inner) && inner[0] && typeof inner[0] === 'object') {
        for (const sub of Object.keys(inner[0] as object)) {
          for (const value of BAD_JSON_VALUES.slice(0, 12)) variant(`body ${field}.0.${sub}`, { body: JSON.stringify({ ...parsed, [field]: [{ ...(inner[0] as object), [sub]: value }] }) });
        }
      }
    }
    for (const [label, body] of [
      ['not JSON', '{"a":'], ['empty object', '{}'], ['array', '[]'], ['string', '"x"'], ['null', 'null'], ['deep JSON', DEEP(5_000)], ['deep object', JSON.stringify(deepObject(200))],
      ['100 KB string', JSON.stringify(HUGE)], ['NUL key', '{"\\u0000":1}'], ['surrogate escape', '{"a":"\\ud800"}'], ['extra field', JSON.stringify({ ...parsed, nope: 1 })],
    ] as const) variant(`body ${label}`, { body });
    variant('body with wrong content type', { headers: { 'content-type': 'text/plain' } });
  } else if (base.body === undefined && base.method !== 'GET') {
    variant('a body where none is taken', { body: JSON.stringify({ a: '\u0000' }), headers: { 'content-type': 'application/json' } });
  }
  if (base.headers['content-type'] === 'application/x-www-form-urlencoded') {
    for (const body of ['grant_type=%00', 'grant_type=client_credentials&scope=%ED%A0%80', `grant_type=client_credentials&client_id=${HUGE}`, 'grant_type=client_credentials&grant_type=x', '%%%']) variant(`form ${body.slice(0, 30)}`, { body });
  }
  return probes;
}

async function send(probe: Probe, path: string, oauth: boolean): Promise<void> {
  const url = new URL(`${server.url}${probe.path}`);
  for (const [name, value] of probe.query ?? []) url.searchParams.append(name, value);
  let response: Response;
  try {
    response = await fetch(url, { method: probe.method, headers: probe.headers, body: probe.body, redirect: 'manual' });
  } catch (error) {
    // The client itself may refuse a header value (fetch validates them); that is not the server's answer.
    if (String((error as Error).message).includes('header')) return;
    failures.push(`${probe.method} ${path} [${probe.label}]: no answer (${(error as Error).message})`);
    return;
  }
  sent++;
  const text = await response.text();
  if (response.status >= 500) failures.push(`${probe.method} ${path} [${probe.label}]: ${response.status} ${text.slice(0, 200)}`);
  // A page answers its errors as HTML where the document says so (the authorization pages).
  const documented = document.paths[path][probe.method.toLowerCase()].responses?.[String(response.status)]?.content;
  if (response.status >= 400 && documented?.['text/html']) {
    if (!response.headers.get('content-type')?.startsWith('text/html')) failures.push(`${probe.method} ${path} [${probe.label}]: ${response.status} is documented as a page but is not HTML`);
    return;
  }
  if (response.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      failures.push(`${probe.method} ${path} [${probe.label}]: ${response.status} with a body that is not JSON: ${text.slice(0, 100)}`);
      return;
    }
    // 431 comes from Node's HTTP parser, before any route: always the platform's error body.
    const shaped = oauth && response.status !== 431 ? typeof (body as { error?: unknown }).error === 'string' : validateError(body);
    if (!shaped) failures.push(`${probe.method} ${path} [${probe.label}]: ${response.status} error body not in the documented shape: ${text.slice(0, 200)}`);
  }
}

describe('fuzz: every operation of the OpenAPI document', () => {
  it('answers every malformed request with a documented 4xx, never >= 500, and stays healthy', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    expect(operations.length).toBeGreaterThan(15);
    for (const { path, method, operation } of operations) {
      const probes = probesFor(path, method, operation, await baseRequest(path, method, operation));
      const oauth = path.startsWith('/oauth');
      // A few at a time: concurrency is part of being hostile, and it keeps the run short.
      for (let i = 0; i < probes.length; i += 8) await Promise.all(probes.slice(i, i + 8).map((probe) => send(probe, path, oauth)));
      const health = await fetch(`${server.url}/healthz`);
      if (health.status !== 200) failures.push(`after ${method.toUpperCase()} ${path}: /healthz answered ${health.status}`);
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1_000);
  }, 600_000);
});

// The same operations as GraphQL: every route's named operation, posted to /graphql with each variable
// replaced by hostile values in turn (wrong types included: coercion must refuse them, not crash).
const APOLLO_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  // Trusted documents (docs/graphql.md#trusted-documents).
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_HASH_MISMATCH',
  'PERSISTED_QUERY_NOT_IN_LIST',
];
const KNOWN_CODES = new Set([...Object.keys(errorStatus), ...APOLLO_CODES]);

describe('fuzz: every route operation through /graphql', () => {
  it('answers hostile variables with errors in the documented codes, never >= 500', async () => {
    const problems: string[] = [];
    let count = 0;
    for (const row of routeTable) {
      const definition = parse(row.operation.source).definitions[0] as OperationDefinitionNode;
      const names = (definition.variableDefinitions ?? []).map((variable) => variable.variable.name.value);
      const fair: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, name.endsWith('Id') || name === 'id' ? 'evt_open' : null]));
      const variants: Record<string, unknown>[] = [fair];
      for (const name of names) for (const value of [...BAD_JSON_VALUES, { nested: { '\u0000': 'x' } }]) variants.push({ ...fair, [name]: value });
      for (let i = 0; i < variants.length; i += 8) {
        await Promise.all(
          variants.slice(i, i + 8).map(async (variables) => {
            const response = await fetch(`${server.url}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' },
              body: JSON.stringify({ query: row.operation.source, variables }),
            });
            count++;
            const text = await response.text();
            const label = `${row.operation.name} ${JSON.stringify(variables).slice(0, 80)}`;
            if (response.status >= 500) return problems.push(`${label}: ${response.status} ${text.slice(0, 200)}`);
            let body: { errors?: { extensions?: { code?: string } }[] };
            try {
              body = JSON.parse(text);
            } catch {
              return problems.push(`${label}: ${response.status} not JSON`);
            }
            for (const error of body.errors ?? []) {
              const code = error.extensions?.code;
              if (!code || !KNOWN_CODES.has(code)) problems.push(`${label}: error code ${code}`);
              if (code === 'internal') problems.push(`${label}: internal error`);
            }
          }),
        );
      }
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(500);
  }, 600_000);
});

interface Answer { status: number; headers: http.IncomingHttpHeaders; text: string }

/** One request with node:http, which sends any method the parser knows (fetch refuses TRACE and others). */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const healthy = async () => (await fetch(`${server.url}/healthz`)).status === 200;
const JSON_MEDIA = /^application\/(graphql-response\+)?json/;

/** What is wrong with an answer of /graphql: >= 500 or a fault, a request error without a 4xx, or a 4xx without a GraphQL error body. */
function graphqlProblems(probe: GraphQLProbe, answer: Answer): string[] {
  if (answer.status >= 500) return [`answered ${answer.status}`];
  if (answer.status === 405 && !answer.headers.allow) return ['405 without Allow'];
  if (probe.method === 'HEAD') return [];
  if (probe.method === 'OPTIONS' && answer.status === 200) return answer.headers.allow ? [] : ['OPTIONS answered without Allow'];
  const type = String(answer.headers['content-type'] ?? '');
  // A browser's GET without a query gets GraphiQL.
  if (type.startsWith('text/html') && probe.method === 'GET' && answer.status === 200) return [];
  if (!JSON_MEDIA.test(type)) return [`${answer.status} answered as ${type || 'no content type'}`];
  if (probe.headers.accept === 'application/graphql-response+json' && !type.startsWith('application/graphql-response+json')) return [`asked for application/graphql-response+json, answered ${type}`];
  let body: { data?: unknown; error?: unknown; errors?: { message?: unknown; extensions?: { code?: string; requestId?: string } }[] };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${answer.status} with a body that is not JSON`];
  }
  // A fault masked in a 200 is a 500 all the same.
  const faults = (body.errors ?? []).filter((error) => ['internal', 'INTERNAL_SERVER_ERROR'].includes(error.extensions?.code ?? ''));
  if (faults.length) return [`a fault in the answer: ${faults[0].message}`];
  if (answer.status < 400) return 'data' in body ? [] : [`${answer.status} without data: a request error must be a 4xx`];
  // 431 comes from Node's HTTP parser, before any route: the platform's error body.
  if (answer.status === 431) return validateError(body) ? [] : ['431 without the error body'];
  if (!Array.isArray(body.errors) || body.errors.length === 0) return [`${answer.status} without a GraphQL error body`];
  const problems: string[] = [];
  for (const error of body.errors) {
    if (typeof error.message !== 'string' || !error.message) problems.push('an error without a message');
    if (!KNOWN_CODES.has(error.extensions?.code ?? '')) problems.push(`error code ${error.extensions?.code}`);
    if (error.extensions?.requestId !== answer.headers['x-request-id']) problems.push(`extensions.requestId ${error.extensions?.requestId} is not the x-request-id`);
  }
  return problems;
}

const post = (body: unknown): GraphQLProbe => ({ method: 'POST', search: '', headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app' }, body: JSON.stringify(body) });
const get = (parameters: Record<string, string>): GraphQLProbe => ({ method: 'GET', search: `?${new URLSearchParams(parameters)}`, headers: { authorization: 'Bearer demo-token-app' } });
// The reproductions the generator must also cover, always sent first.
const KNOWN_PROBES: GraphQLProbe[] = [
  post({ query: 'query A { __typename }', operationName: 'B' }),
  post({ query: '{ __typename } { __typename }' }),
  post({ query: 'query A { __typename } query B { __typename }' }),
  post({ query: 'subscription { __typename }' }),
  get({ query: 'query A { __typename } query B { __typename }' }),
  get({ query: 'subscription { __typename }' }),
  get({ query: 'mutation { __typename }' }),
  post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }),
  post({ documentId: `sha256:${'a'.repeat(64)}` }),
  post({ documentId: ['x'], query: '{ __typename }' }),
  post({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'b'.repeat(64) } } }),
  get({ documentId: 'x-custom:1' }),
];

describe('fuzz: GraphQL over HTTP', () => {
  it('answers every generated request with data or a 4xx GraphQL error body, never >= 500', async () => {
    let count = 0;
    await fc.assert(
      fc.asyncProperty(graphqlProbe, async (probe) => {
        count++;
        const answer = await rawRequest(probe.method, `/graphql${probe.search}`, probe.headers, probe.body);
        const problems = graphqlProblems(probe, answer);
        if (problems.length) throw new Error(`${problems.join('; ')}: ${answer.status} ${answer.text.slice(0, 300)}`);
      }),
      // A new seed each run; a failure prints its seed, and FUZZ_SEED=<seed> runs the same requests again.
      { numRuns: 1_500, examples: KNOWN_PROBES.map((probe) => [probe]), ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );
    expect(count).toBeGreaterThanOrEqual(1_500);
    expect(await healthy()).toBe(true);
  }, 600_000);
});

describe('fuzz: every method the HTTP parser accepts, on every path', () => {
  // CONNECT opens a tunnel rather than asking for a resource (http-conventions.test.ts sends it).
  const METHODS = http.METHODS.filter((method) => method !== 'CONNECT');
  const UNKNOWN_PATHS = ['/nope', '/api/v2x', '/api/v2/nope', '/api/v2/events/evt_open/nope', '/graphql/nope/deeper', '/oauth'];
  const EXTRA_PATHS = ['/graphql', '/healthz', '/readyz', '/metrics', '/docs', '/docs/redoc.standalone.js', '/realtime/graphql-ws.js', '/.well-known/oauth-authorization-server', '/oauth/authorize'];

  function errorOf(path: string, answer: Answer): { code?: string; details?: { issue: string }[]; requestId?: string } | undefined {
    try {
      const body = JSON.parse(answer.text);
      // /graphql answers its errors as GraphQL error bodies, with the same code, details and request id.
      if (path === '/graphql') return body.errors?.length === 1 ? { ...body.errors[0].extensions } : undefined;
      return body.error;
    } catch {
      return undefined;
    }
  }

  it('answers 405 with Allow on a path that exists and 404 on one that does not, each with the error body', async () => {
    const problems: string[] = [];
    // Each documented path with demo-world ids, and the methods the document gives it.
    const documented = new Map(Object.entries(document.paths).map(([path, methods]) => [path.replace(/\{(\w+)\}/g, (_m, name: string) => idFor(name, path)), Object.keys(methods).map((m) => m.toUpperCase())]));
    const paths = [...new Set([...documented.keys(), ...EXTRA_PATHS])];
    const probes: (() => Promise<void>)[] = [];
    for (const path of paths) {
      const options = await rawRequest('OPTIONS', path);
      const allow = String(options.headers.allow ?? '');
      if (options.status !== 200 || !allow) {
        problems.push(`OPTIONS ${path}: ${options.status}, Allow "${allow}"`);
        continue;
      }
      // OPTIONS itself is answered on every path that exists (above), listed in Allow or not.
      const allowed = new Set([...allow.split(/,\s*/), 'OPTIONS']);
      for (const method of documented.get(path) ?? []) if (!allowed.has(method)) problems.push(`OPTIONS ${path}: Allow "${allow}" lacks the documented ${method}`);
      for (const method of METHODS.filter((m) => !allowed.has(m))) {
        probes.push(async () => {
          const answer = await rawRequest(method, path, { authorization: 'Bearer demo-token-app' });
          const label = `${method} ${path}`;
          if (answer.status !== 405) return void problems.push(`${label}: ${answer.status}, not 405`);
          if (answer.headers.allow !== allow) problems.push(`${label}: Allow "${answer.headers.allow}", OPTIONS said "${allow}"`);
          if (method === 'HEAD') return;
          const error = errorOf(path, answer);
          if (error?.code !== 'validation_failed' || error.details?.[0]?.issue !== 'method_not_allowed' || error.requestId !== answer.headers['x-request-id']) problems.push(`${label}: body ${answer.text.slice(0, 200)}`);
        });
      }
    }
    for (const path of UNKNOWN_PATHS) {
      for (const method of METHODS) {
        probes.push(async () => {
          const answer = await rawRequest(method, path, { authorization: 'Bearer demo-token-app' });
          const label = `${method} ${path}`;
          if (answer.status !== 404) return void problems.push(`${label}: ${answer.status}, not 404`);
          if (method === 'HEAD') return;
          const error = errorOf(path, answer);
          if (error?.code !== 'not_found' || error.details?.[0]?.issue !== 'unknown_route' || error.requestId !== answer.headers['x-request-id']) problems.push(`${label}: body ${answer.text.slice(0, 200)}`);
        });
      }
    }
    for (let i = 0; i < probes.length; i += 8) await Promise.all(probes.slice(i, i + 8).map((probe) => probe()));
    expect(problems).toEqual([]);
    expect(probes.length).toBeGreaterThan(1_000);
    expect(await healthy()).toBe(true);
  }, 600_000);
});
