// prisma/functions/ as the diff script reads it: what it writes for a new, changed, removed or
// misnamed function, and that what it writes applies (on PGlite; the migrations themselves run on
// both databases in every test's template).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffFunctions } from '../platform/db/functions.ts';

const fn = (name: string, body: string) =>
  `CREATE OR REPLACE FUNCTION ${name}(a integer) RETURNS integer LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN ${body};\nEND\n$$;`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'functions-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const declare = (name: string, sql: string) => writeFile(path.join(dir, `${name}.sql`), sql);

async function applies(scripts: string[]): Promise<Record<string, number>> {
  const db = new PGlite();
  try {
    for (const script of scripts) await db.exec(script);
    const { rows } = await db.query<{ name: string }>(`SELECT proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`);
    const answers: Record<string, number> = {};
    for (const { name } of rows) answers[name] = (await db.query<{ v: number }>(`SELECT ${name}(1) AS v`)).rows[0].v;
    return answers;
  } finally {
    await db.close();
  }
}

describe('the diff of prisma/functions/', () => {
  it('writes a new function, nothing once it is migrated, and its new body when it changes', async () => {
    await declare('plus_one', fn('plus_one', 'a + 1'));
    const created = await diffFunctions([], dir);
    expect(created).toContain('CREATE OR REPLACE FUNCTION plus_one');
    expect(await applies([created])).toEqual({ plus_one: 2 });
    expect(await diffFunctions([created], dir)).toBe('');

    await declare('plus_one', fn('plus_one', 'a + 100'));
    const changed = await diffFunctions([created], dir);
    expect(changed).toContain('a + 100');
    expect(await applies([created, changed])).toEqual({ plus_one: 101 });
    expect(await diffFunctions([created, changed], dir)).toBe('');
  });

  it('drops a function no file declares, and the old signature of one whose arguments changed', async () => {
    const migrated = [fn('gone', 'a'), fn('kept', 'a')];
    await declare('kept', 'CREATE OR REPLACE FUNCTION kept(a integer, b integer DEFAULT 0) RETURNS integer LANGUAGE sql AS $$ SELECT a + b + 5 $$;');
    const diff = await diffFunctions(migrated, dir);
    expect(diff).toContain('DROP FUNCTION gone(a integer);');
    expect(diff).toContain('DROP FUNCTION kept(a integer);');
    expect(await applies([...migrated, diff])).toEqual({ kept: 6 });
    expect(await diffFunctions([...migrated, diff], dir)).toBe('');
  });

  it('refuses a file that creates two functions, or one of another name', async () => {
    await declare('named', fn('other', 'a'));
    await expect(diffFunctions([], dir)).rejects.toThrow(/named\.sql must create exactly one new function, named named/);
    await rm(path.join(dir, 'named.sql'));
    await declare('pair', `${fn('pair', 'a')}\n${fn('pair_too', 'a')}`);
    await expect(diffFunctions([], dir)).rejects.toThrow(/pair\.sql/);
  });
});
