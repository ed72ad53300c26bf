// One source per shape: every route answers with a read view its capability declares (a views.ts
// export, or a copy of one with another OpenAPI name), from which the GraphQL type takes its fields
// too. The exceptions answer shapes GraphQL does not share.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../facade/routes/index.ts';
import { fromRoot } from '../platform/process/paths.ts';

/** Routes whose answer is not a GraphQL type's shape, and why. */
const NOT_VIEWS: Record<string, string> = {
  issueToken: 'RFC 6749 §5.1: snake_case fields of the OAuth token endpoint',
  introspectToken: 'RFC 7662: the introspection answer',
  revokeToken: 'RFC 7009: an empty object',
};

function viewModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : viewModules(full);
    return entry.name === 'views.ts' ? [full] : [];
  });
}

/** The schema and the ones it was copied from (`.meta()`, `.describe()` keep the original as parent). */
function lineage(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def as unknown as { type: string; element?: z.core.$ZodType };
  if (def.type === 'array') return lineage(def.element!);
  const chain: z.core.$ZodType[] = [];
  for (let current: z.core.$ZodType | undefined = schema; current; current = (current._zod as { parent?: z.core.$ZodType }).parent) chain.push(current);
  return chain;
}

describe('read views', () => {
  it("every route answers with a view of its capability's views.ts", async () => {
    const modules = viewModules(fromRoot('subgraphs'));
    expect(modules.length).toBeGreaterThanOrEqual(5);
    const views = new Set<unknown>();
    for (const file of modules) for (const value of Object.values(await import(pathToFileURL(file).href))) views.add(value);
    const outside = routeTable
      .filter((row) => !NOT_VIEWS[row.operationId])
      .filter((row) => !lineage(row.success.schema as z.core.$ZodType).some((schema) => views.has(schema)))
      .map((row) => `${row.operationId} (${(row.success.schema as z.ZodType).meta()?.id ?? 'unnamed'})`);
    expect(outside).toEqual([]);
  });

  it('the exceptions are routes that exist', () => {
    const ids = new Set(routeTable.map((row) => row.operationId));
    expect(Object.keys(NOT_VIEWS).filter((id) => !ids.has(id))).toEqual([]);
  });
});
