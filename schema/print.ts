// npm run schema: writes each subgraph's SDL and the composed supergraph into schema/.
import { readFile, writeFile } from 'node:fs/promises';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { compose, printSubgraphs, subgraphPath, supergraphPath } from '../subgraphs/compose.ts';
import { routeTable } from '../facade/routes/index.ts';
import { TRUSTED_DOCUMENTS_PATH, manifestOf, printManifest } from '../facade/graphql/trusted-documents.ts';
import { withSettingsTable } from '../platform/process/config.ts';
import { fromRoot } from '../platform/process/paths.ts';

const sdl = await printSubgraphs();
for (const name of SUBGRAPH_NAMES) await writeFile(subgraphPath(name), sdl[name]);
await writeFile(supergraphPath, compose(sdl));
// The platform's own operations, the manifest of trusted documents (docs/graphql.md).
await writeFile(TRUSTED_DOCUMENTS_PATH, printManifest(manifestOf(routeTable)));
// The table of environment variables, from their declarations.
const deployment = fromRoot('docs/deployment.md');
await writeFile(deployment, withSettingsTable(await readFile(deployment, 'utf8')));
console.log(`Wrote ${SUBGRAPH_NAMES.map((name) => `schema/${name}.graphql`).join(', ')}, schema/supergraph.graphql, schema/trusted-documents.json and the table of variables in docs/deployment.md`);
process.exit(0);
