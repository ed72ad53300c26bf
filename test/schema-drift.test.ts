// The committed migrations, subgraph SDL and supergraph must match the code that produces them.
// Every generated file is written again by `npm run generate` (the client's types: client-types.test.ts).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { diffSchemaAgainstMigrations } from '../platform/db/migrations.ts';
import { compose, printSubgraphs, subgraphPath, supergraphPath } from '../subgraphs/compose.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { routeTable } from '../facade/routes/index.ts';
import { TRUSTED_DOCUMENTS_PATH, manifestOf, printManifest } from '../facade/graphql/trusted-documents.ts';
import { withSettingsTable } from '../platform/process/config.ts';
import { fromRoot } from '../platform/process/paths.ts';

describe('drift', () => {
  it('prisma/schema.prisma and prisma/migrations agree (npm run db:diff -- <name> writes what is missing)', async () => {
    expect(await diffSchemaAgainstMigrations()).toBe('');
  });

  it('schema/*.graphql are what the Pothos builders print (npm run generate)', async () => {
    const printed = await printSubgraphs();
    for (const name of SUBGRAPH_NAMES) expect(await readFile(subgraphPath(name), 'utf8'), name).toBe(printed[name]);
  });

  it('the subgraphs compose, into the committed supergraph (npm run generate)', async () => {
    const printed = await printSubgraphs();
    expect(await readFile(supergraphPath, 'utf8')).toBe(compose(printed));
  });

  it('schema/trusted-documents.json is the manifest of the route table\'s operations (npm run generate)', async () => {
    expect(await readFile(TRUSTED_DOCUMENTS_PATH, 'utf8')).toBe(printManifest(manifestOf(routeTable)));
  });

  it("docs/deployment.md's table of variables is what platform/process/config.ts declares (npm run generate)", async () => {
    const deployment = await readFile(fromRoot('docs/deployment.md'), 'utf8');
    expect(deployment).toBe(withSettingsTable(deployment));
  });

  it('composition reports errors instead of writing a broken supergraph', async () => {
    const printed = await printSubgraphs();
    const broken = { ...printed, esports: printed.esports.replace('type UsageDay', 'type UsageDay @key(fields: "nope")') };
    expect(() => compose(broken)).toThrow(/composition failed/i);
  });
});
