// Each test file gets its own database: an in-memory PGlite by default, or a fresh database on the
// PostgreSQL server named by DATABASE_URL (dropped afterwards).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../subgraphs/shared/db/database.ts';
import { applyMigrations } from '../../prisma/tools/migrations.ts';
import { loadDemoWorld } from '../../prisma/seed/demo-world.ts';

export interface TestDatabase extends Database {
  url?: string;
  drop(): Promise<void>;
}

const serverUrl = () => {
  const url = process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
};

export async function createTestDatabase(options: { seed?: boolean; countQueries?: boolean } = {}): Promise<TestDatabase> {
  const base = serverUrl();
  let db: Database;
  let url: string | undefined;
  let drop = async () => undefined as void;
  if (base) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const target = new URL(base);
    target.pathname = `/${name}`;
    url = target.toString();
    db = openDatabase({ url, countQueries: options.countQueries, poolSize: 10 });
    drop = async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
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
