// The two parts of @apollo/gateway this project uses that the package does not export: its executor
// (so route operations, parsed and validated once, skip Apollo Server's per-request work) and its
// query planner (to learn at start-up which route operations are one fetch to one subgraph). Kept
// in this one adapter; test/gateway-internals.test.ts fails if an upgrade moves either.
import type { ApolloGateway } from '@apollo/gateway';
import type { QueryPlanner } from '@apollo/query-planner';
import type { GraphQLFormattedError } from 'graphql';

export interface ExecutorResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

interface Internals {
  executor?: (requestContext: unknown) => Promise<ExecutorResult>;
  queryPlanner?: QueryPlanner;
}

const internals = (gateway: ApolloGateway) => gateway as unknown as Internals;

/** The function Apollo Server calls to execute an operation through the gateway. */
export function gatewayExecutor(gateway: ApolloGateway): (requestContext: unknown) => Promise<ExecutorResult> {
  const executor = internals(gateway).executor;
  if (typeof executor !== 'function') throw new Error('@apollo/gateway no longer exposes its executor: see facade/graphql/gateway-internals.ts');
  return executor;
}

/** The gateway's query planner (built when the supergraph loaded). */
export function gatewayQueryPlanner(gateway: ApolloGateway): QueryPlanner {
  const planner = internals(gateway).queryPlanner;
  if (!planner || typeof planner.buildQueryPlan !== 'function') {
    throw new Error('@apollo/gateway no longer exposes its query planner: see facade/graphql/gateway-internals.ts');
  }
  return planner;
}
