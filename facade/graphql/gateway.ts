// The gateway over the supergraph: subgraphs in this process by default, or remote HTTP services
// when SUBGRAPH_URLS names them (distributed topology).
import { readFile } from 'node:fs/promises';
import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSource } from '@apollo/gateway';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { QueryPlan } from '@apollo/query-planner';
import type { Database } from '../../platform/db/database.ts';
import { loadSubgraphSchemas, type SubgraphName } from '../../subgraphs/index.ts';
import { supergraphPath } from '../../subgraphs/compose.ts';
import type { GatewayContext } from './context.ts';
import { InProcessDataSource } from './in-process-data-source.ts';
import { SUBGRAPH_SECRET_HEADER } from '../../platform/process/subgraph-secret.ts';
import { asKeyValueCache, budgetedCache } from './document-memory.ts';
import { setting } from '../../platform/process/config.ts';

export type SubgraphUrls = Partial<Record<SubgraphName, string>>;

/** SUBGRAPH_URLS="competitions=http://…/graphql,esports=…,developer=…" */
export const subgraphUrlsFromEnv = (env: NodeJS.ProcessEnv = process.env): SubgraphUrls | undefined => setting('SUBGRAPH_URLS', env);

/**
 * How long a subgraph request may take, answer included (router.yaml's traffic_shaping.all.timeout):
 * a subgraph that stops answering (a stopped process, a partition) is then 503, not a hung request.
 */
export const SUBGRAPH_TIMEOUT_MS = 10_000;

const PROPAGATED_HEADERS = ['authorization', 'x-api-key', 'x-overlay-token', 'x-request-id', 'svc-installation-id'] as const;

class HeaderPropagatingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly name: string,
    url: string,
    private readonly secret: string,
    private readonly logError: (error: unknown) => void,
  ) {
    super({ url });
    // make-fetch-happen's own timeout covers the answer's body too; its error is a FetchError
    // "network timeout at: …", which the 503 mapping knows (db/unavailable.ts).
    const fetcher = this.fetcher;
    this.fetcher = (input, init) => fetcher(input, { ...init, timeout: SUBGRAPH_TIMEOUT_MS } as typeof init);
  }

  // A subgraph that refuses the gateway itself (a SUBGRAPH_SECRET that differs between them) is a
  // service the gateway cannot use: 503 to the caller, the cause in the operator's log.
  async errorFromResponse(response: Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0]): Promise<GraphQLError> {
    if (response.status !== 401 && response.status !== 403) return super.errorFromResponse(response);
    this.logError(new Error(`the ${this.name} subgraph at ${response.url} refused the gateway (HTTP ${response.status}): is SUBGRAPH_SECRET the same for both?`));
    return new GraphQLError('A service behind this API is unavailable.', { extensions: { code: 'service_unavailable' } });
  }

  willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    // Every request, with or without a caller: subgraphs answer only requests that carry it.
    request.http?.headers.set(SUBGRAPH_SECRET_HEADER, this.secret);
    const scope = context.scope;
    if (!scope) return;
    const values: Record<(typeof PROPAGATED_HEADERS)[number], string | undefined> = {
      authorization: scope.authorization,
      'x-api-key': scope.apiKey,
      'x-overlay-token': scope.overlayToken,
      'x-request-id': scope.requestId,
      'svc-installation-id': scope.installationId,
    };
    for (const name of PROPAGATED_HEADERS) {
      const value = values[name];
      if (value !== undefined) request.http?.headers.set(name, value);
    }
  }
}

/** Bytes of query plans the gateway keeps (least recently used first out). */
export const QUERY_PLAN_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * A plan's size: measured on Node 20 at 1–25 KiB for plans whose JSON is 0.3–2 KiB (its fetch nodes,
 * their operation text and selections); this allows 16 KiB and 32 bytes per character of JSON.
 */
export const planBytes = (plan: unknown) => 16 * 1024 + 32 * JSON.stringify(plan).length;

const queryPlanStore = () => asKeyValueCache(budgetedCache<string, QueryPlan>('gateway_query_plans', QUERY_PLAN_CACHE_BYTES, planBytes));

export interface GatewayOptions {
  db: Database;
  subgraphUrls?: SubgraphUrls;
  /** The subgraphs' shared secret (SUBGRAPH_SECRET): required with subgraphUrls. */
  subgraphSecret?: string;
  logError: (error: unknown) => void;
}

export interface Gateway {
  gateway: ApolloGateway;
  /** The subgraph schemas served in this process (none in the distributed topology). */
  schemas?: Record<SubgraphName, GraphQLSchema>;
}

export async function createGateway({ db, subgraphUrls, subgraphSecret, logError }: GatewayOptions): Promise<Gateway> {
  if (subgraphUrls && !subgraphSecret) throw new Error('createGateway: subgraphUrls need the subgraphs\' shared secret (subgraphSecret)');
  const supergraphSdl = await readFile(supergraphPath, 'utf8');
  // @apollo/gateway 2.14 otherwise starts an OpenTelemetry meter that probes cloud metadata services
  // and exports usage metrics to Apollo every hour: the platform sends nothing to third parties.
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const schemas = subgraphUrls ? undefined : await loadSubgraphSchemas();
  const gateway = new ApolloGateway({
    supergraphSdl,
    // Its query plans, by operation, bounded in bytes: the default bound (30 MiB of the plans' JSON)
    // counts a small plan's JSON, about a twentieth of what it holds.
    queryPlannerConfig: { cache: queryPlanStore() },
    buildService: ({ name, url }): GraphQLDataSource<GatewayContext> => {
      if (schemas) return new InProcessDataSource(name, schemas[name as SubgraphName], db, logError);
      return new HeaderPropagatingDataSource(name, subgraphUrls?.[name as SubgraphName] ?? url!, subgraphSecret!, logError);
    },
  });
  return { gateway, schemas };
}
