// Committed migrations: load them, diff the schema against them, apply them.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { migrationsDir, openSchemaEngine, schemaPath } from './schema-engine.ts';
import { diffFunctions } from './functions.ts';

const noFilters = { externalTables: [], externalEnums: [] };

export async function loadMigrationList(): Promise<MigrationList> {
  await mkdir(migrationsDir, { recursive: true });
  const entries = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lock = await readFile(lockPath, 'utf8').catch(() => null);
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lock },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      entries.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

/** An in-memory PGlite as main database, with a second one as its shadow database. */
function inMemoryFactory(): { factory: SqlMigrationAwareDriverAdapterFactory; close(): Promise<void> } {
  const main = new PGlite();
  const shadows: PGlite[] = [];
  const base = new PrismaPGlite(main);
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    connectToShadowDb: async () => {
      const shadow = new PGlite();
      shadows.push(shadow);
      return new PrismaPGlite(shadow).connect();
    },
  };
  return { factory, close: async () => void (await Promise.all([main, ...shadows].map((db) => db.close()))) };
}

/**
 * SQL that takes a database from the committed migrations to the current schema (the datamodel's
 * tables, then the functions of prisma/functions/); '' when none.
 */
export async function diffSchemaAgainstMigrations(): Promise<string> {
  const migrations = await loadMigrationList();
  const tables = await diffTables(migrations);
  const scripts = migrations.migrationDirectories.map((directory) => {
    const content = directory.migrationFile.content;
    return content.tag === 'ok' ? content.value : '';
  });
  const functions = await diffFunctions(tables === '' ? scripts : [...scripts, tables]);
  return [tables, functions].filter((part) => part !== '').join('\n');
}

async function diffTables(migrations: MigrationList): Promise<string> {
  const { factory, close } = inMemoryFactory();
  try {
    const engine = await openSchemaEngine(factory);
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrations },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: await readFile(schemaPath, 'utf8') }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    engine.free();
    return normaliseScript(result.stdout ?? '');
  } finally {
    await close();
  }
}

// The engine says "empty migration" in a comment when nothing differs.
function normaliseScript(script: string): string {
  const meaningful = script
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('--'))
    .join('\n');
  return meaningful === '' ? '' : script;
}

export async function writeMigration(name: string, sql: string): Promise<string> {
  const safe = name.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${safe}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  await writeFile(
    path.join(migrationsDir, 'migration_lock.toml'),
    '# Written by npm run db:diff; do not edit.\nprovider = "postgresql"\n',
  );
  return dir;
}

export async function applyMigrations(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const engine = await openSchemaEngine(factory);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await loadMigrationList(),
      filters: noFilters,
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/**
 * Names of committed migrations the database has not applied, read with plain SQL, so that a start
 * with nothing to apply never loads the schema engine (tens of megabytes of WebAssembly).
 */
export async function pendingMigrationNames(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<string[]> {
  const committed = (await loadMigrationList()).migrationDirectories.map((directory) => directory.path);
  const [{ exists }] = (await query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists`)).rows as { exists: boolean }[];
  if (!exists) return committed;
  const applied = new Set(
    (await query(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`)).rows.map((row) => row.migration_name as string),
  );
  return committed.filter((name) => !applied.has(name));
}
