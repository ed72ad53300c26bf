// The shape of the operator's file commands (npm run esports:import, npm run maps:import): read one
// JSON file, apply it to DATABASE_URL (or the embedded PGlite), report what changed or, for a refused
// file, every field at fault; exit 0 or 1.
import { readFile } from 'node:fs/promises';
import { openDatabase, type Database } from './database.ts';
import { ApiError } from '../api/errors.ts';
import { exitWithStartupFailure } from '../process/startup.ts';

export async function runFileCommand(script: string, failed: string, apply: (db: Database, data: unknown, file: string) => Promise<string>): Promise<never> {
  const file = process.argv[2];
  if (!file) {
    console.error(`usage: npm run ${script} -- <file.json>`);
    process.exit(2);
  }
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    console.error(`Cannot read ${file} as JSON: ${(error as Error).message}`);
    process.exit(1);
  }
  let db: Database;
  try {
    db = openDatabase();
  } catch (error) {
    // A directory another process holds (data-dir-lock.ts): one sentence, nothing applied.
    exitWithStartupFailure(error, `${file} was not ${failed}`);
  }
  try {
    console.log(await apply(db, data, file));
    await db.close();
    process.exit(0);
  } catch (error) {
    if (error instanceof ApiError) {
      console.error(`${file} was not ${failed}: ${error.message}`);
      for (const detail of error.details ?? []) console.error(`  ${detail.field ?? ''}: ${detail.issue}`);
    } else {
      console.error(`${file} was not ${failed}:`, error);
    }
    await db.close();
    process.exit(1);
  }
}
