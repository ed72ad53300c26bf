// The distributed topology's configuration: router.yaml names every subgraph, propagates the headers
// authority depends on and sends the subgraphs' shared secret; `npm run start:subgraph` serves a
// subgraph over HTTP to callers with that secret only.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoServerLeft, isAlive, runScript, startServerProcess } from './support/processes.ts';
import { overLatencyBudget, slowAnswers, watchHealth } from './support/health-budget.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { subgraphPath } from '../subgraphs/compose.ts';
import { GRAPHQL_LIMITS } from '../facade/graphql/limits.ts';
import { DEFAULT_LIST_SIZE } from '../facade/graphql/cost-model.ts';
import { SUBGRAPH_TIMEOUT_MS } from '../facade/graphql/gateway.ts';
import { routerConfigOf } from '../facade/router/router-config.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('router.yaml', () => {
  it('routes to every subgraph, propagates authorization, x-request-id and svc-installation-id, and sends the subgraphs\' secret', async () => {
    const config = parse(await readFile(path.join(root, 'router.yaml'), 'utf8'));
    expect(Object.keys(config.override_subgraph_url).sort()).toEqual([...SUBGRAPH_NAMES].sort());
    type Rule = { propagate?: { named: string }; insert?: { name: string; value: string } };
    const rules: Rule[] = config.headers.all.request;
    const propagated = rules.filter((rule) => rule.propagate).map((rule) => rule.propagate!.named);
    expect(propagated).toEqual(expect.arrayContaining(['authorization', 'x-request-id', 'svc-installation-id']));
    // The secret comes from the router's environment, and a client's own copy is never passed on.
    expect(rules).toContainEqual({ insert: { name: 'svc-subgraph-secret', value: '${env.SUBGRAPH_SECRET}' } });
    expect(propagated).not.toContain('svc-subgraph-secret');
    // The router itself listens where the deployment puts it; the subgraphs stay internal.
    expect(config.supergraph.listen).toBeDefined();
  });

  it('applies the limits /graphql applies: depth, aliases, root fields, and demand control from @cost and @listSize', async () => {
    const config = parse(await readFile(path.join(root, 'router.yaml'), 'utf8'));
    expect(config.limits).toMatchObject({ max_depth: GRAPHQL_LIMITS.depth, max_aliases: GRAPHQL_LIMITS.aliases, max_root_fields: GRAPHQL_LIMITS.rootFields });
    // A subgraph gets as long from the router as from the platform's gateway (SUBGRAPH_URLS).
    expect(config.traffic_shaping.all.timeout).toBe(`${SUBGRAPH_TIMEOUT_MS / 1000}s`);
    expect(config.demand_control).toEqual({ enabled: true, mode: 'enforce', strategy: { static_estimated: { list_size: DEFAULT_LIST_SIZE, max: GRAPHQL_LIMITS.cost } } });
  });
});

