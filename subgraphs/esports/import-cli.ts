// npm run esports:import -- <file.json>: publishes a provider's esports data file into DATABASE_URL
// (or the embedded PGlite), through the same validation and upsert as the GraphQL mutation.
import { readFile } from 'node:fs/promises';
import { openDatabase } from '../shared/db/database.ts';
import { ApiError } from '../shared/errors.ts';
import { importEsportsData } from './import.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run esports:import -- <file.json>');
  process.exit(2);
}
let data: unknown;
try {
  data = JSON.parse(await readFile(file, 'utf8'));
} catch (error) {
  console.error(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  process.exit(1);
}
const db = openDatabase();
try {
  const result = await importEsportsData(db.prisma, data, `file:${file}`);
  console.log(`Imported ${file} into ${db.describe}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged (import ${result.importId}).`);
  await db.close();
  process.exit(0);
} catch (error) {
  if (error instanceof ApiError) {
    console.error(`${file} was not imported: ${error.message}`);
    for (const detail of error.details ?? []) console.error(`  ${detail.field ?? ''}: ${detail.issue}`);
  } else {
    console.error(`${file} was not imported:`, error);
  }
  await db.close();
  process.exit(1);
}
