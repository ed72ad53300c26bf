// npm run db:migrate: applies the committed migrations to DATABASE_URL (or the embedded PGlite).
// `npm start` runs it as a short-lived child process when migrations are pending (--json), so the
// server never holds the schema engine's memory.
import { openDatabase } from '../../subgraphs/shared/db/database.ts';
import { applyMigrations } from './migrations.ts';
import { ensurePostgresDatabase, StartupError } from './database-setup.ts';

const json = process.argv.includes('--json');
try {
  const url = process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) await ensurePostgresDatabase(url);
  const db = openDatabase();
  const applied = await applyMigrations(db.adapterFactory);
  await db.close();
  if (json) console.log(JSON.stringify({ applied }));
  else console.log(applied.length ? `Applied to ${db.describe}: ${applied.join(', ')}` : `${db.describe} is up to date.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof StartupError ? error.message : `Migrations failed: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
}
