// GET /api/v2/auth/context through the facade, the same operation posted to /graphql, and the
// hand-written Koa + pg baseline, under the same load; then the facade's memory after 20,000 requests.
import { load, printTable, startBenchServer, type LoadResult } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const GRAPHQL_BODY = JSON.stringify({
  query: `query AuthContext { authContext { requestId applicationId actor { ... on ApplicationActor { type applicationId } ... on UserActor { type userId } } owner { type id } installation { id applicationId targetType targetId status createdAt } scopes permissions entitlements } }`,
});

export async function authContextBench(databaseUrl: string) {
  const platform = await startBenchServer('platform', databaseUrl);
  const baseline = await startBenchServer('baseline', databaseUrl);
  try {
    const targets = {
      facade: { url: `${platform.url}/api/v2/auth/context`, headers: TOKEN },
      graphql: { url: `${platform.url}/graphql`, method: 'POST' as const, headers: { ...TOKEN, 'content-type': 'application/json' }, body: GRAPHQL_BODY },
      baseline: { url: `${baseline.url}/api/v2/auth/context`, headers: TOKEN },
    };
    // Warm up every path (JIT, plans, prepared statements) before measuring.
    for (const [name, target] of Object.entries(targets)) await load({ name, ...target, seconds: 2 });
    // Two interleaved rounds; the better of each, so one noisy moment does not decide a ratio.
    const best: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ name, ...target, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
        if (!best[name] || result.rps > best[name].rps) best[name] = result;
      }
    }
    printTable('GET /api/v2/auth/context, 32 connections (PostgreSQL)', [best.facade, best.graphql, best.baseline], best.baseline);
    console.log(`facade / graphql  = ${(best.facade.rps / best.graphql.rps).toFixed(2)} (target ≥ 0.8)`);
    console.log(`facade / baseline = ${(best.facade.rps / best.baseline.rps).toFixed(2)} (target ≥ 0.6)`);

    const before = platform.rssMiB();
    const run = await load({ name: 'facade', ...targets.facade, amount: 20_000 });
    console.log(`facade RSS after 20,000 more requests: ${platform.rssMiB().toFixed(0)} MiB (before ${before.toFixed(0)} MiB; target < 250 MB); non-2xx ${run.non2xx}`);
    const failures = Object.values(best).reduce((sum, result) => sum + result.non2xx, 0) + run.non2xx;
    if (failures) throw new Error(`${failures} requests failed during the benchmark`);
  } finally {
    await platform.stop();
    await baseline.stop();
  }
}
