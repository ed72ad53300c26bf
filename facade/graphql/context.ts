import type { RequestScope, SubgraphContext } from '../../platform/domain/context.ts';

/** What the gateway carries through one request: the caller's scope and, in one process, the subgraph contexts. */
export interface GatewayContext {
  scope: RequestScope;
  subgraphContexts?: Record<string, SubgraphContext>;
  /** /graphql: the operation's estimated cost (@cost and @listSize) and the points it spent from the caller's quota. */
  cost?: { estimated: number; charged: number };
}
