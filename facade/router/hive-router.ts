// A federation router over the subgraph services: Hive Gateway (@graphql-hive/gateway-runtime)
// serving schema/supergraph.graphql as router.yaml configures Apollo Router. It is the distributed
// topology's GraphQL entry for internal clients; REST stays with the platform's facade
// (SUBGRAPH_URLS). What it adds to Hive Gateway's defaults:
// - it runs the platform's trusted documents only (schema/trusted-documents.json, named by
//   extensions.persistedQuery.sha256Hash), parsed once at start: no client text is ever parsed, so no
//   document a client makes up can fill its memory (Hive Gateway keeps 1,024 parsed documents
//   whatever their size, and a parse of a 1 MiB text takes more than its heap);
// - only router.yaml's propagated headers reach a subgraph, and the shared secret is set from the
//   router's environment (a client's own svc-subgraph-secret never passes);
// - a batch, a mutation by GET and an operationName the document lacks are refused as on /graphql
//   (400, 405 with Allow: POST, 400), an empty operationName is none;
// - variables and extensions as /graphql takes them (32 deep, 10,000 values, storable text), then
//   /graphql's operation limits and cost (limits.ts) on every operation;
// - a subgraph that cannot be reached, does not answer within the timeout or answers anything but
//   GraphQL is 503 service_unavailable with Retry-After, as on /graphql, never its address, its
//   body or a hang; errors keep only message, path, locations, code and details;
// - its log lines carry no request of a subgraph (variables hold client secrets);
// - request bodies over the size limit are refused before they are read;
// - a request not received within the request timeout is 408 with the platform's error body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime, Logger, type GatewayPlugin, type LogLevel } from '@graphql-hive/gateway-runtime';
import { useRequestDeadline } from '@whatwg-node/server';
import type { Logger as Pino } from 'pino';
import { GraphQLError, getOperationAST, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { SubgraphName } from '../../subgraphs/index.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { isSubgraphUnreachable, subgraphUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../platform/db/unavailable.ts';
import { measureDocument } from '../graphql/limits.ts';
import { loadManifest } from '../graphql/trusted-documents.ts';
import { unresolvedOperation } from '../graphql/request-errors.ts';
import { answerClientError, requestTimeoutAnswer } from '../http/client-errors.ts';
import { findUnsafeValue, MAX_REQUEST_VALUES } from '../../platform/api/input-safety.ts';
import type { RouterConfig } from './router-config.ts';

export interface RouterOptions {
  config: RouterConfig;
  /** The supergraph SDL (schema/supergraph.graphql). */
  supergraph: string;
  /** Addresses that replace router.yaml's (SUBGRAPH_URLS). */
  subgraphUrls?: Partial<Record<SubgraphName, string>>;
  host: string;
  port: number;
  /** Where Hive Gateway's own log lines go (at the logger's level). */
  logger: Pino;
}

export interface RunningRouter {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** An ApiError as a GraphQL error whose HTTP answer Hive Gateway (GraphQL Yoga) takes from it. */
function withHttp(error: ApiError): GraphQLError {
  return routerError(error.message, { ...error.extensions, http: { status: error.status, headers: error.headers } });
}

/** An error of the router's own, whose HTTP status maskError keeps. */
function routerError(message: string, extensions: Record<string, unknown>): GraphQLError {
  return Object.assign(new GraphQLError(message, { extensions }), { router: true });
}

const unavailable = (path: GraphQLError['path']) => {
  const error = subgraphUnavailable();
  return new GraphQLError(error.message, { path, extensions: { ...error.extensions, http: { status: error.status, headers: error.headers } } });
};

// What Hive Gateway makes of a subgraph that answered, but not with GraphQL (an HTML error page, a
// 403 to a wrong secret, a body that is not JSON): the subgraph is not usable, as if unreachable.
const UPSTREAM_FAILURES = new Set(['GATEWAY_TIMEOUT', 'SUBREQUEST_HTTP_ERROR', 'RESPONSE_VALIDATION_FAILED', 'DOWNSTREAM_SERVICE_ERROR']);

/** retryAfter as a subgraph gives it, when it is a plain number of seconds (it becomes a header). */
const retryAfterOf = (value: unknown) => (Number.isInteger(value) && (value as number) > 0 && (value as number) <= 3600 ? (value as number) : UNAVAILABLE_RETRY_AFTER_SECONDS);

/**
 * Errors as the platform tells them. A subgraph out of reach, silent, or answering anything but
 * GraphQL is 503 subgraph_unavailable; a subgraph's own 503 (its database away) keeps its message
 * and gets its status; other GraphQL errors keep message, path, locations, code and details, and
 * nothing a subgraph says decides the router's status or headers; anything else is masked.
 */
function maskError(error: unknown): Error {
  const original = (error as { originalError?: unknown }).originalError;
  if (error instanceof GraphQLError) {
    const code = error.extensions?.code;
    if ((typeof code === 'string' && UPSTREAM_FAILURES.has(code)) || error.extensions?.response !== undefined || isSubgraphUnreachable(original)) return unavailable(error.path);
    if (code === 'service_unavailable') {
      const retryAfter = retryAfterOf(error.extensions.retryAfter);
      return new GraphQLError(error.message, { path: error.path, extensions: { code, details: error.extensions.details, retryAfter, http: { status: 503, headers: { 'Retry-After': String(retryAfter) } } } });
    }
    if (!original || original instanceof GraphQLError) {
      const { code: kept, details, http } = error.extensions ?? {};
      // Our own refusals (limits, persisted documents) carry their status; a subgraph's never do.
      const ours = http && (error as { router?: boolean }).router === true;
      return new GraphQLError(error.message, { path: error.path, nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: kept, details, ...(ours ? { http } : {}) } });
    }
  }
  if (isSubgraphUnreachable(original ?? error)) return unavailable(undefined);
  return new GraphQLError('Unexpected error.', { extensions: { code: 'internal' } });
}

/**
 * The request's variables and extensions as /graphql takes them: nested at most 32 deep, at most
 * 10,000 values, text a database can store. Checked first: Hive Gateway walks the variables for
 * files before a subgraph sees them, in time and memory that grow with the square of their depth.
 */
const requestValues = (): GatewayPlugin => ({
  onParams({ params }) {
    const detail = findUnsafeValue(params.variables ?? null, 'variables', MAX_REQUEST_VALUES) ?? findUnsafeValue(params.extensions ?? null, 'extensions', MAX_REQUEST_VALUES);
    if (detail) throw routerError(`The request is not valid: ${detail.field} ${detail.issue}.`, { code: 'validation_failed', details: [detail], http: { status: 400 } });
  },
});

/**
 * What /graphql refuses about the request itself, with its statuses and words: a batch (400), an
 * operationName the document does not name (400), a mutation by GET, by hash too (405, Allow: POST).
 * GraphQL Yoga refuses them as well, but maskError cannot tell its errors from a subgraph's and drops
 * their status (a 200): raised here, before Yoga's own checks (which run after the plugins), they are
 * the router's.
 */
const requestRefusals = (): GatewayPlugin => ({
  // An empty operationName is none, as on /graphql (graphql-js would look for an operation named "").
  onParams({ params, setParams }) {
    if (params.operationName === '') setParams({ ...params, operationName: undefined });
  },
  onRequestParse: () => ({
    onRequestParseDone({ requestParserResult }) {
      if (Array.isArray(requestParserResult)) throw routerError('Operation batching disabled.', { code: 'BAD_REQUEST', http: { status: 400 } });
    },
  }),
  onParse:
    ({ context }) =>
    ({ result }) => {
      const { request, params } = context as { request?: Request; params?: { operationName?: unknown } };
      // No request: not HTTP. A parse error is answered by Yoga (with its 400).
      if (!request || result instanceof Error) return;
      const operationName = typeof params?.operationName === 'string' ? params.operationName : undefined;
      const operation = getOperationAST(result, operationName);
      if (!operation) throw routerError(unresolvedOperation(result, operationName), { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } });
      if (operation.operation === 'mutation' && request.method === 'GET') {
        throw routerError('GET requests only support query operations, not mutation operations', { code: 'BAD_REQUEST', http: { status: 405, headers: { Allow: 'POST' } } });
      }
    },
});

