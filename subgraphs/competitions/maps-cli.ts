// npm run maps:import -- <file.json>: the platform operator's update of maps reference data
// ({"maps": [{"id", "name", "imageUrl"}]}) into DATABASE_URL (or the embedded PGlite).
import { readFile } from 'node:fs/promises';
import { openDatabase } from '../shared/db/database.ts';
import { ApiError } from '../shared/errors.ts';
import { updateMaps } from './maps-update.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run maps:import -- <file.json>');
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
  const result = await updateMaps(db.prisma, data, `file:${file}`);
  console.log(`Updated maps in ${db.describe}: ${result.created.length} created, ${result.updated.length} updated, ${result.unchanged} unchanged.`);
  await db.close();
  process.exit(0);
} catch (error) {
  if (error instanceof ApiError) {
    console.error(`${file} was not applied: ${error.message}`);
    for (const detail of error.details ?? []) console.error(`  ${detail.field ?? ''}: ${detail.issue}`);
  } else {
    console.error(`${file} was not applied:`, error);
  }
  await db.close();
  process.exit(1);
}
