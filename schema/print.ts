// npm run schema: writes each subgraph's SDL and the composed supergraph into schema/.
import { writeFile } from 'node:fs/promises';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { compose, printSubgraphs, subgraphPath, supergraphPath } from './compose.ts';

const sdl = await printSubgraphs();
for (const name of SUBGRAPH_NAMES) await writeFile(subgraphPath(name), sdl[name]);
await writeFile(supergraphPath, compose(sdl));
console.log(`Wrote ${SUBGRAPH_NAMES.map((name) => `schema/${name}.graphql`).join(', ')} and schema/supergraph.graphql`);
process.exit(0);
