// npm run db:diff -- <name>: writes the next migration from prisma/schema.prisma.
import { diffSchemaAgainstMigrations, writeMigration } from '../../platform/db/migrations.ts';

const name = process.argv[2];
if (!name) {
  console.error('usage: npm run db:diff -- <migration_name>');
  process.exit(2);
}
const sql = await diffSchemaAgainstMigrations();
if (sql === '') {
  console.log('The schema matches the committed migrations: nothing to write.');
} else {
  console.log(`Wrote ${await writeMigration(name, sql)}`);
}
// The WASM engine keeps timers alive for a while; the work is done.
process.exit(0);
