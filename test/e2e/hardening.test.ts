// What a hostile client tried once and must never achieve again: crash the process, get a 500 out of
// the database, exhaust /graphql, or tell client ids apart by timing.
import { spawn } from 'node:child_process';
import { GraphQLError, getIntrospectionQuery, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rateLimitConfig } from '../../facade/http/rate-limits.ts';
import { call, uniqueKey } from '../support/api.ts';
import { root } from '../support/processes.ts';
import { GRAPHQL_LIMITS, measureDocument } from '../../facade/graphql/limits.ts';
import { formatSubgraphError } from '../../platform/graphql/error-format.ts';

let server: TestServer;
beforeAll(async () => {
  // This file measures the timing of failed client authentications, dozens of them: the limit on
  // them is raised here (rate-limits.test.ts shows it).
  server = await startTestServer({ rateLimits: { ...rateLimitConfig(), authFailures: { name: 'auth_failures', quota: 1_000, windowSeconds: 600 } } });
});
afterAll(() => server?.close());

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const graphql = async (query: string, variables?: unknown, token: string | null = 'demo-token-app') => {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
};
const healthy = async () => (await fetch(`${server.url}/healthz`)).status === 200;
const aliases = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

function expectRefused(response: { status: number; body: { error: { code: string; details: { field?: string; issue: string }[] } } }, field: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('validation_failed');
  expect(response.body.error.details.map((detail) => detail.field)).toContain(field);
}

