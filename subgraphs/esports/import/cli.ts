// npm run esports:import -- <file.json>: publishes a provider's esports data file into DATABASE_URL
// (or the embedded PGlite), through the same validation and upsert as the GraphQL mutation.
import { runFileCommand } from '../../../platform/db/file-command.ts';
import { importEsportsData } from './import.ts';

await runFileCommand('esports:import', 'imported', async (db, data, file) => {
  const result = await importEsportsData(db, data, `file:${file}`);
  return `Imported ${file} into ${db.describe}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged (import ${result.importId}).`;
});
