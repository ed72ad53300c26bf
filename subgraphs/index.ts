// The subgraphs of the platform, by name. Each is importable alone so it can be served alone.
import type { GraphQLSchema } from 'graphql';
import { SUBGRAPH_NAMES, type SubgraphName } from '../platform/process/subgraph-names.ts';

export { SUBGRAPH_NAMES, type SubgraphName };

export async function loadSubgraphSchema(name: SubgraphName): Promise<GraphQLSchema> {
  switch (name) {
    case 'competitions':
      return (await import('./competitions/schema/index.ts')).schema;
    case 'esports':
      return (await import('./esports/schema/index.ts')).schema;
    case 'developer':
      return (await import('./developer/schema/index.ts')).schema;
  }
}

export async function loadSubgraphSchemas(): Promise<Record<SubgraphName, GraphQLSchema>> {
  const entries = await Promise.all(SUBGRAPH_NAMES.map(async (name) => [name, await loadSubgraphSchema(name)] as const));
  return Object.fromEntries(entries) as Record<SubgraphName, GraphQLSchema>;
}
