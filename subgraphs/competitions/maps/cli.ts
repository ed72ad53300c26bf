// npm run maps:import -- <file.json>: the platform operator's update of maps reference data
// ({"maps": [{"id", "name", "imageUrl"}]}) into DATABASE_URL (or the embedded PGlite).
import { runFileCommand } from '../../../platform/db/file-command.ts';
import { updateMaps } from './update.ts';

await runFileCommand('maps:import', 'applied', async (db, data, file) => {
  const result = await updateMaps(db, data, `file:${file}`);
  return `Updated maps in ${db.describe}: ${result.created.length} created, ${result.updated.length} updated, ${result.unchanged} unchanged.`;
});
