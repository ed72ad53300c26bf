// Starts the real platform on a free port over a fresh test database.
import { createPlatform, type PlatformOptions } from '../../facade/server.ts';
import { rateLimitConfig, type RateLimitConfig } from '../../facade/http/rate-limits.ts';
import type { SubgraphUrls } from '../../facade/graphql/gateway.ts';
import { catalogueViolations } from './change-catalogue.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestServer {
  url: string;
  db: TestDatabase;
  close(): Promise<void>;
}

export interface TestServerOptions extends Pick<PlatformOptions, 'rateLimits' | 'rateLimitStore' | 'subgraphSecret' | 'logger'> {
  subgraphUrls?: SubgraphUrls;
  db?: TestDatabase;
  countQueries?: boolean;
  routeExecution?: 'auto' | 'gateway';
  webhookWorker?: boolean;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDatabase({ countQueries: options.countQueries }));
  const platform = await createPlatform({
    db,
    subgraphUrls: options.subgraphUrls,
    subgraphSecret: options.subgraphSecret,
    routeExecution: options.routeExecution,
    webhookWorker: options.webhookWorker,
    rateLimits: options.rateLimits,
    rateLimitStore: options.rateLimitStore,
    logger: options.logger,
  });
  const { url } = await platform.listen(0, '127.0.0.1');
  return {
    url,
    db,
    async close() {
      await platform.close();
      // Every change this server wrote must be what the webhook catalogue publishes.
      const violations = await catalogueViolations(db).catch(() => []);
      if (!options.db) await db.drop();
      if (violations.length) throw new Error(`Changes the webhook catalogue does not describe:\n${violations.map((v) => `${v.type} #${v.sequence}: ${v.issue}; ${JSON.stringify(v.details)}`).join('\n')}`);
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * For files that drive thousands of requests a minute with one token (writers under load): a token
 * quota they do not reach. The limits themselves are tested in rate-limits.test.ts.
 */
export const UNDER_LOAD = { RATE_LIMIT_TOKEN: '1000000/60', RATE_LIMIT_API_KEY: '1000000/60' };
export const underLoadLimits = (): RateLimitConfig => ({
  ...rateLimitConfig(),
  token: { name: 'token', quota: 1_000_000, windowSeconds: 60 },
  apiKey: { name: 'api_key', quota: 1_000_000, windowSeconds: 60 },
});
