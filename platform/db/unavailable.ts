// The one place that decides whether an error means "the database cannot be reached": connection
// refused or reset, a connection terminated under a query, no connection from the pool in time, a
// server that is starting up or shutting down, too many clients, a closed PGlite. Every surface
// answers such an error as 503 service_unavailable with Retry-After (docs/errors.md), never as a
// fault of ours (500) and never as a missing credential.
//
// Errors arrive raw from node-postgres, from PGlite, or wrapped by Prisma (its known request error
// holds the driver adapter's error under meta.driverAdapterError, whose cause names the kind or the
// SQLSTATE) and by graphql-js (originalError): the whole chain is looked at. Beside it, the same for a
// subgraph the gateway cannot reach (the distributed topology), and the throttle of their log lines.
import type { GraphQLFormattedError } from 'graphql';
import { ApiError } from '../api/errors.ts';
import { backoffDelay } from '../process/failure-run.ts';

/** Seconds a client is asked to wait (Retry-After) before trying again while the database is away. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

// Socket errors of a connection to the database.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
// SQLSTATE: class 08 (connection exception), 57P01 admin_shutdown (terminating connection due to
// administrator command), 57P02 crash_shutdown, 57P03 cannot_connect_now (the database system is
// starting up, shutting down, in recovery), 53300 too_many_connections.
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
// Prisma's codes for the same: P1001 cannot reach the server, P1002 and P1008 timed out, P1017 the
// server closed the connection, P2024 no connection from the pool in time, P2037 too many connections.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
// The driver adapter's kinds (meta.driverAdapterError.cause.kind).
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// node-postgres and PGlite errors that carry no code, by their whole message.
const MESSAGES =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end on the pool|PGlite is closed)$/;

function matches(error: Record<string, unknown>): boolean {
  const { code, originalCode, kind, message, syscall } = error;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code) || PRISMA_CODES.has(code))) return true;
  // A Unix socket whose file is gone: the server is not running (host=/var/run/postgresql).
  if (code === 'ENOENT' && syscall === 'connect') return true;
  // Prisma's transaction that got no connection before its maxWait (other P2028 errors are not this).
  if (code === 'P2028' && typeof message === 'string' && message.includes('Unable to start a transaction in the given time')) return true;
  if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  return typeof message === 'string' && MESSAGES.test(message);
}

/** Whether the error, or one it wraps, says that the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current) || seen.size > 20) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    if (matches(record)) return true;
    const meta = record.meta as Record<string, unknown> | undefined;
    pending.push(record.cause, record.originalError, meta?.driverAdapterError);
    if (Array.isArray(record.errors)) pending.push(...record.errors.slice(0, 5));
  }
  return false;
}

/** The answer to a request the database could not serve: 503 with Retry-After (and retryAfter for GraphQL clients). */
export function databaseUnavailable(): ApiError {
  const seconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
  return new ApiError('service_unavailable', `The database cannot be reached at the moment: retry in ${seconds} s.`, [{ issue: 'database_unavailable' }], {
    headers: { 'Retry-After': String(seconds) },
    extensions: { retryAfter: seconds },
  });
}

/**
 * A subgraph the gateway could not reach over HTTP (the distributed topology): its fetch failed below
 * HTTP (refused, reset, hung up) or got no whole answer in time (gateway.ts, SUBGRAPH_TIMEOUT_MS). The gateway hands such an error on as it is, not as a GraphQL error.
 */
export function isSubgraphUnreachable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, extensions } = error as { code?: unknown; message?: unknown; extensions?: { code?: unknown } };
  if (extensions?.code === 'service_unavailable') return false;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  // make-fetch-happen's timeouts: before the answer, and while its body is awaited (SUBGRAPH_TIMEOUT_MS).
  return typeof message === 'string' && /ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|fetch failed|network timeout at|Response timeout while trying to fetch|Invalid response body while trying to fetch/.test(message);
}

/** The answer to a request a subgraph could not serve: 503 with Retry-After, and no address of it in the message. */
export function subgraphUnavailable(): ApiError {
  const seconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
  return new ApiError('service_unavailable', `A part of the service cannot be reached at the moment: retry in ${seconds} s.`, [{ issue: 'subgraph_unavailable' }], {
    headers: { 'Retry-After': String(seconds) },
    extensions: { retryAfter: seconds },
  });
}

/**
 * A gateway error as the API tells it: the gateway hands on a failed fetch to a subgraph (distributed
 * topology) as the fetch's own error, whose message names the subgraph's address; it is
 * subgraph_unavailable (503) instead, in the formatted error's place. The fetch's error (the address,
 * the errno) is reported here (reportUnavailable), while it is still at hand. Any other error is
 * answered as `formatted`.
 */
export function unreachableAsUnavailable(formatted: GraphQLFormattedError, error: unknown, log: (error: unknown, suppressed: number) => void): GraphQLFormattedError {
  const original = (error as { originalError?: unknown } | null)?.originalError ?? error;
  if (!isSubgraphUnreachable(original) && !isSubgraphUnreachable(error)) return formatted;
  reportUnavailable(log, original, 'subgraph');
  const unavailable = subgraphUnavailable();
  return { message: unavailable.message, path: formatted.path, extensions: unavailable.extensions };
}

/** The error as the client should see it: database_unavailable when the database could not be reached, else itself. */
export const unavailableOr = (error: unknown): unknown => (isDatabaseUnavailable(error) ? databaseUnavailable() : error);

// Requests answered 503 during an outage would each log the same connection error: once every
// REPORT_EVERY_MS per kind is enough for the operator (the access log still has every request).
const REPORT_EVERY_MS = 10_000;
const reports = { database: { at: 0, unreported: 0 }, subgraph: { at: 0, unreported: 0 } };

/** Logs a request's database (or subgraph) unavailable error, at most once every 10 s per process. */
export function reportUnavailable(log: (error: unknown, suppressed: number) => void, error: unknown, kind: keyof typeof reports = 'database'): void {
  const report = reports[kind];
  const now = Date.now();
  if (now - report.at < REPORT_EVERY_MS) {
    report.unreported++;
    return;
  }
  report.at = now;
  const suppressed = report.unreported;
  report.unreported = 0;
  log(error, suppressed);
}

/**
 * Runs `work`, and while it fails because the database cannot be reached, runs it again with backoff
 * (BACKGROUND_BACKOFF) for as long as `keepTrying` says; the last error is thrown.
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, keepTrying: () => boolean): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await work();
    } catch (error) {
      const delay = backoffDelay(failures);
      if (!isDatabaseUnavailable(error) || !keepTrying()) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (!keepTrying()) throw error;
    }
  }
}
