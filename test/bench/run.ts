// npm run bench: side-by-side load on PostgreSQL, printed as ratios and latencies.
import { authContextBench } from './auth-context.ts';
import { competitionBench } from './competitions.ts';
import { esportsBench } from './esports.ts';
import { memoryBench } from './memory.ts';
import { webhookBench } from './webhooks.ts';
import { tournamentBench } from './tournaments.ts';
import { tournamentEngineBench } from './tournament-engine.ts';
import { v1Bench } from './v1.ts';
import { realtimeBench } from './realtime.ts';
import { flagsBench } from './flags.ts';
import { routerBench } from './router.ts';
import { createBenchDatabase } from './support.ts';

const database = await createBenchDatabase();
try {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'auth') await authContextBench(database.url);
  if (!only || only === 'competitions') await competitionBench(database.url);
  if (!only || only === 'esports') await esportsBench(database.url);
  if (!only || only === 'webhooks') await webhookBench(database.url);
  if (!only || only === 'tournaments') await tournamentBench(database.url);
  if (!only || only === 'tournament-engine') await tournamentEngineBench();
  if (!only || only === 'v1') await v1Bench(database.url);
  if (!only || only === 'realtime') await realtimeBench(database.url);
  if (!only || only === 'router') await routerBench(database.url);
  if (!only || only === 'memory') await memoryBench();
  // Not part of the default run: 21 servers and 14 memory runs (about twenty minutes).
  if (only === 'flags') await flagsBench(database.url);
} finally {
  await database.drop();
}
// A part that failed has set process.exitCode.
process.exit();