describe('npm run router reads router.yaml', () => {
  const secret = 's'.repeat(40);

  it('as Apollo Router does: addresses, header rules with the secret from the environment, request size and timeouts', async () => {
    const config = routerConfigOf(await readFile(path.join(root, 'router.yaml'), 'utf8'), { SUBGRAPH_SECRET: secret });
    expect(config).toEqual({
      graphqlPath: '/graphql',
      subgraphUrls: { competitions: 'http://competitions:4001/graphql', esports: 'http://esports:4002/graphql', developer: 'http://developer:4003/graphql' },
      propagated: ['authorization', 'x-api-key', 'x-overlay-token', 'x-request-id', 'svc-installation-id'],
      inserted: { 'svc-subgraph-secret': secret },
      maxRequestBytes: 1_048_576,
      subgraphTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
    // The platform's own gateway gives a subgraph the same time (SUBGRAPH_URLS).
    expect(config.subgraphTimeoutMs).toBe(SUBGRAPH_TIMEOUT_MS);
  });

  it('refuses, in one sentence, a file it cannot apply as written or a secret that is not set', async () => {
    const text = await readFile(path.join(root, 'router.yaml'), 'utf8');
    expect(() => routerConfigOf(text, {})).toThrow('router.yaml inserts ${env.SUBGRAPH_SECRET} into a subgraph request header, and SUBGRAPH_SECRET is not set.');
    expect(() => routerConfigOf(text.replace('timeout: 10s', 'timeout: soon'), { SUBGRAPH_SECRET: secret })).toThrow(/^router\.yaml cannot be read at traffic_shaping\.all\.timeout: a duration such as 10s or 500ms\.$/);
    expect(() => routerConfigOf(text.replace(/^ {2}esports: .*$/m, ''), { SUBGRAPH_SECRET: secret })).toThrow('router.yaml names no address for the esports subgraph in override_subgraph_url.');
    const started = await runScript('router', [], { SUBGRAPH_SECRET: '', PORT: '0' });
    expect(started.code).toBe(1);
    expect(started.output.trim()).toMatch(/^SUBGRAPH_SECRET is not set, and the router needs it: [^\n]+\.$/);
    const misaddressed = await runScript('router', [], { SUBGRAPH_SECRET: secret, PORT: '0', SUBGRAPH_URLS: 'competitions=ftp://c/graphql' });
    expect(misaddressed.code).toBe(1);
    expect(misaddressed.output.trim()).toMatch(/^SUBGRAPH_URLS must be name=http:\/\/… or name=https:\/\/… for each of competitions, esports, developer, comma-separated, each name once; "competitions=ftp:\/\/c\/graphql" cannot be read\.$/);
  }, 60_000);
});

describe('npm run start:subgraph', () => {
  afterAll(assertNoServerLeft);

  it('serves one subgraph alone, with its federation SDL, only to callers with the shared secret, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'subgraph-'));
    const env = { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') };
    const seeded = await runScript('db:seed', [], env);
    expect(seeded.code, seeded.output).toBe(0);
    const secret = randomBytes(32).toString('hex');
    const running = await startServerProcess({
      args: ['run', '--silent', 'start:subgraph', '--', 'competitions'],
      env: { ...env, PORT: '0', LOG_LEVEL: 'silent', SUBGRAPH_SECRET: secret },
      ready: /serves (http:\/\/\S+)/,
      timeoutMs: 60_000,
    });
    const post = (body: unknown, headers: Record<string, string> = { 'svc-subgraph-secret': secret }) =>
      fetch(running.base, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    try {
      const { data } = await (await post({ query: '{ _service { sdl } }' })).json();
      expect(data._service.sdl).toContain('type Event');
      expect(data._service.sdl.trim()).toBe((await readFile(subgraphPath('competitions'), 'utf8')).trim());

      // Entity references are resolved without a token, for the gateway: another organisation's event
      // and a user. Without the secret a caller gets nothing but 403, token or not.
      const entities = {
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Event { id name } ... on User { id displayName } } }',
        variables: { r: [{ __typename: 'Event', id: 'evt_rival' }, { __typename: 'User', id: 'usr_bob' }] },
      };
      const allowed = await post(entities);
      expect(allowed.status).toBe(200);
      expect((await allowed.json()).data._entities).toEqual([{ id: 'evt_rival', name: 'Rival Cup' }, { id: 'usr_bob', displayName: 'Bob' }]);
      for (const headers of [{}, { authorization: 'Bearer demo-token-app' }, { 'svc-subgraph-secret': 'demo-token-app' }] as Record<string, string>[]) {
        const refused = await post(entities, headers);
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual({
          error: { code: 'forbidden', message: expect.stringContaining('shared secret'), requestId: expect.stringMatching(/^req_/), details: [{ field: 'svc-subgraph-secret', issue: 'subgraph_secret_required' }] },
        });
      }

      // The subgraph guards its own input too: text the database cannot store is refused.
      const refused = await post({ query: 'query($id: ID!) { event(id: $id) { id } }', variables: { id: 'evt\u0000' } }, { 'svc-subgraph-secret': secret, authorization: 'Bearer demo-token-app' });
      expect(refused.status).toBe(200);
      expect((await refused.json()).errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'id' }] });

      // A flood of distinct guesses, with and without tokens, GET and POST, bodies up to 16 KiB, under
      // the production heap flags of npm run start:subgraph: every one is 403, /healthz answers within
      // a second throughout, and the process lives on and answers the gateway's secret after it.
      // Within a second of the server's own time (support/health-budget.ts): a machine busy with other work does not fail it.
      const watching = await watchHealth(running.base.replace(/\/graphql$/, ''), running.pid);
      const statuses = new Map<number, number>();
      let next = 0;
      const guess = async () => {
        for (let i = next++; i < 3_000; i = next++) {
          const headers: Record<string, string> = { 'svc-subgraph-secret': randomBytes(1 + (i % 64)).toString('base64') };
          if (i % 2) headers.authorization = `Bearer ${i % 4 === 1 ? 'demo-token-app' : randomBytes(16).toString('hex')}`;
          if (i % 7 === 0) delete headers['svc-subgraph-secret'];
          const response =
            i % 3 === 0
              ? await fetch(`${running.base}?query=${encodeURIComponent(`{ _entities(representations: [{__typename: "Event", id: "evt_${i}"}]) { __typename } }`)}`, { headers })
              : await fetch(running.base, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ ...entities, pad: 'x'.repeat(i % 16_384) }) });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: 32 }, guess));
      const { samples, healthFailures } = await watching.stop();
      expect(Object.fromEntries(statuses)).toEqual({ 403: 3_000 });
      expect(healthFailures).toEqual([]);
      expect(overLatencyBudget(samples, 1_000), JSON.stringify(slowAnswers(samples))).toEqual([]);
      expect(isAlive(running.pid)).toBe(true);
      expect((await (await post(entities)).json()).data._entities).toHaveLength(2);
    } finally {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