/** /graphql's limits on every operation before it is planned (depth, aliases, root fields, fields, cost). */
const operationLimits = (): GatewayPlugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const { schema, document, operationName, variableValues } = args as { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: Record<string, unknown> | null };
    try {
      measureDocument(schema, document, getOperationAST(document, operationName ?? undefined), variableValues ?? {});
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setResultAndStopExecution({ errors: [withHttp(error)] });
    }
  },
});

/**
 * traffic_shaping.router.timeout, answered as the platform answers its request timeout: a request whose
 * body has not all arrived (trickled) is 408 with the platform's error body, the connection closed, as
 * Node's parser answers a head that has not (answerClientError); a request still being answered is 503
 * service_unavailable with Retry-After. This is the plugin Hive Gateway's requestDeadline option installs,
 * with an answer of the router's: the option's is a plain-text 503 for both.
 */
const requestDeadline = (timeout: number): GatewayPlugin =>
  useRequestDeadline({
    timeout,
    response: (_request, context) => {
      if ((context as { req?: IncomingMessage }).req?.complete === false) {
        const { status, headers, body } = requestTimeoutAnswer();
        return new Response(body, { status, headers });
      }
      const extensions = { code: 'service_unavailable', details: [{ issue: 'timeout' }], retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS };
      const body = { errors: [{ message: `The request was not answered within ${timeout / 1000} s: retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s.`, extensions }] };
      return Response.json(body, { status: 503, headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } });
    },
  }) as GatewayPlugin;

