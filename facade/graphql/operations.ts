// Named GraphQL operations of the route table, parsed and checked against the supergraph once at
// start-up. An operation that is one fetch to one subgraph of this process runs on that subgraph,
// compiled (direct-execution.ts); any other operation, and every operation in the distributed
// topology, runs through the gateway's executor.
import { createHash } from 'node:crypto';
import type { ApolloGateway } from '@apollo/gateway';
import { getOperationAST, parse, validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { unreachableAsUnavailable } from '../../platform/db/unavailable.ts';
import type { GatewayContext } from './context.ts';
import { gatewayExecutor, type ExecutorResult } from './gateway-internals.ts';
import { DirectExecution, type DirectTarget, type LocalSubgraphs } from './direct-execution.ts';

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

export type { LocalSubgraphs };

export interface RunnerOptions {
  /** The subgraphs of this process; without them every operation goes through the gateway. */
  local?: LocalSubgraphs;
  /** 'gateway' sends every operation through the gateway (for tests that compare both ways). */
  execution?: 'auto' | 'gateway';
  logError: (error: unknown) => void;
  /** Logs (throttled, reportUnavailable) the error of a subgraph the gateway could not reach. */
  logUnreachable: (error: unknown, suppressed: number, requestId: string) => void;
}

export class OperationRunner {
  // Weak: the realtime gateway prepares operations of its own (its resource queries) and drops them
  // from its cache; their targets (and compiled code) go with them.
  private readonly direct = new WeakMap<PreparedOperation, DirectTarget>();
  /** Runs single-subgraph operations on their subgraph; null when every operation goes through the gateway. */
  readonly directExecution: DirectExecution | null;

  constructor(
    private readonly gateway: ApolloGateway,
    private readonly logger: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>,
    private readonly options: RunnerOptions,
  ) {
    this.directExecution = options.local && options.execution !== 'gateway' ? new DirectExecution(gateway, options.local, logger, options.logError) : null;
  }

  /** Fails at start-up when an operation does not fit the supergraph; decides how it will run. */
  check(operation: PreparedOperation): void {
    const schema = this.gateway.schema;
    if (!schema) throw new Error('The gateway has not loaded its schema yet.');
    const errors = validate(schema, operation.document);
    if (errors.length) throw new Error(`Operation ${operation.name} does not fit the supergraph: ${errors.map((e) => e.message).join('; ')}`);
    const target = this.directExecution?.targetOf(operation.document, operation.name);
    if (target) this.direct.set(operation, target);
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
    if (direct) return this.directExecution!.run(direct, operation.document, operation.name, variables, context);
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
}
