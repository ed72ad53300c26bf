// npm run db:seed: applies migrations, then loads the demo world unless it is loaded already.
import '../../platform/process/settings-check.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { exitWithStartupFailure } from '../../platform/process/startup.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorldIfEmpty } from '../../subgraphs/demo-world.ts';

try {
  const db = openDatabase();
  await applyMigrations(db.adapterFactory);
  const loaded = await loadDemoWorldIfEmpty(db);
  console.log(loaded ? `Loaded the demo world into ${db.describe}.` : `${db.describe} already holds the demo world.`);
  await db.close();
  process.exit(0);
} catch (error) {
  exitWithStartupFailure(error, 'Seeding failed');
}
