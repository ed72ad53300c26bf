// GET /api/v2/auth/context through the facade, the same operation posted to /graphql, and the
// hand-written Koa + pg baseline, under the same load; the facade with its rate limiter off and with
// its counters in Redis, for what limiting costs; then the facade's memory after 20,000 requests.
import { randomUUID } from 'node:crypto';
import { load, printTable, startBenchServer, type BenchServer, type LoadResult } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const GRAPHQL_BODY = JSON.stringify({
  query: `query AuthContext { authContext { requestId applicationId actor { ... on ApplicationActor { type applicationId } ... on UserActor { type userId } } owner { type id } installation { id applicationId targetType targetId status createdAt } scopes permissions entitlements } }`,
});

export async function authContextBench(databaseUrl: string) {
  const platform = await startBenchServer('platform', databaseUrl);
  // GraphQL on a server of its own, so that the facade's servers compared below serve the same requests alone.
  const graphqlServer = await startBenchServer('platform', databaseUrl);
  const baseline = await startBenchServer('baseline', databaseUrl);
  const unlimited = await startBenchServer('platform', databaseUrl, { RATE_LIMIT: 'off' });
  const redis = await startBenchServer('platform', databaseUrl, { REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', RATE_LIMIT_PREFIX: `bench_${randomUUID()}_` });
  try {
    const targets = {
      facade: { url: `${platform.url}/api/v2/auth/context`, headers: TOKEN },
      graphql: { url: `${graphqlServer.url}/graphql`, method: 'POST' as const, headers: { ...TOKEN, 'content-type': 'application/json' }, body: GRAPHQL_BODY },
      baseline: { url: `${baseline.url}/api/v2/auth/context`, headers: TOKEN },
      'facade, limiter off': { url: `${unlimited.url}/api/v2/auth/context`, headers: TOKEN },
      'facade, limits in Redis': { url: `${redis.url}/api/v2/auth/context`, headers: TOKEN },
    };
    // Warm up every path (JIT, plans, prepared statements) before measuring.
    for (const [name, target] of Object.entries(targets)) await load({ name, ...target, seconds: 2 });
    // Two interleaved rounds; the better of each, so one noisy moment does not decide a ratio. Each
    // round also records the server's CPU time per request: what limiting costs is a few µs, less
    // than the noise of throughput on two shared cores, but visible in CPU per request.
    const servers: Record<string, BenchServer> = { facade: platform, graphql: graphqlServer, baseline, 'facade, limiter off': unlimited, 'facade, limits in Redis': redis };
    const best: Record<string, LoadResult> = {};
    const cpu: Record<string, number[]> = {};
    for (let round = 0; round < 3; round++) {
      for (const [name, target] of Object.entries(targets)) {
        const server = servers[name];
        const before = server.cpuMs();
        const result = await load({ name, ...target, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
        (cpu[name] ??= []).push(((server.cpuMs() - before) * 1000) / result.requests);
        if (!best[name] || result.rps > best[name].rps) best[name] = result;
      }
    }
    printTable('GET /api/v2/auth/context, 32 connections (PostgreSQL)', [best.facade, best.graphql, best.baseline, best['facade, limiter off'], best['facade, limits in Redis']], best.baseline);
    console.log(`facade / graphql  = ${(best.facade.rps / best.graphql.rps).toFixed(2)} (target ≥ 0.8)`);
    console.log(`facade / baseline = ${(best.facade.rps / best.baseline.rps).toFixed(2)} (target ≥ 0.6)`);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const cpuOf = (name: string) => median(cpu[name]);
    console.log('| server CPU per request, median of 3 rounds | µs |');
    console.log('|---|---|');
    for (const name of ['facade', 'facade, limits in Redis', 'facade, limiter off']) console.log(`| ${name} | ${cpuOf(name).toFixed(0)} |`);
    const cost = (name: string) => `${((cpuOf(name) / cpuOf('facade, limiter off') - 1) * 100).toFixed(1)} % of CPU per request, ${((1 - best[name].rps / best['facade, limiter off'].rps) * 100).toFixed(1)} % of throughput`;
    console.log(`rate limiter cost against the limiter off: counters in PostgreSQL ${cost('facade')}; in Redis ${cost('facade, limits in Redis')} (target ≤ 5 %)`);

    const before = platform.rssMiB();
    const run = await load({ name: 'facade', ...targets.facade, amount: 20_000 });
    console.log(`facade RSS after 20,000 more requests: ${platform.rssMiB().toFixed(0)} MiB (before ${before.toFixed(0)} MiB; target < 250 MB); non-2xx ${run.non2xx}`);
    const failures = Object.values(best).reduce((sum, result) => sum + result.non2xx, 0) + run.non2xx;
    if (failures) throw new Error(`${failures} requests failed during the benchmark`);
  } finally {
    await Promise.all([platform.stop(), graphqlServer.stop(), baseline.stop(), unlimited.stop(), redis.stop()]);
  }
}
