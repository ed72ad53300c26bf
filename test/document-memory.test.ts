// The caches of the process are bounded in bytes by estimates of what their entries hold: each
// estimate must be an upper bound of the heap an entry retains, measured here on documents and query
// plans of every kind (the worst found per token, per character of text and per plan).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApolloGateway } from '@apollo/gateway';
import { operationFromDocument } from '@apollo/federation-internals';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsedBytes, InFlightBytes, byteBoundedCache } from '../facade/graphql/document-memory.ts';
import { planBytes } from '../facade/graphql/gateway.ts';
import { gatewayQueryPlanner } from '../facade/graphql/gateway-internals.ts';
import { supergraphPath } from '../subgraphs/compose.ts';
import { loadSubgraphSchemas } from '../subgraphs/index.ts';
import { DirectExecution } from '../facade/graphql/direct-execution.ts';
import { directBytes } from '../facade/graphql/direct-gateway.ts';
import type { Database } from '../platform/db/database.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Heap bytes retained per item made by `make`: the median of three measurements of 20 items kept
 * after full collections. One measurement can catch a one-off allocation of the process (compiled
 * code, a planner's lazily built state) and read it as the items' (28 KiB per plan once, 16–17 KiB
 * otherwise, on a loaded CI machine).
 */
function retainedBytes(make: (i: number) => unknown, count = 20): number {
  const trials = [measure(make, count), measure(make, count), measure(make, count)].sort((a, b) => a - b);
  return trials[1];
}

function measure(make: (i: number) => unknown, count: number): number {
  const kept: unknown[] = [];
  // Anything made once per process (compiled code, a planner's lazily built structures) is not the item's.
  for (let i = 1; i <= 5; i++) make(-i);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) kept.push(make(i));
  gc();
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / count;
  kept.length = 0;
  return bytes;
}

const rep = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(' ');
const unique = (i: number) => `${i < 0 ? 'w' : i}_${Math.random().toString(36).slice(2, 8)}`;

// Texts of at most 5,000 tokens and 32 KiB that hold the most per token or per character.
const TEXTS: Record<string, (i: number) => string> = {
  names: (i) => `{ u${unique(i)} ${'a '.repeat(4990)}}`,
  directives: (i) => `query Q${unique(i)} { ${rep(300, () => '__typename @include(if: true) @skip(if: false)')} }`,
  arguments: (i) => `{ f${unique(i)}(${rep(1600, (k) => `a${k}: 1`)}) }`,
  lists: (i) => `{ f${unique(i)}(a: [${'1 '.repeat(4990)}]) }`,
  objects: (i) => `{ f${unique(i)}(a: { ${rep(1600, (k) => `k${k}: 1`)} }) }`,
  variables: (i) => `query Q${unique(i)}(${rep(1200, (k) => `$v${k}: Int`)}) { __typename }`,
  escapes: (i) => `{ f${unique(i)}(a: "${'\\n'.repeat(16000)}") }`,
  unicodeEscapes: (i) => `{ f${unique(i)}(a: "${'\\u00e9'.repeat(5400)}") }`,
  blockString: (i) => `{ f${unique(i)}(a: """${'x\n'.repeat(16000)}""") }`,
  longNames: (i) => `{ ${rep(280, (k) => `${'n'.repeat(100)}${k}_${unique(i)}`)} }`,
  fragments: (i) => `{ ...F0 } ${rep(600, (k) => `fragment F${k} on Q${unique(i)} { a }`)}`,
  small: (i) => `{ event(id: "evt_${unique(i)}") { id name } }`,
};