/** Answers /healthz; refuses a body over the limit (413) or of no declared length (411) before Hive Gateway reads it. */
function boundedBodies(maxBytes: number, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    // Liveness as the platform's other services answer it (Hive Gateway's /healthcheck and /readiness stay).
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
      const length = req.headers['content-length'];
      const refusal =
        length === undefined ? { status: 411, message: 'A request body needs a Content-Length.' } : !/^\d+$/.test(length) || Number(length) > maxBytes ? { status: 413, message: `A request body may hold at most ${maxBytes} bytes.` } : null;
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.status === 411 ? 'BAD_REQUEST' : 'PAYLOAD_TOO_LARGE' } }] }));
        req.resume();
        return;
      }
    }
    handler(req, res);
  };
}

const HIVE_LEVELS = new Set<string>(['trace', 'debug', 'info', 'warn', 'error']);

/**
 * Hive Gateway's logger writing to pino: the message and the error's own message only. Its
 * attributes hold the subgraph request (variables with client secrets, tokens, codes), never logged.
 */
function hiveLoggerOf(logger: Pino): Logger {
  const level = HIVE_LEVELS.has(logger.level) ? (logger.level as LogLevel) : logger.level === 'fatal' ? 'error' : false;
  const errorOf = (attrs: unknown): Error | undefined => {
    if (attrs instanceof Error) return attrs;
    const found = attrs && typeof attrs === 'object' ? ((attrs as { error?: unknown }).error ?? (attrs as { err?: unknown }).err) : undefined;
    return found instanceof Error ? found : undefined;
  };
  return new Logger({
    level,
    writers: [
      {
        write: (at, attrs, msg) => {
          const error = errorOf(attrs);
          // A GraphQL error was the client's answer (a refusal, a subgraph's error): nothing for the operator.
          if (error instanceof GraphQLError && !msg) return;
          if (!msg && !error) return;
          logger[at](error ? { error: error.message } : {}, msg ?? '');
        },
      },
    ],
  });
}

/** The platform's trusted documents, by manifest id, parsed once. */
function trustedDocuments(): Map<string, DocumentNode> {
  return new Map([...loadManifest()].map(([id, text]) => [id, parse(text)]));
}

const persistedQueryError = (message: string, code: string, status: number) => () => routerError(message, { code, http: { status } });

export async function startRouter({ config, supergraph, subgraphUrls = {}, host, port, logger }: RouterOptions): Promise<RunningRouter> {
  const locations = { ...config.subgraphUrls, ...subgraphUrls };
  const documents = trustedDocuments();
  const gateway = createGatewayRuntime({
    supergraph,
    graphqlEndpoint: config.graphqlPath,
    logging: hiveLoggerOf(logger),
    landingPage: false,
    graphiql: false,
    // The platform's own request ids pass through (propagated below); none is made up here.
    requestId: false,
    maskedErrors: { maskError },
    transportEntries: Object.fromEntries(Object.entries(locations).map(([name, location]) => [name, { location }])),
    upstreamTimeout: config.subgraphTimeoutMs,
    propagateHeaders: {
      fromClientToSubgraphs({ request }) {
        const headers: Record<string, string> = {};
        for (const name of config.propagated) {
          const value = request.headers.get(name);
          if (value !== null) headers[name] = value;
        }
        return { ...headers, ...config.inserted };
      },
    },
    // Only the manifest's documents, named as Apollo clients name them; a text is refused unparsed.
    persistedDocuments: {
      getPersistedOperation: (key: string) => documents.get(key) ?? null,
      allowArbitraryDocuments: false,
      extractPersistedOperationId: (params: { extensions?: unknown }) => {
        const hash = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery?.sha256Hash;
        return typeof hash === 'string' ? hash : null;
      },
      customErrors: {
        notFound: persistedQueryError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 404),
        persistedQueryOnly: persistedQueryError("Only the documents of the platform's manifest run here: send one by extensions.persistedQuery.sha256Hash.", 'PERSISTED_QUERY_NOT_IN_LIST', 400),
        keyNotFound: persistedQueryError('Send a document of the manifest by extensions.persistedQuery.sha256Hash.', 'PERSISTED_QUERY_NOT_IN_LIST', 400),
      },
    },
    plugins: () => [requestDeadline(config.requestTimeoutMs), requestRefusals(), requestValues(), operationLimits()],
  });
  // The schema is loaded now: a supergraph it cannot serve stops the start, not the first request.
  await gateway.getSchema();
  // A request (head and body) has as long to arrive as on the platform (facade/server.ts), checked as
  // often, and what Node's parser refuses (a slow head, malformed HTTP) is answered as there.
  const timeouts = { headersTimeout: config.requestTimeoutMs, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 5_000 };
  const server = createServer(timeouts, boundedBodies(config.maxRequestBytes, gateway));
  server.on('clientError', answerClientError);
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${config.graphqlPath}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.resolve(gateway.dispose()).catch((err: unknown) => logger.error({ err }, 'router: dispose'));
    },
  };
}
