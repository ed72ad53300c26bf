// Exact metering: one esports_calls unit per successful call, none for a failed one, recorded per
// application, installation and UTC day, readable by the application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';
import { createSubgraphContext } from '../../platform/domain/context.ts';
import { esportsMatch } from '../../subgraphs/esports/data.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.db.prisma.installation.create({ data: { id: 'ins_demo_team', applicationId: 'app_demo', targetType: 'team', targetId: 'team_alpha', status: 'active' } });
});
afterAll(() => server?.close());

const today = () => new Date().toISOString().slice(0, 10);
const units = async (installationId?: string) =>
  (await server.db.prisma.usageRecord.findMany({ where: { applicationId: 'app_demo', metric: 'esports_calls', ...(installationId ? { installationId } : {}) } })).reduce((sum, row) => sum + row.units, 0);
const esports = (path: string, options: { installation?: string | null; token?: string } = {}) =>
  call(server.url, path, {
    token: options.token ?? 'demo-token-app',
    headers: options.installation === null ? {} : { 'svc-installation-id': options.installation ?? 'ins_demo_org' },
  });

const SUCCESSES = [
  '/api/v2/esports/events',
  '/api/v2/esports/events/ese_major/stages',
  '/api/v2/esports/events/ese_major/statistics/maps',
  '/api/v2/esports/events/ese_major/stages/ess_major_groups/groups/esg_major_a',
  '/api/v2/esports/matches/esm_final',
  '/api/v2/esports/matches/esm_final/statistics',
];

