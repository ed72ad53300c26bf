// The gateway as Apollo Server sees it for /graphql: a document whose plan is one fetch to a subgraph
// of this process runs there (direct-execution.ts); any other goes to @apollo/gateway's executor.
// Clients' documents run with graphql-js, the executor the subgraph runs under the gateway, not
// compiled by graphql-jit as route operations are: jit answers some documents otherwise (a non-null
// variable's default, @skip/@include's field order, a `__proto__` alias, how many errors a list
// reports), which the platform's own operations never write. Apollo Server keeps everything else (parse and validation against the
// API schema, its plugins, error formatting, the HTTP answer), so both ways answer alike by
// construction. What was decided for a document (its target, or "the gateway") is kept by query hash
// and operation name, least recently used first out, bounded in bytes.
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

/** Bytes of decisions kept: the documents that run directly and those sent to the gateway. */
export const DIRECT_DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

/** What a decision for the gateway holds: its key and the entry. */
const GATEWAY_ENTRY_BYTES = 256;

/**
 * What a decision to run a document directly holds: the document it keeps alive (also in Apollo
 * Server's store, which may drop it first) and the target. Compiled by graphql-jit it would hold up
 * to 8 KiB + four times the document's estimate (test/document-memory.test.ts).
 */
export const directBytes = (document: DocumentNode) => 1024 + parsedBytes(document);

/** A document whose decision the cache would not keep (over a quarter of it) goes to the gateway, planned and cached there, instead of being planned again for every request. */
const MAX_DIRECT_BYTES = DIRECT_DOCUMENT_CACHE_BYTES / 4;

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
    const sizeOf = (decision: Decision, key: string) => (decision ? directBytes(this.documents.get(decision)!) : GATEWAY_ENTRY_BYTES + 2 * key.length);
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
    const target = directBytes(document) > MAX_DIRECT_BYTES ? null : direct.targetOf(document, operationName, { compile: false });
    if (target) this.documents.set(target, document);
    this.decisions!.set(key, target ?? false);
    return target;
  }
}
