// npm run db:migrate: applies the committed migrations to DATABASE_URL (or the embedded PGlite).
// With --seed it also loads the demo world into a database that lacks it. `npm start` runs this as a
// short-lived child process (--json) when there is anything to do, so that the schema engine and the
// seeding never weigh on the server's memory.
import '../../platform/process/settings-check.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { setting } from '../../platform/process/config.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { ensurePostgresDatabase, StartupError } from '../../platform/db/setup.ts';
import { loadDemoWorldIfEmpty } from '../../subgraphs/demo-world.ts';

const json = process.argv.includes('--json');
const seed = process.argv.includes('--seed');
try {
  const url = setting('DATABASE_URL');
  if (url) await ensurePostgresDatabase(url);
  const db = openDatabase();
  const applied = await applyMigrations(db.adapterFactory);
  const seeded = seed ? await loadDemoWorldIfEmpty(db) : false;
  await db.close();
  if (json) console.log(JSON.stringify({ applied, seeded }));
  else console.log(applied.length ? `Applied to ${db.describe}: ${applied.join(', ')}` : `${db.describe} is up to date.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof StartupError ? error.message : `Migrations failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  process.exit(1);
}
