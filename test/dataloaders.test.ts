// Lists cost a constant number of queries however many items they hold (DataLoader batching).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from './support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ countQueries: true });
});
afterAll(() => server?.close());

/** The queries one request costs: the statements its own work sent, by its x-request-id (background work apart). */
async function queriesFor(query: string) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer('demo-token-app') },
    body: JSON.stringify({ query }),
  });
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  return server.db.queryCount(response.headers.get('x-request-id')!);
}

const teams = (n: number) =>
  `{ ${['alpha', 'bravo', 'charlie', 'delta'].slice(0, n).map((t) => `${t}: team(id: "team_${t}") { name members { role user { displayName } } }`).join(' ')} }`;

describe('batching', () => {
  it('team rosters with their users: the same number of queries for 1 team (5 users) and 4 teams (20 users)', async () => {
    await queriesFor(teams(1)); // warm-up: nothing cached across requests, but plans are
    const one = await queriesFor(teams(1));
    const four = await queriesFor(teams(4));
    expect(one).toBeGreaterThan(0);
    expect(four).toBe(one);
  });

  it('entity references across subgraphs are batched: 1 or 4 events through their organisation', async () => {
    const events = (ids: string[]) => `{ ${ids.map((id, i) => `e${i}: event(id: "${id}") { name organisation { name } stages { name } }`).join(' ')} }`;
    const one = await queriesFor(events(['evt_open']));
    const four = await queriesFor(events(['evt_open', 'evt_draft', 'evt_live', 'evt_done']));
    expect(one).toBeGreaterThan(0);
    expect(four).toBe(one);
  });
});
