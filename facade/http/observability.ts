// Structured JSON logs with the request id, and Prometheus metrics by route.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { memoryBudgets } from '../graphql/document-memory.ts';

export interface Metrics {
  registry: Registry;
  middleware: Middleware;
  /** Counts a /graphql operation by how it ran: on its subgraph directly, or through the gateway. */
  countGraphQLExecution(execution: 'direct' | 'gateway'): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const executions = new Counter({
    name: 'graphql_executions_total',
    help: '/graphql operations by how they ran: direct (one fetch to a subgraph of this process, compiled) or gateway.',
    labelNames: ['execution'] as const,
    registers: [registry],
  });
  // Every cache and budget bounded in bytes (docs/deployment.md#memory): what it holds, and its bound.
  new Gauge({
    name: 'memory_budget_used_bytes',
    help: 'Estimated bytes held by each bounded cache or budget of the process.',
    labelNames: ['budget'] as const,
    registers: [registry],
    collect() {
      for (const { name, used } of memoryBudgets()) this.set({ budget: name }, used);
    },
  });
  new Gauge({
    name: 'memory_budget_limit_bytes',
    help: 'The bound of each cache or budget, in bytes.',
    labelNames: ['budget'] as const,
    registers: [registry],
    collect() {
      for (const { name, limit } of memoryBudgets()) this.set({ budget: name }, limit);
    },
  });
  const middleware: Middleware = async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // The route pattern, never the raw path: ids must not explode the label set.
      const route = (ctx.state.route as string | undefined) ?? (ctx._matchedRoute as string | undefined) ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      latency.observe({ method: ctx.method, route }, seconds);
    }
  };
  return { registry, middleware, countGraphQLExecution: (execution) => executions.inc({ execution }) };
}

export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // A 503 (the database away, a subgraph unreachable) is an outage the operator sees from its own
      // log lines, not a fault of ours on every request.
      const level = ctx.status === 503 ? 'warn' : ctx.status >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        logger[level](
          { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, route: ctx.state.route ?? ctx._matchedRoute, status: ctx.status, ms: Math.round(ms * 100) / 100 },
          'request',
        );
      }
    }
  };
}
