// Each test file gets its own database: an in-memory PGlite by default, or a fresh database on the
// PostgreSQL server named by DATABASE_URL (dropped afterwards).
import { openDatabase, type Database } from '../../subgraphs/shared/db/database.ts';
import { applyMigrations } from '../../prisma/tools/migrations.ts';
import { loadDemoWorld } from '../../prisma/seed/demo-world.ts';
import { createScratchDatabase, postgresServerUrl } from './scratch-database.ts';

export interface TestDatabase extends Database {
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(options: { seed?: boolean; countQueries?: boolean } = {}): Promise<TestDatabase> {
  const base = postgresServerUrl();
  let db: Database;
  let url: string | undefined;
  let drop = async () => undefined as void;
  if (base) {
    const scratch = await createScratchDatabase(base);
    url = scratch.url;
    drop = scratch.drop;
    db = openDatabase({ url, countQueries: options.countQueries, poolSize: 10 });
  } else {
    db = openDatabase({ url: 'pglite', dataDir: 'memory://', countQueries: options.countQueries });
  }
  await applyMigrations(db.adapterFactory);
  if (options.seed !== false) await loadDemoWorld(db.prisma);
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
