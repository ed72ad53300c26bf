// Each test file gets its own database: an in-memory PGlite by default, or a fresh database on the
// PostgreSQL server named by DATABASE_URL (dropped afterwards). A seeded one starts as a copy of the
// run's template (database-template.ts), migrated and seeded once.
import { openDatabase, type Database } from '../../platform/db/database.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createScratchDatabase, postgresServerUrl } from './scratch-database.ts';

export interface TestDatabase extends Database {
  url?: string;
  drop(): Promise<void>;
}

/** The run's template, or none outside vitest (a benchmark script run with tsx migrates and seeds its own). */
function runTemplate(): ReturnType<typeof inject<'databaseTemplate'>> | undefined {
  try {
    return inject('databaseTemplate');
  } catch {
    return undefined;
  }
}

export async function createTestDatabase(options: { seed?: boolean; countQueries?: boolean } = {}): Promise<TestDatabase> {
  const base = postgresServerUrl();
  const template = options.seed === false ? undefined : runTemplate();
  let db: Database;
  let url: string | undefined;
  let drop = async () => undefined as void;
  if (base) {
    const scratch = await createScratchDatabase(base, 't', template?.kind === 'postgresql' ? template.database : undefined);
    url = scratch.url;
    drop = scratch.drop;
    db = openDatabase({ url, countQueries: options.countQueries, poolSize: 10 });
  } else {
    const loadDataDir = template?.kind === 'pglite' ? new Blob([await readFile(template.dump)]) : undefined;
    db = openDatabase({ url: 'pglite', dataDir: 'memory://', countQueries: options.countQueries, loadDataDir });
  }
  if (!template) {
    await applyMigrations(db.adapterFactory);
    if (options.seed !== false) await loadDemoWorld(db);
  }
  return {
    ...db,
    url,
    async close() {
      await db.close();
    },
    async drop() {
      await db.close();
      await drop();
    },
  };
}
