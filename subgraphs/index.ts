// The subgraphs of the platform, by name. Each is importable alone so it can be served alone.
import type { GraphQLSchema } from 'graphql';

export const SUBGRAPH_NAMES = ['competitions', 'esports', 'developer'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

export async function loadSubgraphSchema(name: SubgraphName): Promise<GraphQLSchema> {
  switch (name) {
    case 'competitions':
      return (await import('./competitions/schema/index.ts')).schema;
    case 'esports':
      return (await import('./esports/schema/index.ts')).schema;
    case 'developer': {
      // Its settings are checked where it starts, in the facade's process or alone: one that cannot
      // be read stops the start rather than fail every token request.
      (await import('./developer/oauth/model.ts')).refreshTokenReuseSeconds();
      return (await import('./developer/schema/index.ts')).schema;
    }
  }
}

export async function loadSubgraphSchemas(): Promise<Record<SubgraphName, GraphQLSchema>> {
  const entries = await Promise.all(SUBGRAPH_NAMES.map(async (name) => [name, await loadSubgraphSchema(name)] as const));
  return Object.fromEntries(entries) as Record<SubgraphName, GraphQLSchema>;
}
