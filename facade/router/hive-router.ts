// A federation router over the subgraph services: Hive Gateway (@graphql-hive/gateway-runtime)
// serving schema/supergraph.graphql as router.yaml configures Apollo Router. It is the distributed
// topology's GraphQL entry for internal clients; REST stays with the platform's facade
// (SUBGRAPH_URLS). What it adds to Hive Gateway's defaults:
// - only router.yaml's propagated headers reach a subgraph, and the shared secret is set from the
//   router's environment (a client's own svc-subgraph-secret never passes);
// - /graphql's operation limits and cost (limits.ts), so a router takes no document /graphql refuses;
// - a subgraph that cannot be reached or does not answer within the timeout is 503
//   service_unavailable with Retry-After, as on /graphql, never its address and never a hang;
// - request bodies over the size limit are refused before they are read.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime, Logger, type GatewayPlugin, type LogLevel } from '@graphql-hive/gateway-runtime';
import type { Logger as Pino } from 'pino';
import { GraphQLError, getOperationAST, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { SubgraphName } from '../../subgraphs/index.ts';
import { ApiError } from '../../subgraphs/shared/errors.ts';
import { isSubgraphUnreachable, subgraphUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../subgraphs/shared/db/unavailable.ts';
import { measureDocument } from '../graphql/limits.ts';
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
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: error.status, headers: error.headers } } });
}

const unavailable = (path: GraphQLError['path']) => {
  const error = subgraphUnavailable();
  return new GraphQLError(error.message, { path, extensions: { ...error.extensions, http: { status: error.status, headers: error.headers } } });
};

/**
 * Errors as the platform tells them: a subgraph out of reach (refused, reset, timed out) is 503
 * subgraph_unavailable; a subgraph's own 503 (its database away) keeps its body and gets its status;
 * GraphQL errors pass; anything else is masked.
 */
function maskError(error: unknown): Error {
  const original = (error as { originalError?: unknown }).originalError;
  if (error instanceof GraphQLError) {
    const code = error.extensions?.code;
    if (code === 'GATEWAY_TIMEOUT' || code === 'SUBREQUEST_HTTP_ERROR' || isSubgraphUnreachable(original)) return unavailable(error.path);
    if (code === 'service_unavailable') {
      const retryAfter = String(error.extensions.retryAfter ?? UNAVAILABLE_RETRY_AFTER_SECONDS);
      return new GraphQLError(error.message, { path: error.path, extensions: { ...error.extensions, http: { status: 503, headers: { 'Retry-After': retryAfter } } } });
    }
    if (!original || original instanceof GraphQLError) return error;
  }
  if (isSubgraphUnreachable(original ?? error)) return unavailable(undefined);
  return new GraphQLError('Unexpected error.', { extensions: { code: 'internal' } });
}

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

/** Hive Gateway's logger writing to pino. */
function hiveLoggerOf(logger: Pino): Logger {
  const level = HIVE_LEVELS.has(logger.level) ? (logger.level as LogLevel) : logger.level === 'fatal' ? 'error' : false;
  return new Logger({ level, writers: [{ write: (at, attrs, msg) => logger[at]({ ...attrs }, msg ?? '') }] });
}

export async function startRouter({ config, supergraph, subgraphUrls = {}, host, port, logger }: RouterOptions): Promise<RunningRouter> {
  const locations = { ...config.subgraphUrls, ...subgraphUrls };
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
    requestDeadline: config.requestTimeoutMs,
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
    plugins: () => [operationLimits()],
  });
  // The schema is loaded now: a supergraph it cannot serve stops the start, not the first request.
  await gateway.getSchema();
  const server = createServer(boundedBodies(config.maxRequestBytes, gateway));
  server.on('clientError', (error, socket) => socket.destroy(error));
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
