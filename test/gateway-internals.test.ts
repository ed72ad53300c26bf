// The parts of @apollo/gateway the project reaches without an export (facade/graphql/gateway-internals.ts):
// an upgrade that moves them must fail here, not in production.
import { readFile } from 'node:fs/promises';
import { ApolloGateway, LocalGraphQLDataSource } from '@apollo/gateway';
import { operationFromDocument } from '@apollo/federation-internals';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { gatewayExecutor, gatewayQueryPlanner } from '../facade/graphql/gateway-internals.ts';
import { loadSubgraphSchemas } from '../subgraphs/index.ts';
import { supergraphPath } from '../schema/compose.ts';

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
});