describe('input that no database can store', () => {
  it('answers a NUL byte in an id with 400, with or without a token, and the process lives on', async () => {
    for (const token of [null, 'demo-token-app']) {
      expectRefused(await api('/api/v2/users/%00', { token }), 'userId');
      expectRefused(await api('/api/v2/events/%00/statistics/players', { token }), 'eventId');
      expectRefused(await api('/api/v2/organisations/org_demo/events?cursor=%00', { token }), 'cursor');
    }
    const literal = await graphql('{ event(id: "\\u0000") { id } }', undefined, null);
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'id' }] });
    const variable = await graphql('query($id: ID!) { event(id: $id) { id } }', { id: 'evt\u0000' });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions.details[0].field).toBe('id');
    expect(await healthy()).toBe(true);
  });

  it('refuses lone surrogates in names and signup answers, and timestamps outside 1970–9999, naming the field', async () => {
    const write = async (path: string, method: string, body: unknown) =>
      api(path, { method, body, ifMatch: await revisionOf('evt_open'), key: uniqueKey() });
    expectRefused(await write('/api/v2/events/evt_open/stages', 'POST', { name: 'Groups \ud800', format: 'swiss', bestOf: 1 }), 'name');
    expectRefused(await write('/api/v2/events/evt_open/participants/par_charlie', 'PATCH', { action: 'signup_answers', answers: { discord: 'x\udc00' } }), 'answers.discord');
    expectRefused(await write('/api/v2/events/evt_open/participants/par_charlie', 'PATCH', { action: 'signup_answers', answers: { 'k\u0000': 'x' } }), 'answers');
    expectRefused(await write('/api/v2/events/evt_open/stages', 'POST', { name: 'Old', format: 'swiss', bestOf: 1, startsAt: '0000-01-01T00:00:00Z' }), 'startsAt');
    expectRefused(await write('/api/v2/events/evt_open/stages', 'POST', { name: 'Far', format: 'swiss', bestOf: 1, endsAt: '+275760-09-13T00:00:00Z' }), 'endsAt');
    const viaGraphql = await graphql(
      'mutation($input: CreateStageInput!, $rev: String, $key: String!) { createStage(eventId: "evt_open", input: $input, ifMatch: $rev, idempotencyKey: $key) { revision } }',
      { input: { name: 'x\ud800', format: 'swiss', bestOf: 1 }, rev: `"${await revisionOf('evt_open')}"`, key: uniqueKey() },
    );
    expect(viaGraphql.status).toBe(400);
    expect(viaGraphql.body.errors[0].extensions.details[0].field).toBe('input.name');
    const usage = await api('/api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=0000-01-01&to=0000-01-02');
    expectRefused(usage, 'from');
    // Nothing was written by any of them.
    expect(await server.db.prisma.stage.count({ where: { eventId: 'evt_open', name: { in: ['Old', 'Far'] } } })).toBe(0);
  });

  // Decoded leniently, each of these would have become U+FFFD and been stored (or looked up) as if the
  // client had sent that character; a U+FFFD the client did send, encoded or escaped, is kept.
  it('refuses bytes that are not UTF-8 in a JSON body, GraphQL variables, a query, a path and an OAuth form, naming the field', async () => {
    const INVALID = 'must be valid UTF-8 (it holds an invalid byte sequence)';
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => Buffer.from(part as string)));
    const send = async (path: string, init: { method?: string; type?: string; body?: Buffer } = {}) => {
      const headers: Record<string, string> = { authorization: 'Bearer demo-token-app', 'idempotency-key': uniqueKey() };
      if (init.type) headers['content-type'] = init.type;
      const response = await fetch(`${server.url}${path}`, { method: init.method ?? 'GET', headers, body: init.body ? new Uint8Array(init.body) : undefined });
      const text = await response.text();
      return { status: response.status, text, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null };
    };
    const create = (body: Buffer) => send('/api/v2/organisations/org_demo/events', { method: 'POST', type: 'application/json', body });
    const refusedWith = (response: Awaited<ReturnType<typeof send>>, field: string, issue = INVALID) => {
      expectRefused(response, field);
      expect(response.body.error.details).toEqual([{ field, issue }]);
    };
    // 0xC3 begins a sequence "(" does not continue; 0xFF begins none; ED A0 80 would be a surrogate.
    refusedWith(await create(bytes('{"name":"Cup ', [0xc3, 0x28], '","game":"cs2"}')), 'name');
    refusedWith(await create(bytes('{"name":"Cup","game":"cs2","tags":["a","b', [0xff], '"]}')), 'tags.1');
    refusedWith(await create(bytes('{"name":"Cup","game":"cs2","extra":{"k', [0xed, 0xa0, 0x80], '":1}}')), 'extra', `a key ${INVALID}`);
    expect(await server.db.prisma.event.count({ where: { name: { startsWith: 'Cup \ufffd' } } })).toBe(0);
    const kept = await create(bytes('{"name":"Cup \ufffd \\ufffd","game":"cs2"}'));
    expect(kept.status, kept.text).toBe(201);
    expect((await server.db.prisma.event.findUniqueOrThrow({ where: { id: kept.body.data.resourceId } })).name).toBe('Cup \ufffd \ufffd');

    // GraphQL: a variable's field named as its NUL check names it, in a body and in a GET's parameters.
    const query = 'query($id: ID!) { event(id: $id) { id } }';
    const posted = await send('/graphql', { method: 'POST', type: 'application/json', body: bytes(JSON.stringify({ query }).slice(0, -1), ',"variables":{"id":"evt_open', [0xc3, 0x28], '"}}') });
    expect(posted.status, posted.text).toBe(400);
    expect(posted.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'id', issue: INVALID }] });
    const viaGet = await send(`/graphql?query=${encodeURIComponent(query)}&variables=%7B%22id%22%3A%22evt_open%FF%22%7D`);
    expect(viaGet.status, viaGet.text).toBe(400);
    expect(viaGet.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'variables', issue: INVALID }] });

    // A query parameter, a path parameter (the router kept %FF undecoded), an overlay page's query.
    refusedWith(await send('/api/v2/organisations/org_demo/events?cursor=%C3%28'), 'cursor');
    refusedWith(await send('/api/v2/organisations/org_%FF/events'), 'organisationId');
    refusedWith(await send('/overlays/scoreboard?token=ovl_%FF&matchId=mtc_1'), 'token');

    // OAuth: the form's field, percent-encoded or sent as a raw byte, in the error description.
    for (const body of [bytes('grant_type=client_credentials&client_id=app_demo&client_secret=demo%FF'), bytes('grant_type=client_credentials&client_id=app_demo', [0xff])]) {
      const token = await send('/oauth/token', { method: 'POST', type: 'application/x-www-form-urlencoded', body });
      expect(token.status, token.text).toBe(400);
      expect(token.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(`${body.includes('%FF') ? 'client_secret' : 'client_id'}: ${INVALID}`) });
    }
    const page = await send('/oauth/authorize?response_type=code&client_id=app_demo&state=%C3%28');
    expect(page.status).toBe(400);
    expect(page.text).toContain('The parameter state holds bytes that are not UTF-8.');
    expect(await healthy()).toBe(true);
  });

  it('refuses forged cursors whose keys the statements could not take', async () => {
    const forge = (key: unknown[]) => Buffer.from(JSON.stringify({ b: 'x', k: key })).toString('base64url');
    for (const key of [['0000-01-01T00:00:00Z', 'evt'], ['\u0000', 'x'], [1e300, 'x']]) {
      expectRefused(await api(`/api/v2/organisations/org_demo/events?cursor=${forge(key)}`), 'cursor');
      expectRefused(await api(`/api/v2/esports/events?cursor=${forge(key)}`, { headers: { 'svc-installation-id': 'ins_demo_org' } }), 'cursor');
    }
  });

  it('answers a data exception that slips through every check as 400, not 500', () => {
    const fromDriver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const fromPrisma = Object.assign(new Error('Database error'), { code: 'P2039', meta: { driverAdapterError: { cause: { originalCode: '22008' } } } });
    for (const original of [fromDriver, fromPrisma]) {
      const formatted = formatSubgraphError(new GraphQLError('x', { originalError: original }), () => undefined);
      expect(formatted.extensions).toMatchObject({ code: 'validation_failed', details: [{ issue: 'value_not_storable' }] });
    }
    const bug = formatSubgraphError(new GraphQLError('x', { originalError: Object.assign(new Error('relation missing'), { code: '42P01' }) }), () => undefined);
    expect(bug.extensions).toEqual({ code: 'internal' });
  });
});