describe('estimates of what caches hold', () => {
  it('a parsed document holds less than its estimate, whatever its text', () => {
    for (const [name, make] of Object.entries(TEXTS)) {
      let text = '';
      let estimate = 0;
      const measured = retainedBytes((i) => {
        text = make(i);
        const document = parse(text, { maxTokens: 5000 });
        estimate = parsedBytes(document, text);
        // The text is the document's source: what the cache keeps is both, the text counted in the estimate.
        return [document, text];
      });
      expect(text.length, name).toBeLessThanOrEqual(32 * 1024);
      expect(measured, `${name}: ${(measured / 1024).toFixed(0)} KiB measured, ${(estimate / 1024).toFixed(0)} KiB estimated`).toBeLessThan(estimate);
    }
  });

  describe('query plans', () => {
    let gateway: ApolloGateway;
    beforeAll(async () => {
      process.env.APOLLO_TELEMETRY_DISABLED = 'true';
      gateway = new ApolloGateway({ supergraphSdl: readFileSync(supergraphPath, 'utf8') });
      await gateway.load();
    });
    afterAll(() => gateway?.stop());

    it('a query plan holds less than its estimate', () => {
      const planner = gatewayQueryPlanner(gateway);
      const plans: Record<string, (i: number) => string> = {
        one: (i) => `query Q${unique(i)} { event(id: "e") { id name state revision } }`,
        crossing: (i) =>
          `query Q${unique(i)} { authContext { installation { id user { displayName platforms } } application { name owner { organisation { name } } usage(metric: esports_calls, from: "2026-01-01", to: "2026-01-31") { total days { day installationId units } } } } }`,
        wide: (i) => `query Q${unique(i)} { event(id: "e") { ${rep(25, (k) => `a${k}: stages { id name format bestOf }`)} } }`,
        repeated: (i) => `query Q${unique(i)} { event(id: "e") { ${rep(300, () => 'id name state')} organisation { ${rep(300, () => 'id name')} } } }`,
        fragments: (i) => `query Q${unique(i)} { event(id: "e") { ...A ...B } } fragment A on Event { id name stages { id } } fragment B on Event { id organisation { name } }`,
      };
      for (const [name, make] of Object.entries(plans)) {
        let estimate = 0;
        const measured = retainedBytes((i) => {
          const plan = planner.buildQueryPlan(operationFromDocument(planner.supergraph.schema, parse(make(i)), {}));
          estimate = planBytes(plan);
          return plan;
        });
        expect(measured, `${name}: ${(measured / 1024).toFixed(1)} KiB measured, ${(estimate / 1024).toFixed(1)} KiB estimated`).toBeLessThan(estimate);
      }
    });

    it('a /graphql document compiled for its subgraph holds less than its estimate', async () => {
      // Deciding reads no data: the database is never reached.
      const execution = new DirectExecution(gateway, { db: {} as Database, schemas: await loadSubgraphSchemas() }, console, () => undefined);
      const documents: Record<string, (i: number) => string> = {
        small: (i) => `query Q${unique(i)} { event(id: "e") { id name state revision } }`,
        list: (i) => `query Q${unique(i)}($o: ID!) { organisationEvents(organisationId: $o) { etag notModified data { id organisationId name slug type visibility state platform currency region bannerUrl description firstStageId completedAt revision } meta { nextCursor hasMore } } }`,
        aliases: (i) => `query Q${unique(i)} { ${rep(10, (k) => `a${k}: event(id: "e${k}") { id name stages { id name format bestOf } }`)} }`,
        repeated: (i) => `query Q${unique(i)} { event(id: "e") { ${rep(60, () => 'id name state')} stages { ${rep(60, () => 'id name')} } } }`,
        fragments: (i) => `query Q${unique(i)} { event(id: "e") { ...A ...B } } fragment A on Event { id name stages { id } } fragment B on Event { id state stages { name format } }`,
      };
      // Larger documents go to the gateway (direct-gateway.ts): measured here, the estimate still holds them.
      documents.largest = (i) => `query Q${unique(i)} { ${rep(60, (k) => `a${k}: event(id: "e${k}") { id name stages { id name format bestOf } }`)} }`;
      for (const [name, make] of Object.entries(documents)) {
        let estimate = 0;
        const measured = retainedBytes((i) => {
          const document = parse(make(i));
          const target = execution.targetOf(document, undefined);
          if (!target?.compiled) throw new Error(`${name} does not run directly, compiled`);
          estimate = directBytes(document, true);
          return [target, document];
        });
        expect(measured, `${name}: ${(measured / 1024).toFixed(1)} KiB measured, ${(estimate / 1024).toFixed(1)} KiB estimated`).toBeLessThan(estimate);
      }
    });
  });
});

describe('byte budgets', () => {
  it('a cache keeps what fits its bytes, least recently used first out, and no entry over a quarter of it', () => {
    const cache = byteBoundedCache<string, { bytes: number }>(2000, (value) => value.bytes);
    cache.set('a', { bytes: 400 });
    cache.set('b', { bytes: 200 });
    cache.get('a');
    for (const key of ['c', 'd', 'e']) cache.set(key, { bytes: 500 });
    expect(cache.calculatedSize).toBeLessThanOrEqual(2000);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
    cache.set('huge', { bytes: 501 });
    expect(cache.has('huge')).toBe(false);
  });

  it('in-flight bytes: per client and in all, given back once, grown only within both budgets', () => {
    const budget = new InFlightBytes(100, 60);
    const a = budget.reserve('x', 50);
    expect(typeof a).toBe('object');
    expect(budget.reserve('x', 20)).toBe('client');
    const b = budget.reserve('y', 50);
    expect(budget.reserve('z', 10)).toBe('total');
    if (typeof a === 'string' || typeof b === 'string') throw new Error('reserved');
    expect(a.resize(60)).toBe(false); // everyone's budget
    a.release();
    a.release();
    expect(budget.bytes).toBe(50);
    expect(b.resize(60)).toBe(true);
    expect(b.resize(10)).toBe(true);
    expect(budget.bytes).toBe(10);
    b.release();
    expect(budget.bytes).toBe(0);
  });
});
