// The parts of @apollo/gateway the project reaches without an export (facade/graphql/gateway-internals.ts):
// an upgrade that moves them must fail here, not in production.
import { readFile } from 'node:fs/promises';
import { ApolloGateway, LocalGraphQLDataSource } from '@apollo/gateway';
import { operationFromDocument } from '@apollo/federation-internals';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { gatewayExecutor, gatewayQueryPlanner } from '../facade/graphql/gateway-internals.ts';
import { createGateway } from '../facade/graphql/gateway.ts';
import { openDatabase } from '../platform/db/database.ts';
import { loadSubgraphSchemas } from '../subgraphs/index.ts';
import { supergraphPath } from '../subgraphs/compose.ts';

describe('gateway internals', () => {
  it('exposes an executor and a query planner that plans a single fetch and a cross-subgraph sequence', async () => {
    const schemas = await loadSubgraphSchemas();
    const gateway = new ApolloGateway({
      supergraphSdl: await readFile(supergraphPath, 'utf8'),
      buildService: ({ name }) => new LocalGraphQLDataSource(schemas[name as keyof typeof schemas]),
    });
    await gateway.load();
    try {
      expect(typeof gatewayExecutor(gateway)).toBe('function');
      const planner = gatewayQueryPlanner(gateway);
      const plan = (query: string) => planner.buildQueryPlan(operationFromDocument(planner.supergraph.schema, parse(query))).node;
      expect(plan('query A { authContext { applicationId } }')).toMatchObject({ kind: 'Fetch', serviceName: 'developer' });
      expect(plan('query B { authContext { installation { organisation { name } } } }')?.kind).toBe('Sequence');
    } finally {
      await gateway.stop();
    }
  });

  it('sends no telemetry: without APOLLO_TELEMETRY_DISABLED the gateway would start a meter exporting to Apollo', async () => {
    const dispose = (gateway: ApolloGateway) => (gateway as unknown as { toDispose: unknown[] }).toDispose;
    delete process.env.APOLLO_TELEMETRY_DISABLED;
    // The library's own behaviour, so that this test fails if an upgrade renames what it guards.
    const plain = new ApolloGateway({ supergraphSdl: await readFile(supergraphPath, 'utf8') });
    expect(dispose(plain)).toHaveLength(1);
    await (dispose(plain)[0] as () => Promise<void>)();
    delete process.env.APOLLO_TELEMETRY_DISABLED;
    const db = openDatabase({ url: '', dataDir: 'memory://' });
    try {
      const { gateway } = await createGateway({ db, subgraphUrls: { competitions: 'http://127.0.0.1:9/graphql' }, subgraphSecret: 'x'.repeat(32), logError: () => undefined });
      expect(dispose(gateway)).toHaveLength(0);
      expect(process.env.APOLLO_TELEMETRY_DISABLED).toBe('true');
    } finally {
      await db.close();
    }
  });
});