describe('GraphQL limits', () => {
  it('refuses 5,000 aliases, 24,000 unauthenticated aliases and a 1 MB document in milliseconds while /healthz answers', async () => {
    const attacks = [
      graphql(aliases(5_000, 'event(id: "evt_open") { id name organisation { name } stages { id } }')),
      graphql(aliases(24_000, 'event(id: "evt_open") { id }'), undefined, null),
      graphql(`{ ${' '.repeat(1_000_000)} __typename }`, undefined, null),
    ];
    const health = Array.from({ length: 10 }, () => healthy());
    const started = Date.now();
    const answers = await Promise.all(attacks);
    const elapsed = Date.now() - started;
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'documentBytes', issue: 'limit_exceeded' }] });
    }
    expect(elapsed).toBeLessThan(2_000);
    expect(await Promise.all(health)).toEqual(Array(10).fill(true));
  });

  it('refuses each limit by name: aliases, depth, root fields, tokens, cost', async () => {
    const expectLimit = async (query: string, limit: string, token: string | null = 'demo-token-app') => {
      const { status, body } = await graphql(query, undefined, token);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body.errors[0].extensions.details).toEqual([{ field: limit, issue: 'limit_exceeded' }]);
      expect(body.errors[0].message).toMatch(/at most|more than/);
    };
    await expectLimit(aliases(GRAPHQL_LIMITS.aliases + 1, 'esportsMatch(matchId: "esm_final") { id }'), 'aliases');
    let deep = 'id';
    for (let i = 0; i < GRAPHQL_LIMITS.depth; i++) deep = `organisation { ${deep} }`;
    await expectLimit(`{ event(id: "evt_open") { ${deep} } }`, 'depth');
    const roots = `{ ${['authContext { scopes }', 'team(id: "team_alpha") { id }', 'esportsEvents { meta { hasMore } }'].join(' ')} ${Array.from({ length: GRAPHQL_LIMITS.rootFields }, () => 'organisation(id: "org_demo") { id }').join(' ')} }`;
    await expectLimit(roots, 'rootFields');
    await expectLimit(`{ ${'a '.repeat(GRAPHQL_LIMITS.tokens)} }`, 'tokens', null);
    const page = (alias: string) => `${alias}: organisationEvents(organisationId: "org_demo", limit: 100) { data { id organisation { name } stages { id } } }`;
    await expectLimit(`{ ${page('a')} ${page('b')} ${page('c')} }`, 'cost');
    // Limits come before authentication: no token is needed to be refused, and none to be turned away cheaply.
    await expectLimit(aliases(GRAPHQL_LIMITS.aliases + 1, 'event(id: "evt_open") { id }'), 'aliases', null);
    expect(await healthy()).toBe(true);
  });

  it('counts every alias of a metered field against the cost, and lets the standard introspection query through', async () => {
    const { schema } = await import('../../subgraphs/esports/schema/index.ts');
    const measure = (query: string, variables = {}) => {
      const document = parse(query);
      return measureDocument(schema, document, document.definitions[0] as never, variables);
    };
    const one = measure('{ a: esportsMatch(matchId: "m") { id } }');
    const two = measure('{ a: esportsMatch(matchId: "m") { id } b: esportsMatch(matchId: "m") { id } }');
    expect(two.cost).toBe(2 * one.cost);
    expect(one.cost).toBeGreaterThanOrEqual(10);
    // A page's list counts with its limit, 20 without one.
    expect(measure('query($l: Int) { esportsEvents(limit: $l) { data { id } } }', { l: 100 }).cost).toBeGreaterThan(measure('{ esportsEvents { data { id } } }').cost);
    const introspection = await graphql(getIntrospectionQuery(), undefined, null);
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    const nested = await graphql('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }', undefined, null);
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0].extensions.details).toEqual([{ field: 'introspectionListNesting', issue: 'limit_exceeded' }]);
  });
});

