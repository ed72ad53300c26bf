// An operation whose query plan is a single fetch to one subgraph (no entity jumps, no @requires)
// that runs in this process is executed straight on that subgraph's schema: the same resolvers the
// gateway would reach, without the gateway's planning and result shaping, and compiled once by
// graphql-jit (the per-field work of graphql-js's interpreter, and its garbage, was the larger part of
// a list request's CPU). Route operations (operations.ts) and /graphql documents (direct-gateway.ts)
// both decide and run through here; anything else goes through the gateway's executor.
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { operationFromDocument } from '@apollo/federation-internals';
import { execute, validate, visit, BREAK, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { ApolloGateway } from '@apollo/gateway';
import type { Database } from '../../platform/db/database.ts';
import { createSubgraphContext } from '../../platform/domain/context.ts';
import { formatSubgraphError } from '../../platform/graphql/error-format.ts';
import type { GatewayContext } from './context.ts';
import { gatewayQueryPlanner, type ExecutorResult } from './gateway-internals.ts';

export interface LocalSubgraphs {
  db: Database;
  schemas: Record<string, GraphQLSchema>;
}

export interface DirectTarget {
  subgraph: string;
  schema: GraphQLSchema;
  /** Absent when graphql-jit cannot compile the operation; graphql-js then executes it. */
  compiled?: CompiledQuery;
}

/**
 * Introspection is answered by the gateway from the API schema: on a subgraph it would describe the
 * subgraph's schema (its _entities, _service, its @inaccessible fields).
 */
function introspects(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

export class DirectExecution {
  constructor(
    private readonly gateway: ApolloGateway,
    private readonly local: LocalSubgraphs,
    private readonly logger: Pick<Console, 'warn'>,
    private readonly logError: (error: unknown) => void,
  ) {}

  /**
   * The subgraph that alone answers the operation, with its compiled form, when its plan is one fetch
   * there and its text is valid on that subgraph as written (it is what will run there); else null.
   * The document must already be valid on the supergraph's API schema.
   */
  targetOf(document: DocumentNode, operationName: string | null | undefined, { compile = true }: { compile?: boolean } = {}): DirectTarget | null {
    if (introspects(document)) return null;
    const planner = gatewayQueryPlanner(this.gateway);
    const plan = planner.buildQueryPlan(operationFromDocument(planner.supergraph.schema, document, { operationName: operationName ?? undefined }));
    const node = plan.node;
    if (!node || node.kind !== 'Fetch' || node.requires) return null;
    const schema = this.local.schemas[node.serviceName];
    if (!schema || validate(schema, document).length) return null;
    if (!compile) return { subgraph: node.serviceName, schema };
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    if (isCompiledQuery(compiled)) return { subgraph: node.serviceName, schema, compiled };
    this.logger.warn(`Operation ${operationName ?? '(anonymous)'} runs interpreted: ${compiled.errors?.map((e) => e.message).join('; ')}`);
    return { subgraph: node.serviceName, schema };
  }

  async run(
    { subgraph, schema, compiled }: DirectTarget,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
    context: GatewayContext,
  ): Promise<ExecutorResult> {
    const contexts = (context.subgraphContexts ??= {});
    const contextValue = (contexts[subgraph] ??= createSubgraphContext(this.local.db, context.scope));
    const result = compiled
      ? await compiled.query(undefined, contextValue, variables)
      : await execute({ schema, document, variableValues: variables, operationName, contextValue });
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map((error: GraphQLError) => formatSubgraphError(error, this.logError)),
    };
  }
}
