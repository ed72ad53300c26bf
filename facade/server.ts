// The whole platform in one Koa application: REST facade, /graphql, OAuth, docs, health, metrics.
import http from 'node:http';
import Koa from 'koa';
import type { Logger } from 'pino';
import Router from '@koa/router';
import type { Database } from '../platform/db/database.ts';
import { createGateway, type SubgraphUrls } from './graphql/gateway.ts';
import { RealtimeGateway } from './realtime/server.ts';
import { mountClientScript } from './realtime/client-script.ts';
import { OperationRunner } from './graphql/operations.ts';
import { mountGraphQL, startGraphQLServer } from './graphql/http.ts';
import { DirectGateway } from './graphql/direct-gateway.ts';
import { TrustedDocuments, loadManifest, trustedDocumentsConfig } from './graphql/trusted-documents.ts';
import { mountIdeAssets } from './graphql/ide.ts';
import { mountOverlays } from './overlays/pages.ts';
import { errorHandler } from './http/error-handler.ts';
import { mountHealth } from './http/health.ts';
import { mountLanding } from './http/landing.ts';
import { createMetrics, requestLogger } from './http/observability.ts';
import { createLogger } from '../platform/process/logger.ts';
import { readConfig } from '../platform/process/config.ts';
import { Issuer, mountOAuthMetadata } from './http/oauth-metadata.ts';
import { ApiError } from '../platform/api/errors.ts';
import { DEFAULT_HOST, listen, reachableBase } from '../platform/process/listen.ts';
import { answerClientError } from './http/client-errors.ts';
import { requestHead } from './http/request-head.ts';
import { serveConnect, serveIgnoringUpgrade } from './http/protocol-switches.ts';
import { requestId } from './http/request-id.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { mountDocs } from './openapi/docs-page.ts';
import { mountRoutes } from './routes/mount.ts';
import { routeTable } from './routes/index.ts';
import { WebhookWorker, webhookAttemptLogger, type WorkerOptions } from '../subgraphs/workers/webhook-worker.ts';
import { mountAuthorizePages } from './oauth/authorize.ts';
import { openRateLimitStore, rateLimitConfig, RateLimits, type RateLimitConfig } from './http/rate-limits.ts';

export interface PlatformOptions {
  db: Database;
  subgraphUrls?: SubgraphUrls;
  /** Sent to the subgraphs of subgraphUrls with every request (SUBGRAPH_SECRET); required with them. */
  subgraphSecret?: string;
  /** auto: single-subgraph route operations run on their subgraph directly; gateway: all through the gateway. */
  routeExecution?: 'auto' | 'gateway';
  /** Run a webhook worker in this process (default: unless WEBHOOK_WORKER=off). */
  webhookWorker?: boolean | WorkerOptions;
  /** The rate limits (default: from the environment, RATE_LIMIT_*). */
  rateLimits?: RateLimitConfig;
  /** Where they are counted: Redis at this URL (default REDIS_URL), with this key prefix (default RATE_LIMIT_PREFIX). */
  rateLimitStore?: { redisUrl?: string; prefix?: string };
  /** The process's structured log (default: pino to stdout at LOG_LEVEL). */
  logger?: Logger;
}

export interface Platform {
  app: Koa;
  /** The OAuth issuer: PUBLIC_URL, else the first address listened on. */
  issuer: Issuer;
  /** Listens (default host 127.0.0.1); rejects with a StartupError naming PORT and HOST when it cannot. */
  listen(port: number, host?: string): Promise<{ url: string; server: http.Server }>;
  /** Stops accepting; with drainMs, lets requests in flight finish for up to that long first. */
  close(options?: { drainMs?: number }): Promise<void>;
}

