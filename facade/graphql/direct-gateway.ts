// The gateway as Apollo Server sees it for /graphql: a document whose plan is one fetch to a subgraph
// of this process runs there, compiled, as route operations do (direct-execution.ts); any other goes
// to @apollo/gateway's executor. Apollo Server keeps everything else (parse and validation against the
// API schema, its plugins, error formatting, the HTTP answer), so both ways answer alike by
// construction. What was decided for a document (its target and compiled code, or "the gateway") is
// kept by query hash and operation name, least recently used first out, bounded in bytes.
import type { ApolloGateway } from '@apollo/gateway';
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { GraphQLError, getVariableValues, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import { ERRORS, errorCodeDef } from '@apollo/federation-internals';
import type { GatewayContext } from './context.ts';
import type { DirectExecution, DirectTarget } from './direct-execution.ts';
import { budgetedCache, parsedBytes } from './document-memory.ts';
import type { LRUCache } from 'lru-cache';

type GatewayInterface = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
type GatewayGraphQLRequestContext = Parameters<GatewayExecutor>[0];

/** Bytes of decisions kept: the compiled documents and the documents sent to the gateway. */
export const DIRECT_DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

/** What a decision for the gateway holds: its key and the entry. */
const GATEWAY_ENTRY_BYTES = 256;

/**
 * A compiled document: the document graphql-jit keeps, its generated functions and their closures
 * (test/document-memory.test.ts holds it above the measurements: 25–35 KiB for small documents,
 * about 0.8 of the document's own estimate for large ones).
 */
export const compiledBytes = (document: DocumentNode) => 8 * 1024 + 4 * parsedBytes(document);

/** A document whose compiled form the cache would not keep (over a quarter of it) goes to the gateway, planned and cached there, instead of being compiled again for every request. */
const MAX_COMPILED_BYTES = DIRECT_DOCUMENT_CACHE_BYTES / 4;

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
  // The document each target was compiled from, for its size.
  private readonly documents = new WeakMap<DirectTarget, DocumentNode>();

  constructor(
    private readonly gateway: ApolloGateway,
    private readonly direct: DirectExecution | null,
    private readonly count: (execution: 'direct' | 'gateway') => void = () => undefined,
  ) {
    const sizeOf = (decision: Decision, key: string) => (decision ? compiledBytes(this.documents.get(decision)!) : GATEWAY_ENTRY_BYTES + 2 * key.length);
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
        const result = await direct.run(target, document, operationName, request.variables, requestContext.context as GatewayContext);
        return result.errors ? { ...result, errors: result.errors.map((error) => asGatewayError(error, target.subgraph)) } : result;
      }) as GatewayExecutor,
    };
  }

  private decide({ queryHash, operationName, document }: GatewayGraphQLRequestContext, direct: DirectExecution): DirectTarget | null {
    const key = `${queryHash}\u0000${operationName ?? ''}`;
    const known = this.decisions!.get(key);
    if (known !== undefined) return known || null;
    const target = compiledBytes(document) > MAX_COMPILED_BYTES ? null : direct.targetOf(document, operationName);
    if (target) this.documents.set(target, document);
    this.decisions!.set(key, target ?? false);
    return target;
  }
}
