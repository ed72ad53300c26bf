// Named GraphQL operations of the route table, parsed and checked against the supergraph once at
// start-up. An operation whose query plan is a single fetch to one subgraph (no entity jumps, no
// @requires) that runs in this process is executed straight on that subgraph's schema: the same
// resolvers the gateway would reach, without the gateway's planning and result shaping, and compiled
// once by graphql-jit: the per-field work of graphql-js's interpreter (and its garbage) was the larger
// part of a list request's CPU. Any other operation, and every operation in the distributed topology,
// runs through the gateway's executor.
import { createHash } from 'node:crypto';
import type { ApolloGateway } from '@apollo/gateway';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { operationFromDocument } from '@apollo/federation-internals';
import { execute, getOperationAST, parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Database } from '../../subgraphs/shared/db/database.ts';
import { createSubgraphContext } from '../../subgraphs/shared/context.ts';
import { formatSubgraphError } from '../../subgraphs/shared/error-format.ts';
import { unreachableAsUnavailable } from '../../subgraphs/shared/db/unavailable.ts';
import type { GatewayContext } from './context.ts';
import { gatewayExecutor, gatewayQueryPlanner, type ExecutorResult } from './gateway-internals.ts';

export interface PreparedOperation {
  name: string;
  source: string;
  document: DocumentNode;
  definition: OperationDefinitionNode;
  queryHash: string;
}

export function prepareOperation(source: string): PreparedOperation {
  const document = parse(source);
  const definition = getOperationAST(document);
  if (!definition?.name) throw new Error(`A route operation must be one named operation:\n${source}`);
  return {
    name: definition.name.value,
    source,
    document,
    definition,
    queryHash: createHash('sha256').update(source).digest('hex'),
  };
}

export type OperationResult = ExecutorResult;

export interface LocalSubgraphs {
  db: Database;
  schemas: Record<string, GraphQLSchema>;
}

export interface RunnerOptions {
  /** The subgraphs of this process; without them every operation goes through the gateway. */
  local?: LocalSubgraphs;
  /** 'gateway' sends every operation through the gateway (for tests that compare both ways). */
  execution?: 'auto' | 'gateway';
  logError: (error: unknown) => void;
  /** Logs (throttled, reportUnavailable) the error of a subgraph the gateway could not reach. */
  logUnreachable: (error: unknown, suppressed: number, requestId: string) => void;
}

interface DirectTarget {
  subgraph: string;
  schema: GraphQLSchema;
  /** Absent when graphql-jit cannot compile the operation; graphql-js then executes it. */
  compiled?: CompiledQuery;
}

export class OperationRunner {
  // Weak: the realtime gateway prepares operations of its own (its resource queries) and drops them
  // from its cache; their targets (and compiled code) go with them.
  private readonly direct = new WeakMap<PreparedOperation, DirectTarget>();

  constructor(
    private readonly gateway: ApolloGateway,
    private readonly logger: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>,
    private readonly options: RunnerOptions,
  ) {}

  /** Fails at start-up when an operation does not fit the supergraph; decides how it will run. */
  check(operation: PreparedOperation): void {
    const schema = this.gateway.schema;
    if (!schema) throw new Error('The gateway has not loaded its schema yet.');
    const errors = validate(schema, operation.document);
    if (errors.length) throw new Error(`Operation ${operation.name} does not fit the supergraph: ${errors.map((e) => e.message).join('; ')}`);
    const target = this.singleFetchTarget(operation);
    if (!target) return;
    const compiled = compileQuery(target.schema, operation.document, operation.name);
    if (isCompiledQuery(compiled)) {
      this.direct.set(operation, { ...target, compiled });
    } else {
      this.logger.warn(`Operation ${operation.name} runs interpreted: ${compiled.errors?.map((e) => e.message).join('; ')}`);
      this.direct.set(operation, target);
    }
  }

  /** The subgraph that alone answers the operation, when its plan is one fetch there. */
  private singleFetchTarget(operation: PreparedOperation): { subgraph: string; schema: GraphQLSchema } | null {
    const local = this.options.local;
    if (!local || this.options.execution === 'gateway') return null;
    const planner = gatewayQueryPlanner(this.gateway);
    const plan = planner.buildQueryPlan(operationFromDocument(planner.supergraph.schema, operation.document, { operationName: operation.name }));
    const node = plan.node;
    if (!node || node.kind !== 'Fetch' || node.requires) return null;
    const schema = local.schemas[node.serviceName];
    // The route's own text must be valid on the subgraph as written (it is what will run there).
    if (!schema || validate(schema, operation.document).length) return null;
    return { subgraph: node.serviceName, schema };
  }

  /** Which subgraph runs the operation directly, or null when it goes through the gateway. */
  directTarget(operation: PreparedOperation): string | null {
    return this.direct.get(operation)?.subgraph ?? null;
  }

  /** Whether a direct operation runs as compiled by graphql-jit. */
  isCompiled(operation: PreparedOperation): boolean {
    return Boolean(this.direct.get(operation)?.compiled);
  }

  async run(operation: PreparedOperation, variables: Record<string, unknown>, context: GatewayContext): Promise<OperationResult> {
    const direct = this.direct.get(operation);
    if (direct) return this.runOnSubgraph(direct, operation, variables, context);
    const requestContext = {
      request: { query: operation.source, variables, operationName: operation.name },
      document: operation.document,
      operation: operation.definition,
      operationName: operation.name,
      queryHash: operation.queryHash,
      source: operation.source,
      schema: this.gateway.schema,
      context,
      contextValue: context,
      metrics: {},
      logger: this.logger,
      cache: undefined,
      overallCachePolicy: undefined,
    };
    // The request context Apollo Server would have built, minus parsing and validation done above.
    const result = await gatewayExecutor(this.gateway)(requestContext);
    if (!result.errors) return result;
    // A subgraph that could not be reached is subgraph_unavailable (503), without its address.
    const log = (error: unknown, suppressed: number) => this.options.logUnreachable(error, suppressed, context.scope.requestId);
    return { ...result, errors: result.errors.map((error) => unreachableAsUnavailable(error, error, log)) };
  }

  private async runOnSubgraph(
    { subgraph, schema, compiled }: DirectTarget,
    operation: PreparedOperation,
    variables: Record<string, unknown>,
    context: GatewayContext,
  ): Promise<OperationResult> {
    const contexts = (context.subgraphContexts ??= {});
    const contextValue = (contexts[subgraph] ??= createSubgraphContext(this.options.local!.db, context.scope));
    const result = compiled
      ? await compiled.query(undefined, contextValue, variables)
      : await execute({ schema, document: operation.document, variableValues: variables, operationName: operation.name, contextValue });
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map((error: GraphQLError) => formatSubgraphError(error, this.options.logError)),
    };
  }
}
