// Database functions Prisma's datamodel cannot state: prisma/functions/<name>.sql, one
// `CREATE OR REPLACE FUNCTION <name>` per file. Like the datamodel, the files say what the database
// should hold; the diff compares them with what the committed migrations leave and writes the rest.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fromRoot } from '../process/paths.ts';

export const functionsDir = fromRoot('prisma/functions');

interface Declared {
  file: string;
  sql: string;
}

async function declaredFunctions(dir: string): Promise<Declared[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(files.map(async (file) => ({ file, sql: (await readFile(path.join(dir, file), 'utf8')).trim() })));
}

/** Each function of the public schema, by signature (`name(argument types)`), with its definition. */
async function definitions(db: PGlite): Promise<Map<string, { name: string; definition: string }>> {
  const { rows } = await db.query<{ signature: string; name: string; definition: string }>(
    `SELECT p.proname AS name, format('%I(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) AS signature,
            pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind = 'f'`,
  );
  return new Map(rows.map((row) => [row.signature, row]));
}

/**
 * SQL that takes the functions the migrations leave (`migrationScripts`, in order) to the declared
 * ones: a changed or new file's statement, a DROP for a function no file declares; '' when they agree.
 */
export async function diffFunctions(migrationScripts: string[], dir = functionsDir): Promise<string> {
  const declared = await declaredFunctions(dir);
  const migrated = new PGlite();
  const wanted = new PGlite();
  try {
    for (const script of migrationScripts) {
      await migrated.exec(script);
      await wanted.exec(script);
    }
    const before = await definitions(migrated);
    for (const signature of before.keys()) await wanted.exec(`DROP FUNCTION ${signature}`);
    const fileOf = new Map<string, Declared>();
    for (const entry of declared) {
      const known = new Set((await definitions(wanted)).keys());
      await wanted.exec(entry.sql);
      const added = [...(await definitions(wanted)).entries()].filter(([signature]) => !known.has(signature));
      const name = entry.file.replace(/\.sql$/, '');
      if (added.length !== 1 || added[0][1].name !== name) {
        throw new Error(`prisma/functions/${entry.file} must create exactly one new function, named ${name}`);
      }
      fileOf.set(added[0][0], entry);
    }
    const after = await definitions(wanted);
    const statements: string[] = [];
    for (const signature of before.keys()) {
      if (!after.has(signature)) statements.push(`-- DropFunction\nDROP FUNCTION ${signature};`);
    }
    for (const [signature, { definition }] of after) {
      if (before.get(signature)?.definition !== definition) {
        statements.push(`-- CreateFunction (prisma/functions/${fileOf.get(signature)!.file})\n${fileOf.get(signature)!.sql}`);
      }
    }
    return statements.length === 0 ? '' : `${statements.join('\n\n')}\n`;
  } finally {
    await Promise.all([migrated.close(), wanted.close()]);
  }
}
