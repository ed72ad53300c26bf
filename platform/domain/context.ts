// The per-request context every subgraph resolver sees. In one process the gateway hands all
// subgraphs the same RequestScope, so the token is resolved once per request, not once per subgraph.
import type { Database, Db, SqlRunner } from '../db/database.ts';
import { resolveAuthority, type Authority } from './authority.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import { resolveKeyCredential, type KeyAuthority } from './api-keys.ts';
import { setting } from '../process/config.ts';

export interface RequestScope {
  requestId: string;
  authorization?: string;
  /** The organisation API key of a v1 request (x-api-key). */
  apiKey?: string;
  /** The overlay token of a v1 request (x-overlay-token): one event's reads. */
  overlayToken?: string;
  installationId?: string;
  /** When the request's time is up (epoch ms): work that would commit after it is refused instead. */
  deadline: number;
  /** Memoised authority of this request. */
  authority?: Promise<Authority>;
  /** Memoised organisation of its API key (or overlay token). */
  keyOrganisation?: Promise<KeyAuthority>;
}

export interface SubgraphContext {
  db: Db;
  sql: SqlRunner;
  /** Statements in one transaction, sent back to back (Database.transaction). */
  transaction: Database['transaction'];
  scope: RequestScope;
  requestId: string;
  /** The caller's authority; rejects with invalid_token. */
  authority(): Promise<Authority>;
  /** The organisation whose API key (x-api-key) the caller sent; rejects with invalid_token. */
  keyAuthority(): Promise<KeyAuthority>;
  loaders: Loaders;
}

export function createSubgraphContext(database: Database, scope: RequestScope): SubgraphContext {
  return {
    db: database.prisma,
    sql: database.sql,
    transaction: database.transaction,
    scope,
    requestId: scope.requestId,
    authority: () => (scope.authority ??= resolveAuthority(database.sql, scope.authorization)),
    keyAuthority: () => (scope.keyOrganisation ??= resolveKeyCredential(database.sql, scope)),
    loaders: createLoaders(database.prisma, database.sql),
  };
}

const HEADER_REQUEST_ID = 'x-request-id';

/** How long a request may take before it is answered as failed (REQUEST_TIMEOUT_MS, default 10 s). */
export const requestBudgetMs = () => setting('REQUEST_TIMEOUT_MS');

/** A RequestScope from the headers of an HTTP request to a subgraph served alone. */
export function scopeFromHeaders(headers: Record<string, string | string[] | undefined>, fallbackId: string): RequestScope {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    requestId: one(HEADER_REQUEST_ID) ?? fallbackId,
    authorization: one('authorization'),
    apiKey: one('x-api-key'),
    overlayToken: one('x-overlay-token'),
    installationId: one('svc-installation-id'),
    deadline: Date.now() + requestBudgetMs(),
  };
}
