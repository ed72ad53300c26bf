// GraphQL documents typed by gql.tada from the gateway's schema (generated/graphql-env.d.ts): the
// result and variables of `graphql(\`…\`)` are inferred by TypeScript itself, with no step per document.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './generated/graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown };
}>();

export type { FragmentOf, ResultOf, VariablesOf, TadaDocumentNode } from 'gql.tada';
export { readFragment } from 'gql.tada';
