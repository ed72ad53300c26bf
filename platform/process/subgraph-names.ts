// The subgraphs of the platform, by name: what configuration (SUBGRAPH_URLS) may name and what the
// subgraphs' entry (subgraphs/index.ts) loads.
export const SUBGRAPH_NAMES = ['competitions', 'esports', 'developer'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];
