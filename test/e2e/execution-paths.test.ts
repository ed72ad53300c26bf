// Route operations that are one fetch to one subgraph run on that subgraph directly, compiled by
// graphql-jit; the others go through the gateway. Both ways must answer alike: every route's samples are sent, in the same order,
// to a server that takes the direct way and to one that sends everything through the gateway (each on
// its own copy of the demo world), and their statuses, bodies and headers compared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../facade/routes/index.ts';
import { createGateway } from '../../facade/graphql/gateway.ts';
import { OperationRunner } from '../../facade/graphql/operations.ts';
import { routeSamples, sampleStateOf, samplePath } from '../support/route-samples.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let direct: TestServer;
let gateway: TestServer;
beforeAll(async () => {
  // No webhook worker: its attempts would change the delivery log at different moments on each.
  [direct, gateway] = await Promise.all([startTestServer({ webhookWorker: false }), startTestServer({ routeExecution: 'gateway', webhookWorker: false })]);
});
afterAll(async () => {
  await Promise.all([direct?.close(), gateway?.close()]);
});

/**
 * What differs by nature between two servers: request ids, issued tokens, generated resource ids, and
 * the moments each loaded its demo data (updatedAt, and the cursors that hold creation times).
 */
function normalise(text: string): string {
  return text
    .replace(/"updatedAt":"[^"]+"/g, '"updatedAt":"…"')
    .replace(/"nextCursor":"[^"]+"/g, '"nextCursor":"…"')
    .replace(/"requestId":"[^"]+"/g, '"requestId":"…"')
    .replace(/"access_token":"[^"]+"/g, '"access_token":"…"')
    .replace(/"secret":"whsec_[^"]+"/g, '"secret":"whsec_…"')
    .replace(/"(key|prefix)":"okey_[^"]+"/g, '"$1":"okey_…"')
    .replace(/"(token|prefix)":"ovl_[^"]+"/g, '"$1":"ovl_…"')
    .replace(/"(lastUsedAt|expiresAt|revokedAt|authorizedAt)":"[^"]+"/g, '"$1":"…"')
    .replace(/"(iat|exp)":\d+/g, '"$1":…')
    .replace(/"(createdAt|updatedAt|deliveredAt|startedAt)":"[^"]+"/g, '"$1":"…"')
    .replace(/\b(chg_test)_[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, '$1_…')
    .replace(/\b(evt|par|stg|grp|inv|adj|tok|whe|dlv|key|otr|ovt)_[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, '$1_…');
}

describe('direct and gateway execution of route operations', () => {
  it('runs every single-subgraph route directly and compiled, and the cross-subgraph one through the gateway', async () => {
    const { gateway: apollo, schemas } = await createGateway({ db: direct.db, logError: () => undefined });
    await apollo.load();
    try {
      const runner = new OperationRunner(apollo, console, { local: { db: direct.db, schemas: schemas! }, logError: () => undefined, logUnreachable: () => undefined });
      const targets = Object.fromEntries(
        routeTable.map((row) => {
          runner.check(row.operation);
          return [row.operationId, runner.directTarget(row.operation)];
        }),
      );
      expect(targets.getApplicationUsage).toBeNull(); // developer → esports (Application.usage)
      expect(targets.getAuthContext).toBe('developer');
      expect(targets.listOrganisationEvents).toBe('competitions');
      expect(targets.getEsportsMatch).toBe('esports');
      expect(Object.values(targets).filter((target) => target === null)).toHaveLength(1);
      const interpreted = routeTable.filter((row) => targets[row.operationId] && !runner.isCompiled(row.operation));
      expect(interpreted.map((row) => row.operationId)).toEqual([]);
    } finally {
      await apollo.stop();
    }
  });

  it('answers every sample of every route identically both ways', async () => {
    const directSamples = routeSamples(sampleStateOf(() => direct));
    const gatewaySamples = routeSamples(sampleStateOf(() => gateway));
    let compared = 0;
    for (const row of routeTable) {
      const samples = directSamples[row.operationId];
      expect(samples, row.operationId).toBeDefined();
      for (let i = 0; i < samples.length; i++) {
        const answers = await Promise.all(
          [
            [direct, samples[i]],
            [gateway, gatewaySamples[row.operationId][i]],
          ].map(async ([server, sample]) => {
            const { url } = server as TestServer;
            const { init } = sample as (typeof samples)[number];
            const path = await samplePath(sample as (typeof samples)[number]);
            const resolved = typeof init === 'function' ? await init() : init;
            const response = await fetch(`${url}${path}`, { method: row.method.toUpperCase(), ...resolved });
            return {
              status: response.status,
              etag: response.headers.get('etag'),
              replayed: response.headers.get('idempotent-replayed'),
              authenticate: response.headers.get('www-authenticate'),
              body: normalise(await response.text()),
            };
          }),
        );
        expect(answers[0], `${row.operationId} sample ${i}`).toEqual(answers[1]);
        expect(answers[0].status).toBe(samples[i].status);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });
});
