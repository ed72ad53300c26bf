// npm run db:seed: applies migrations, then loads the demo world unless it is loaded already.
import '../../subgraphs/kernel/settings-check.ts';
import { openDatabase } from '../../subgraphs/kernel/db/database.ts';
import { exitWithStartupFailure } from '../../subgraphs/kernel/startup.ts';
import { applyMigrations } from './migrations.ts';
import { loadDemoWorldIfEmpty } from '../seed/demo-world.ts';

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
