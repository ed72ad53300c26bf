// Executes the planner's subgraph operations directly against the subgraph schema. The planner's
// operations are valid by construction, so each is parsed once and never re-validated (DESIGN.md:
// 255 µs with LocalGraphQLDataSource against 40 µs with this).
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { execute, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Database } from '../../subgraphs/shared/db/database.ts';
import { createSubgraphContext } from '../../subgraphs/shared/context.ts';
import { formatSubgraphError } from '../../subgraphs/shared/error-format.ts';
import type { GatewayContext } from './context.ts';

const MAX_CACHED_DOCUMENTS = 2_000;

export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents = new Map<string, DocumentNode>();

  constructor(
    private readonly name: string,
    private readonly schema: GraphQLSchema,
    private readonly db: Database,
    private readonly logError: (error: unknown) => void,
  ) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const query = request.query!;
    let document = this.documents.get(query);
    if (!document) {
      document = parse(query);
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.clear();
      this.documents.set(query, document);
    }
    const contexts = (context.subgraphContexts ??= {});
    const contextValue = (contexts[this.name] ??= createSubgraphContext(this.db, context.scope));
    const result = await execute({
      schema: this.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue,
    });
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map((error) => formatSubgraphError(error, this.logError)),
    };
  }
}
