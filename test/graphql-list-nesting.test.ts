// List values nested deep in a document are refused before parsing: past about 2,400 levels the
// parser overflows its stack (a 500), and the gateway's planner walks each level twice (30 levels
// held the event loop for minutes). Brackets inside strings, block strings and comments do not count.
import { describe, expect, it } from 'vitest';
import { checkDocumentSize, GRAPHQL_LIMITS } from '../facade/graphql/limits.ts';
import { ApiError } from '../platform/api/errors.ts';

const nested = (depth: number) => `mutation { importEsportsData(data: ${'['.repeat(depth)}${']'.repeat(depth)}) { importId } }`;

describe('list values nested in a document', () => {
  it(`are taken up to ${GRAPHQL_LIMITS.listNesting} deep and refused past it with a 400 naming the limit`, () => {
    expect(() => checkDocumentSize(nested(GRAPHQL_LIMITS.listNesting))).not.toThrow();
    const refused = (() => {
      try {
        checkDocumentSize(nested(GRAPHQL_LIMITS.listNesting + 1));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'validation_failed', details: [{ field: 'listNesting', issue: 'limit_exceeded' }] });
    expect(() => checkDocumentSize(nested(2_500))).toThrow(ApiError);
  });

  it('do not count brackets in strings, block strings or comments', () => {
    const deep = '['.repeat(100);
    expect(() => checkDocumentSize(`{ a(s: "${deep}\\"${deep}") }`)).not.toThrow();
    expect(() => checkDocumentSize(`{ a(s: """${deep} \\""" ${deep}""") }`)).not.toThrow();
    expect(() => checkDocumentSize(`# ${deep}\n{ a }`)).not.toThrow();
    expect(() => checkDocumentSize(`{ a(s: "x") b(l: ${'['.repeat(33)}1${']'.repeat(33)}) }`)).toThrow(ApiError);
  });
});

describe('through /graphql', () => {
  it('an anonymous document of lists 500 deep is a 400 at once, and the server keeps answering', async () => {
    const { startTestServer } = await import('./support/server.ts');
    const server = await startTestServer({ webhookWorker: false });
    try {
      const started = Date.now();
      const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: nested(500) }) });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain('listNesting');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
