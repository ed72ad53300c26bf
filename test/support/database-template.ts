// Global setup of the test run: the migrated database with the demo world, built once. Each test
// file's database starts as a copy of it (database.ts): on PostgreSQL a database created from it as a
// TEMPLATE, on PGlite an in-memory database loaded from its dump. Loading the demo world takes
// seconds; copying it, a fraction of that, once per file and per server.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../platform/db/database.ts';
import { applyMigrations } from '../../platform/db/migrations.ts';
import { loadDemoWorld } from '../../subgraphs/demo-world.ts';
import { createScratchDatabase, postgresServerUrl } from './scratch-database.ts';

/** What the test files are given: the template database's name, or the file holding the PGlite dump. */
export type DatabaseTemplate = { kind: 'postgresql'; database: string } | { kind: 'pglite'; dump: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = postgresServerUrl();
  if (server) {
    const scratch = await createScratchDatabase(server, `tmpl_${randomBytes(3).toString('hex')}`);
    const db = openDatabase({ url: scratch.url, poolSize: 2 });
    try {
      await applyMigrations(db.adapterFactory);
      await loadDemoWorld(db);
    } finally {
      // A template must have no session open while databases are created from it.
      await db.close();
    }
    project.provide('databaseTemplate', { kind: 'postgresql', database: new URL(scratch.url).pathname.slice(1) });
    return scratch.drop;
  }
  // Built in a directory, then dumped as one tar file that each file's in-memory database loads.
  const dir = await mkdtemp(path.join(tmpdir(), 'esports-test-template-'));
  const db = openDatabase({ url: 'pglite', dataDir: path.join(dir, 'data') });
  try {
    await applyMigrations(db.adapterFactory);
    await loadDemoWorld(db);
  } finally {
    await db.close();
  }
  const built = new PGlite(path.join(dir, 'data'));
  try {
    const file = path.join(dir, 'pglite.tar');
    await writeFile(file, Buffer.from(await (await built.dumpDataDir('none')).arrayBuffer()));
    project.provide('databaseTemplate', { kind: 'pglite', dump: file });
  } finally {
    await built.close();
  }
  return () => rm(dir, { recursive: true, force: true });
}
