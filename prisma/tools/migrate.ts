// npm run db:migrate: applies the committed migrations to DATABASE_URL (or the embedded PGlite).
import { openDatabase } from '../../subgraphs/shared/db/database.ts';
import { applyMigrations } from './migrations.ts';

const db = openDatabase();
const applied = await applyMigrations(db.adapterFactory);
console.log(applied.length ? `Applied to ${db.describe}: ${applied.join(', ')}` : `${db.describe} is up to date.`);
await db.close();
process.exit(0);
