// Demand control declared in the schema, with the directives of the IBM cost specification that
// Apollo Router, Hive and Grafbase read (@cost, @listSize; Apollo Federation 2.9 composes them into
// the supergraph). /graphql's admission estimates an operation's cost from them
// (facade/graphql/limits.ts), and router.yaml gives a router the same list size and maximum.
import type { Builder } from './builder.ts';

/** The federation version whose @link imports @cost and @listSize. */
const FEDERATION_LINK = 'https://specs.apollo.dev/federation/v2.9';

/** A page ({data, meta}) whose `data` holds at most `limit` items (the default page size when absent). */
export const PAGED_BY_LIMIT = { listSize: { slicingArguments: ['limit'], sizedFields: ['data'], requireOneSlicingArgument: false } } as const;

/** A list that holds at most `limit` items. */
export const LIST_BY_LIMIT = { listSize: { slicingArguments: ['limit'], requireOneSlicingArgument: false } } as const;

/** A metered call (esports data): its object, and the billed call and statement behind it. */
export const METERED_CALL = { cost: { weight: 11 } } as const;

/** The subgraph's executable schema, its SDL linking the federation directives it uses and @cost/@listSize. */
export function toSubgraphSchema(builder: Builder, federationDirectives: string[]) {
  return builder.toSubGraphSchema({ linkUrl: FEDERATION_LINK, federationDirectives: [...federationDirectives, '@cost', '@listSize'] });
}