describe('metering', () => {
  it('200 concurrent successful calls and a mix of failing ones: exactly 200 units', async () => {
    const before = await units();
    const failures: Promise<{ status: number }>[] = [
      ...Array.from({ length: 20 }, () => esports('/api/v2/esports/matches/esm_nope')), // 404
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/events/ese_major/stages/ess_major_playoffs/groups/esg_major_a')), // 404
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/matches/esm_final', { installation: null })), // 400
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/matches/esm_final', { installation: 'ins_nope' })), // 403
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/matches/esm_final', { token: 'bad-token' })), // 401
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/events?limit=500')), // 400
      ...Array.from({ length: 10 }, () => esports('/api/v2/esports/events', { token: 'demo-token-noesports', installation: 'ins_noesports_org' })), // 403 entitlement
    ];
    const successes = Array.from({ length: 200 }, (_, i) => esports(SUCCESSES[i % SUCCESSES.length]));
    const [ok, failed] = await Promise.all([Promise.all(successes), Promise.all(failures)]);
    expect(ok.every((r) => r.status === 200)).toBe(true);
    expect(failed.every((r) => r.status >= 400)).toBe(true);
    expect((await units()) - before).toBe(200);
  });

  it('counts per installation and day', async () => {
    const orgBefore = await units('ins_demo_org');
    const teamBefore = await units('ins_demo_team');
    await Promise.all([esports('/api/v2/esports/matches/esm_final'), esports('/api/v2/esports/matches/esm_final', { installation: 'ins_demo_team' }), esports('/api/v2/esports/matches/esm_final', { installation: 'ins_demo_team' })]);
    expect((await units('ins_demo_org')) - orgBefore).toBe(1);
    expect((await units('ins_demo_team')) - teamBefore).toBe(2);
    // Units are kept per application, installation and UTC day (spread over a few shard rows).
    const rows = await server.db.prisma.usageRecord.findMany({ where: { applicationId: 'app_demo', installationId: 'ins_demo_team' } });
    expect(new Set(rows.map((row) => row.day.toISOString().slice(0, 10)))).toEqual(new Set([today()]));
    expect(rows.every((row) => row.metric === 'esports_calls')).toBe(true);
  });

  it('a GraphQL query meters each esports field that succeeds', async () => {
    const before = await units();
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' },
      body: JSON.stringify({ query: '{ a: esportsMatch(matchId: "esm_final") { id } b: esportsMatch(matchId: "esm_nope") { id } c: esportsEvents { data { id } } }' }),
    });
    const body = await response.json();
    expect(body.data.a.id).toBe('esm_final');
    expect(body.errors).toHaveLength(1);
    expect((await units()) - before).toBe(2);
  });

  it('a unit that cannot be committed fails its call, and the call is not counted', async () => {
    const before = await units();
    // Take the usage table away for a moment: the read succeeds, its unit cannot be written.
    await server.db.query('ALTER TABLE "UsageRecord" RENAME TO "UsageRecordAway"');
    let response;
    try {
      response = await esports('/api/v2/esports/matches/esm_final');
    } finally {
      await server.db.query('ALTER TABLE "UsageRecordAway" RENAME TO "UsageRecord"');
    }
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('internal');
    expect(await units()).toBe(before);
    expect((await esports('/api/v2/esports/matches/esm_final')).status).toBe(200);
    expect(await units()).toBe(before + 1);
  });

  it('a call whose time is up fails with 503 and is not metered', async () => {
    const before = await units();
    const ctx = createSubgraphContext(server.db, { requestId: 'late', authorization: 'Bearer demo-token-app', installationId: 'ins_demo_org', deadline: Date.now() - 1 });
    await expect(esportsMatch(ctx, 'esm_final')).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await units()).toBe(before);
  });

  it('the application reads its usage per day and installation, in REST and GraphQL', async () => {
    const expected = await server.db.prisma.usageRecord.groupBy({
      by: ['day', 'installationId'],
      where: { applicationId: 'app_demo', metric: 'esports_calls' },
      _sum: { units: true },
      orderBy: [{ day: 'asc' }, { installationId: 'asc' }],
    });
    const response = await call(server.url, `/api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=${today()}&to=${today()}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      metric: 'esports_calls',
      from: today(),
      to: today(),
      total: expected.reduce((sum, row) => sum + row._sum.units!, 0),
      days: expected.map((row) => ({ day: today(), installationId: row.installationId, units: row._sum.units })),
    });
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app' },
      body: JSON.stringify({ query: `{ application(id: "app_demo") { usage(metric: esports_calls, from: "${today()}", to: "${today()}") { total days { installationId units } } } }` }),
    });
    expect((await graphql.json()).data.application.usage.total).toBe(response.body.data.total);
    // Reading usage costs nothing.
    expect((await call(server.url, `/api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=${today()}&to=${today()}`)).body.data.total).toBe(response.body.data.total);
  });

  it('usage of another application is 404; bad ranges are 400', async () => {
    expect((await call(server.url, '/api/v2/developer/apps/app_noesports/usage?metric=esports_calls&from=2026-01-01&to=2026-01-31')).status).toBe(404);
    for (const query of ['metric=views&from=2026-01-01&to=2026-01-02', 'metric=esports_calls&from=2026-02-01&to=2026-01-01', 'metric=esports_calls&from=2024-01-01&to=2026-01-01', 'metric=esports_calls&from=2026-02-30&to=2026-03-01', 'metric=esports_calls&from=2024-01-01', 'from=2026-01-01']) {
      const response = await call(server.url, `/api/v2/developer/apps/app_demo/usage?${query}`);
      expect(response.status, query).toBe(400);
    }
  });

  it('usage covers the current UTC month when from and to are omitted, REST and GraphQL alike', async () => {
    const now = new Date();
    const from = `${now.toISOString().slice(0, 7)}-01`;
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const response = await call(server.url, '/api/v2/developer/apps/app_demo/usage?metric=esports_calls');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ metric: 'esports_calls', from, to });
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app' },
      body: JSON.stringify({ query: '{ application(id: "app_demo") { usage(metric: esports_calls) { from to total } } }' }),
    });
    expect((await graphql.json()).data.application.usage).toEqual({ from, to, total: response.body.data.total });
  });
});
