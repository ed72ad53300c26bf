// npm run db:reset: throws away everything in the database named by DATABASE_URL (or the embedded
// PGlite's directory) and restores the demo world: migrations applied afresh, demo world loaded.
// Stop the server first: PGlite's directory has one user at a time, and a running server would keep
// answering from what it has cached.
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { openDatabase, pgliteDataDir } from '../../subgraphs/shared/db/database.ts';
import { applyMigrations } from './migrations.ts';
import { ensurePostgresDatabase, StartupError } from './database-setup.ts';
import { loadDemoWorld } from '../seed/demo-world.ts';

try {
  const url = process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    await ensurePostgresDatabase(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    await client.end();
  } else {
    await rm(pgliteDataDir(), { recursive: true, force: true });
  }
  const db = openDatabase();
  const applied = await applyMigrations(db.adapterFactory);
  await loadDemoWorld(db.prisma);
  await db.close();
  console.log(`Reset ${db.describe}: ${applied.length} migration(s) applied, demo world loaded.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof StartupError ? error.message : `Reset failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  process.exit(1);
}
