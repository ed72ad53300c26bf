// The gateway as Apollo Server sees it for /graphql: a document whose plan is one fetch to a subgraph
// of this process runs there (direct-execution.ts); any other goes to @apollo/gateway's executor.
// Apollo Server keeps everything else (parse and validation against the API schema, its plugins,
// error formatting, the HTTP answer). A direct document is compiled by graphql-jit, as route
// operations are, unless it uses what jit answers otherwise than graphql-js (the executor the
// subgraph runs under the gateway): @skip/@include (jit orders the fields otherwise) and the name
// __proto__; a request that leaves a defaulted variable out runs with graphql-js (jit ignores a
// non-null variable's default); and jit's errors are reduced to what graphql-js reports (one error
// per field an error nulled). The execution-paths test holds both ways to the same bytes. What was
// decided for a document (its target, or "the gateway") is kept by query hash and operation name,
// least recently used first out, bounded in bytes.
import type { ApolloGateway } from '@apollo/gateway';
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { BREAK, GraphQLError, getVariableValues, visit, type DocumentNode, type GraphQLFormattedError, type OperationDefinitionNode } from 'graphql';
import { ERRORS, errorCodeDef } from '@apollo/federation-internals';
import type { GatewayContext } from './context.ts';
import type { DirectExecution, DirectTarget } from './direct-execution.ts';
import { budgetedCache, parsedBytes } from './document-memory.ts';
import type { LRUCache } from 'lru-cache';

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
type GatewayGraphQLRequestContext = Parameters<GatewayExecutor>[0];

/** Bytes of decisions kept: the documents that run directly and those sent to the gateway. */
export const DIRECT_DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

/** What a decision for the gateway holds: its key and the entry. */
const GATEWAY_ENTRY_BYTES = 256;

/**
 * What a decision to run a document directly holds: the document it keeps alive (also in Apollo
 * Server's store, which may drop it first), and jit's generated code and closures when compiled
 * (test/document-memory.test.ts holds both above the measurements).
 */
export const directBytes = (document: DocumentNode, compiled: boolean) => (compiled ? 8 * 1024 + 4 * parsedBytes(document) : 1024 + parsedBytes(document));

/** A document whose decision the cache would not keep (over a quarter of it) goes to the gateway, planned and cached there, instead of being planned and compiled again for every request. */
const MAX_DIRECT_BYTES = DIRECT_DOCUMENT_CACHE_BYTES / 4;

/** Whether graphql-jit answers the document as graphql-js does (the header says what it does not). */
function jitAnswersAlike(document: DocumentNode): boolean {
  let alike = true;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'skip' || node.name.value === 'include') alike = false;
      return alike ? undefined : BREAK;
    },
    Name(node) {
      if (node.value === '__proto__') alike = false;
      return alike ? undefined : BREAK;
    },
  });
  return alike;
}

/** Whether the request leaves out a variable that has a default. */
const omitsDefault = (operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined) =>
  operation.variableDefinitions?.some((definition) => definition.defaultValue && !(variables && Object.hasOwn(variables, definition.variable.name.value))) ?? false;

/**
 * graphql-js reports one error for each field an error nulled: errors of non-null fields bubble to
 * the nearest nullable field, and of the errors that reach the same one (the items of one list) the
 * first is reported. graphql-jit reports them all; this keeps the first of each.
 */
export function firstErrorPerNulledField(data: unknown, errors: readonly GraphQLFormattedError[]): GraphQLFormattedError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const path = error.path ?? [];
    // The nulled field: the shortest prefix of the error's path where the data holds null.
    let value: unknown = data;
    let depth = 0;
    while (value !== null && value !== undefined && depth < path.length) value = (value as Record<string | number, unknown>)[path[depth++]];
    const key = JSON.stringify(path.slice(0, depth));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Decision = DirectTarget | false;

/** A subgraph's error as the gateway hands it to Apollo Server (its downstreamServiceError): with the service's name, without locations. */
function asGatewayError(error: GraphQLFormattedError, serviceName: string): GraphQLError {
  const options = { path: error.path, extensions: { ...error.extensions, serviceName } };
  const code = errorCodeDef(error);
  if (!code && error.extensions?.code) return new GraphQLError(error.message, options);
  return (code ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(error.message, options);
}

export class DirectGateway implements GatewayInterface {
  private readonly decisions: LRUCache<string, Decision> | null;
  // The document each target was decided for, for its size.
  private readonly documents = new WeakMap<DirectTarget, DocumentNode>();

  constructor(
    private readonly gateway: ApolloGateway,
    private readonly direct: DirectExecution | null,
    private readonly count: (execution: 'direct' | 'gateway') => void = () => undefined,
  ) {
    const sizeOf = (decision: Decision, key: string) => (decision ? directBytes(this.documents.get(decision)!, Boolean(decision.compiled)) : GATEWAY_ENTRY_BYTES + 2 * key.length);
    this.decisions = direct ? budgetedCache('graphql_direct_documents', DIRECT_DOCUMENT_CACHE_BYTES, sizeOf) : null;
  }

  onSchemaLoadOrUpdate(callback: Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0]) {
    return this.gateway.onSchemaLoadOrUpdate(callback);
  }

  stop() {
    return this.gateway.stop();
  }

  async load(options: Parameters<GatewayInterface['load']>[0]) {
    const { executor } = await this.gateway.load(options);
    const direct = this.direct;
    const viaGateway = (requestContext: GatewayGraphQLRequestContext) => {
      this.count('gateway');
      return executor(requestContext);
    };
    if (!direct) return { executor: viaGateway as GatewayExecutor };
    return {
      executor: (async (requestContext: GatewayGraphQLRequestContext) => {
        const target = this.decide(requestContext, direct);
        if (!target) return viaGateway(requestContext);
        const { document, operationName, operation, request } = requestContext;
        // Variables the operation cannot take are answered by the gateway, in its words.
        if (operation.variableDefinitions?.length && getVariableValues(requestContext.schema, operation.variableDefinitions, request.variables ?? {}).errors) {
          return viaGateway(requestContext);
        }
        this.count('direct');
        const runs = target.compiled && omitsDefault(operation, request.variables) ? { ...target, compiled: undefined } : target;
        const result = await direct.run(runs, document, operationName, request.variables, requestContext.context as GatewayContext);
        if (!result.errors) return result;
        const errors = runs.compiled ? firstErrorPerNulledField(result.data, result.errors) : result.errors;
        return { ...result, errors: errors.map((error) => asGatewayError(error, target.subgraph)) };
      }) as GatewayExecutor,
    };
  }

  private decide({ queryHash, operationName, document }: GatewayGraphQLRequestContext, direct: DirectExecution): DirectTarget | null {
    const key = `${queryHash}\u0000${operationName ?? ''}`;
    const known = this.decisions!.get(key);
    if (known !== undefined) return known || null;
    const compile = jitAnswersAlike(document);
    const target = directBytes(document, compile) > MAX_DIRECT_BYTES ? null : direct.targetOf(document, operationName, { compile });
    if (target) this.documents.set(target, document);
    this.decisions!.set(key, target ?? false);
    return target;
  }
}