describe('client authentication', () => {
  it('costs the same for an unknown client id as for a wrong secret', async () => {
    const attempt = async (clientId: string) => {
      const started = process.hrtime.bigint();
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:wrong-secret`).toString('base64')}` },
        body: 'grant_type=client_credentials',
      });
      expect(response.status).toBe(401);
      await response.text();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    await attempt('app_unknown');
    await attempt('app_demo');
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Interleaved, so that whatever else the machine does weighs on both alike.
    for (let i = 0; i < 30; i++) {
      unknown.push(await attempt(`app_unknown_${i}`));
      wrong.push(await attempt('app_demo'));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const [u, w] = [median(unknown), median(wrong)];
    expect(Math.abs(u - w) / w, `unknown ${u.toFixed(1)} ms, wrong secret ${w.toFixed(1)} ms`).toBeLessThan(0.35);
  });
});

describe('process guards', () => {
  it('log an escaped exception and an unhandled rejection, and the process carries on', async () => {
    const script = `
      import pino from 'pino';
      import { installProcessGuards, startupFinished } from './platform/process/process-guards.ts';
      installProcessGuards(pino());
      startupFinished();
      Promise.reject(new Error('nobody awaited this'));
      setTimeout(() => { throw new Error('thrown from a timer'); }, 10);
      setTimeout(() => { console.log('still alive'); process.exit(0); }, 200);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('still alive');
    expect(output).toContain('nobody awaited this');
    expect(output).toContain('thrown from a timer');
  });
});
