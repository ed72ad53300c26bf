// The client's generated files are what `npm run generate` (or `npm run client:types` alone) writes
// from the code as it is: the REST types from the route table's OpenAPI document (the one
// /api/openapi.json serves), the writes that take an Idempotency-Key or If-Match, and the gateway's
// GraphQL schema for gql.tada. A route, field or header changed without regenerating them fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles, GENERATED_FILES } from '../client/tools/generate-types.ts';

describe('the client\'s generated types', () => {
  it('match the route table and the schema (run npm run generate after changing either)', async () => {
    const files = await generatedFiles();
    for (const name of Object.keys(GENERATED_FILES) as (keyof typeof GENERATED_FILES)[]) {
      const committed = readFileSync(GENERATED_FILES[name], 'utf8');
      expect(committed === files[name], `client/src/generated/${name} differs from what npm run generate writes now: run it`).toBe(true);
    }
  }, 120_000);

  it('hold every route of the served document', async () => {
    const { buildOpenApiDocument } = await import('../facade/openapi/document.ts');
    const { routeTable } = await import('../facade/routes/index.ts');
    const document = buildOpenApiDocument(routeTable) as { paths: Record<string, unknown> };
    const types = readFileSync(GENERATED_FILES.openapi, 'utf8');
    for (const route of Object.keys(document.paths)) expect(types, route).toContain(`"${route}": {`);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
    for (const operationId of operations) expect(types, operationId).toContain(`${operationId}: {`);
  });
});