export async function createPlatform({ db, subgraphUrls, subgraphSecret, routeExecution = 'auto', webhookWorker, rateLimits, rateLimitStore, logger = createLogger('esports-platform') }: PlatformOptions): Promise<Platform> {
  // Settings first: one that cannot be read stops the start before anything is opened.
  const config = readConfig();
  webhookWorker ??= config.WEBHOOK_WORKER;
  rateLimits ??= rateLimitConfig();
  const proxies = config.TRUST_PROXY;
  const trustedDocuments = new TrustedDocuments(trustedDocumentsConfig(), loadManifest());
  const issuer = new Issuer();
  const metrics = createMetrics();
  const logError = (error: unknown) => logger.error({ err: error }, 'subgraph error');
  const { gateway, schemas } = await createGateway({ db, subgraphUrls, subgraphSecret, logError });
  const runner = new OperationRunner(
    gateway,
    {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: unknown) => logger.warn(String(message)),
      error: (message: unknown) => logger.error(String(message)),
    },
    {
      local: schemas ? { db, schemas } : undefined,
      execution: routeExecution,
      logError,
      logUnreachable: (err, suppressed, requestId) => logger.warn({ err, suppressed, requestId }, 'subgraph unreachable: answering 503'),
    },
  );

  const graphql = await startGraphQLServer(new DirectGateway(gateway, runner.directExecution, metrics.countGraphQLExecution), logger);

  const limitStore = openRateLimitStore(db, (message, error) => logger.warn({ err: error }, message), rateLimitStore);
  const limits = new RateLimits(rateLimits, limitStore.store);
  const routeLimits = { limits, sql: db.sql };

  // Every method Node's parser accepts is one the router knows: a path that exists answers 405 with
  // Allow to any it does not serve, an unknown path 404 (the router's default list would make 501s).
  const router = new Router({ methods: http.METHODS });
  mountRoutes(router, routeTable, runner, logger, routeLimits);
  mountAuthorizePages(router, db, limits, issuer);
  mountIdeAssets(router, () => gateway.schema, trustedDocuments.config.mode !== 'require');
  mountOverlays(router);
  mountGraphQL(router, graphql, gateway, routeLimits, trustedDocuments);
  mountDocs(router, buildOpenApiDocument(routeTable));
  mountHealth(router, db, metrics.registry);
  mountOAuthMetadata(router, issuer);
  mountLanding(router, db, issuer);
  mountClientScript(router);

  const realtime = new RealtimeGateway({ db, gateway, runner, rateLimits: limits, trustedProxies: proxies, log: (message, error) => logger.error({ err: error }, message) });
  await realtime.start();

  const worker = webhookWorker
    ? new WebhookWorker(db, { ...(typeof webhookWorker === 'object' ? webhookWorker : {}), log: (message, error) => logger.error({ err: error }, message), logAttempt: webhookAttemptLogger(logger) })
    : null;
  await worker?.start();

  const app = new Koa();
  // TRUST_PROXY=<n>: n proxies in front, each adding the address it saw to X-Forwarded-For. The
  // client's address is the n-th from the right, what the outermost trusted proxy saw: never a value
  // the client wrote itself, which would let it choose the address its per-address limits count.
  app.proxy = proxies > 0;
  app.maxIpsCount = proxies;
  let draining = false;
  // While draining, every answer closes its connection: keep-alive must not hold the process open.
  app.use(async (ctx, next) => {
    await next();
    if (draining) ctx.set('Connection', 'close');
  });
  app.use(requestId);
  // Tests that assert batching count a request's own statements (a database opened with countQueries).
  const countingFor = db.countingFor?.bind(db);
  if (countingFor) app.use((ctx, next) => countingFor(ctx.state.requestId as string, next));
  app.use(requestLogger(logger));
  app.use(metrics.middleware);
  app.use(errorHandler(logger));
  app.use(requestHead);
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body != null) return;
    // allowedMethods has set 405 and Allow when the path exists with other methods.
    if (ctx.status === 405) {
      throw new ApiError('validation_failed', `${ctx.method} is not allowed on ${ctx.path}.`, [{ issue: 'method_not_allowed' }], { status: ctx.status });
    }
    if (ctx.status === 404) {
      // A CONNECT's target (host:port) is no path.
      throw new ApiError('not_found', `No route ${ctx.method} ${ctx.path ?? ctx.url}.`, [{ issue: 'unknown_route' }]);
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());

  const servers: http.Server[] = [];
  let inFlight = 0;
  let drained: (() => void) | undefined;
  // A request is in flight from its first byte until its response is flushed (or its socket closes).
  const track = (_request: http.IncomingMessage, response: http.ServerResponse) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (draining && inFlight === 0) drained?.();
    });
  };
  app.on('error', (error) => logger.error({ err: error }, 'request stream error'));
  return {
    app,
    issuer,
    async listen(port, host = DEFAULT_HOST) {
      // A client may half-close its side once it has sent its request (HTTP/1.1 allows it): the answer
      // is still written, and the socket closed after it. Node's default ends the socket at the
      // client's FIN and drops an answer that waits on I/O (the property has no typing; start.test.ts
      // sends such a request).
      // Host and Expect are checked by requestHead, which answers with the error body Node would not.
      // A request (head and body, 1 MiB at most) takes at most 30 s to arrive rather than Node's 300 s:
      // a client trickling bodies holds a share of the body budget (http/body.ts) that long. Its head
      // has as long (Node's 60 s default would be taken as the whole request's: Node applies the
      // larger of the two to the body), and both are checked every 5 s rather than Node's 30.
      const server = http.createServer({ requireHostHeader: false, headersTimeout: 30_000, requestTimeout: 30_000, connectionsCheckingInterval: 5_000 }, app.callback());
      (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
      server.prependListener('request', track);
      server.on('checkExpectation', (request, response) => server.emit('request', request, response));
      server.on('clientError', answerClientError);
      server.on('connect', (request, socket) => serveConnect(server, request, socket));
      server.keepAliveTimeout = 65_000;
      realtime.attach(server, (request, socket, head) => serveIgnoringUpgrade(server, request, socket, head));
      servers.push(server);
      const bound = await listen(server, { port, host });
      const url = reachableBase(host, bound);
      issuer.listening(url);
      if (!issuer.configured && (host === '0.0.0.0' || host === '::')) {
        logger.warn({ issuer: issuer.url }, 'listening on every interface without PUBLIC_URL: OAuth clients elsewhere must be told the issuer; set PUBLIC_URL to the address they call');
      }
      return { url, server };
    },
    async close({ drainMs = 0 } = {}) {
      draining = true;
      await realtime.stop();
      // Stop accepting, let requests in flight finish (at most drainMs), then cut what is left.
      const closed = Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      for (const server of servers) server.closeIdleConnections();
      if (inFlight > 0 && drainMs > 0) {
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise((resolve) => setTimeout(resolve, drainMs).unref())]);
      }
      for (const server of servers) server.closeAllConnections();
      await closed;
      await worker?.stop();
      await graphql.stop();
      await limits.stop();
      await limitStore.close();
    },
  };
}
