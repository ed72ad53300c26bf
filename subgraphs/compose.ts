// Subgraph SDL from the Pothos builders, composed into the supergraph with @apollo/composition.
import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { fromRoot } from '../platform/process/paths.ts';
import { loadSubgraphSchemas, SUBGRAPH_NAMES, type SubgraphName } from './index.ts';

export const schemaDir = fromRoot('schema');
export const supergraphPath = path.join(schemaDir, 'supergraph.graphql');
export const subgraphPath = (name: SubgraphName) => path.join(schemaDir, `${name}.graphql`);

/** The URL a subgraph is reached at in the distributed topology (overridable per deployment). */
export const defaultSubgraphUrl = (name: SubgraphName) => `http://${name}.subgraphs.internal/graphql`;

export async function printSubgraphs(): Promise<Record<SubgraphName, string>> {
  const schemas = await loadSubgraphSchemas();
  return Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, printSubgraphSchema(schemas[name])])) as Record<SubgraphName, string>;
}

export function compose(sdl: Record<SubgraphName, string>): string {
  const result = composeServices(
    SUBGRAPH_NAMES.map((name) => ({ name, url: defaultSubgraphUrl(name), typeDefs: parse(sdl[name]) })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => `- ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}
