// npm run db:reset: throws away everything in the database named by DATABASE_URL (or the embedded
// PGlite's directory) and restores the demo world: migrations applied afresh, demo world loaded.
// On PGlite it takes the directory's lock before it removes anything: with a server (or any other
// process) on the directory it refuses and leaves it as it is (data-dir-lock.ts).
import '../../platform/process/settings-check.ts';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, pgliteDataDir } from '../../platform/db/database.ts';
import { setting } from '../../platform/process/config.ts';
import { holdDataDir, LOCK_FILE } from '../../platform/db/data-dir-lock.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { ensurePostgresDatabase, StartupError } from '../../platform/db/setup.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';

try {
  const url = setting('DATABASE_URL');
  if (url) {
    await ensurePostgresDatabase(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    await client.end();
  } else {
    // Held until the process exits; everything in the directory but the lock (and its siblings) goes.
    const dir = pgliteDataDir();
    holdDataDir(dir);
    for (const entry of await readdir(dir)) if (!entry.startsWith(LOCK_FILE)) await rm(path.join(dir, entry), { recursive: true, force: true });
  }
  const db = openDatabase();
  const applied = await applyMigrations(db.adapterFactory);
  await loadDemoWorld(db);
  await db.close();
  console.log(`Reset ${db.describe}: ${applied.length} migration(s) applied, demo world loaded.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof StartupError ? error.message : `Reset failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  process.exit(1);
}
