// npm run bench: side-by-side load on PostgreSQL, printed as ratios and latencies.
import { authContextBench } from './auth-context.ts';
import { createBenchDatabase } from './support.ts';

const database = await createBenchDatabase();
try {
  await authContextBench(database.url);
} finally {
  await database.drop();
}
process.exit(0);
