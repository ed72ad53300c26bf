// Abuse of the event creation route: the server started as `npm start` starts it (heap bounded by
// --max-old-space-size=128) takes a flood of distinct creation requests — valid ones with distinct
// Idempotency-Keys and names near the length limit, invalid bodies, no credential, unknown tokens —
// and lives: /healthz answers throughout, nothing answers 5xx, and every valid one created one event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, isAlive, startServerProcess, type ServerProcess } from '../support/processes.ts';

let server: ServerProcess;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let env: Record<string, string>;
  ({ env, cleanup } = await scratchEnvironment('t_orgflood'));
  server = await startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', SHUTDOWN_DRAIN_MS: '1000', RATE_LIMIT_TOKEN: '1000000/60' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await cleanup?.();
  assertNoServerLeft();
});

const REQUESTS = 600;
const CONCURRENCY = 24;

/** Request i: a valid creation (i % 4 = 0, 1), an invalid body, no credential or an unknown token. */
function request(i: number): { headers: Record<string, string>; body: string; valid: boolean } {
  const kind = i % 6;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': `flood-${i}-${'k'.repeat(200)}` };
  if (kind < 4) headers.authorization = 'Bearer demo-token-app';
  else if (kind === 4) headers.authorization = `Bearer flood-token-${i}-${'t'.repeat(300)}`;
  const name = `Flood ${i} ${'x'.repeat(80)}`.slice(0, 100);
  const body =
    kind < 2
      ? { name, timezone: 'Europe/Berlin', startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-01-02T00:00:00Z' }
      : kind === 2
        ? { name, timezone: `Nowhere/${i}`, extra: 'y'.repeat(2000) }
        : { name: `${name}${'z'.repeat(i % 3 ? 50 : 5000)}`, slug: `-bad-${i}-` };
  return { headers, body: JSON.stringify(body), valid: kind < 2 };
}

describe('a flood of event creations', () => {
  it('leaves the process alive and healthy, with no 5xx and one event per valid request', async () => {
    const statuses: number[] = [];
    let slowestHealthMs = 0;
    let healthFailures = 0;
    let flooding = true;
    const health = (async () => {
      while (flooding) {
        const started = Date.now();
        try {
          const response = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5000) });
          if (response.status !== 200) healthFailures++;
        } catch {
          healthFailures++;
        }
        slowestHealthMs = Math.max(slowestHealthMs, Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const { headers, body, valid } = request(i);
          const response = await fetch(`${server.base}/api/v2/organisations/org_demo/events`, { method: 'POST', headers, body });
          await response.arrayBuffer();
          statuses.push(valid ? response.status : -response.status);
        }
      }),
    );
    flooding = false;
    await health;

    expect(isAlive(server.pid), `the server died:\n${server.output().slice(-2000)}`).toBe(true);
    expect(healthFailures).toBe(0);
    expect(slowestHealthMs).toBeLessThan(5000);
    const abs = statuses.map(Math.abs);
    expect(abs.filter((status) => status >= 500)).toEqual([]);
    // Valid requests created (201); the others were refused as client errors (400, 401, or 429 for the anonymous quota).
    expect(statuses.filter((status) => status > 0)).toEqual(Array(REQUESTS / 3).fill(201));
    expect(statuses.filter((status) => status < 0).every((status) => [400, 401, 413, 429].includes(-status))).toBe(true);

    // One event per valid request, each with its own slug; the list reads them all back.
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: Response = await fetch(`${server.base}/api/v2/organisations/org_demo/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        headers: { authorization: 'Bearer demo-token-app' },
      });
      const body = (await page.json()) as { data: { name: string; slug: string }[]; meta: { nextCursor: string | null } };
      count += body.data.filter((event) => event.name.startsWith('Flood ')).length;
      cursor = body.meta.nextCursor;
    } while (cursor);
    expect(count).toBe(REQUESTS / 3);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 300_000);
});
