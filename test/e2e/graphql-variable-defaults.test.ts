// A variable's default is what the operation runs with: the cost estimate of /graphql (POST and GET)
// and of the realtime gateway counts `$l: Int = 100` as 100, not as the 20 assumed for no limit.
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

// Each event costs 1 + 3 × 21 = 64: 20 events (no limit) about 1,300, 100 events about 6,400 (over 5,000).
const EVENTS = (limit: string) =>
  `organisationEvents(organisationId: "org_demo"${limit}) { data { id a: stages { id } b: stages { name } c: stages { format } } }`;
const query = (definition: string, limit: string) => `query Costly${definition} { ${EVENTS(limit)} }`;

async function post(text: string, variables?: Record<string, unknown>) {
  const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...bearer('demo-token-app'), 'content-type': 'application/json' }, body: JSON.stringify({ query: text, variables }) });
  return { status: response.status, body: await response.json() };
}
async function get(text: string) {
  const response = await fetch(`${server.url}/graphql?${new URLSearchParams({ query: text })}`, { headers: { ...bearer('demo-token-app'), accept: 'application/json' } });
  return { status: response.status, body: await response.json() };
}

const overCost = { status: 400, body: { errors: [{ extensions: { code: 'validation_failed', details: [{ field: 'cost', issue: 'limit_exceeded' }] } }] } };

describe('/graphql', () => {
  it('counts a limit given by a variable\'s default, by POST and by GET', async () => {
    const byDefault = query('($l: Int = 100)', ', limit: $l');
    expect(await post(byDefault)).toMatchObject(overCost);
    expect(await get(byDefault)).toMatchObject(overCost);
    // The same sent as a value, and the same limit written in the query: refused alike.
    expect(await post(byDefault, { l: 100 })).toMatchObject(overCost);
    expect(await post(query('', ', limit: 100'))).toMatchObject(overCost);
    // A sent value overrides the default; a small default passes.
    expect((await post(byDefault, { l: 20 })).status).toBe(200);
    expect((await post(query('($l: Int = 20)', ', limit: $l'))).status).toBe(200);
    expect((await get(query('($l: Int = 20)', ', limit: $l'))).status).toBe(200);
  });

  it('takes the default of a non-null variable and of a variable sent as null as the operation does', async () => {
    expect(await post(query('($l: Int! = 100)', ', limit: $l'))).toMatchObject(overCost);
    // null is a value: the field's own default (20) applies, and the operation is within the limits.
    expect((await post(query('($l: Int = 100)', ', limit: $l'), { l: null })).status).toBe(200);
  });
});

describe('/graphql reports the cost', () => {
  it('estimated from @cost and @listSize, and charged, in extensions.cost; the RateLimit header spends the same', async () => {
    const text = 'query Small { organisationEvents(organisationId: "org_demo", limit: 50) { data { id } } }';
    const send = async () => {
      const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
      const remaining = Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);
      return { remaining, body: (await response.json()) as { extensions?: { cost?: { estimated: number; charged: number } } } };
    };
    const first = await send();
    // The page 1 (an object) + 50 events × 1, their ids free.
    expect(first.body.extensions?.cost).toEqual({ estimated: 51, charged: 6 });
    const second = await send();
    expect(first.remaining - second.remaining).toBe(6);
    // A metered esports read declares @cost(weight: 11).
    const esports = await post('{ esportsEvents(limit: 10) { data { id } } }');
    expect(esports.body.extensions?.cost).toEqual({ estimated: 21, charged: 3 });
  });
});

describe('the realtime gateway', () => {
  // Each participant costs 1 + 3 × 20 = 61 through its lineups: 100 participants about 6,100.
  const subscription = (definition: string) =>
    `subscription Costly${definition} { eventChanged(eventId: "evt_open") { event { participantPage(limit: $l) { data { id a: lineup { __typename } b: lineup { __typename } c: lineup { __typename } } } } } }`;

  async function subscribe(text: string, variables?: Record<string, unknown>) {
    const client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: 'Bearer demo-token-app' }, retryAttempts: 0 });
    try {
      return await new Promise<unknown>((resolve) => {
        client.subscribe({ query: text, variables }, { next: () => undefined, error: resolve, complete: () => resolve('completed') });
        setTimeout(() => resolve('started'), 500);
      });
    } finally {
      await client.dispose();
    }
  }

  it('counts a limit given by a variable\'s default', async () => {
    expect(await subscribe(subscription('($l: Int = 100)'))).toMatchObject([{ extensions: { code: 'validation_failed', details: [{ field: 'cost', issue: 'limit_exceeded' }] } }]);
    expect(await subscribe(subscription('($l: Int = 20)'))).toBe('started');
    expect(await subscribe(subscription('($l: Int = 20)'), { l: 100 })).toMatchObject([{ extensions: { details: [{ field: 'cost' }] } }]);
  });
});
