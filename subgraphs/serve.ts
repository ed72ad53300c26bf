// npm run start:subgraph -- <competitions|esports|developer>: one subgraph alone over HTTP.
// PORT (default 4001), DATABASE_URL as for npm start. Point a gateway at it with SUBGRAPH_URLS.
import { openDatabase } from './shared/db/database.ts';
import { SUBGRAPH_NAMES, type SubgraphName } from './index.ts';
import { startSubgraphServer } from './http-server.ts';

const name = process.argv[2] as SubgraphName;
if (!SUBGRAPH_NAMES.includes(name)) {
  console.error(`usage: npm run start:subgraph -- <${SUBGRAPH_NAMES.join('|')}>`);
  process.exit(2);
}
const db = openDatabase();
const server = await startSubgraphServer(name, db, Number(process.env.PORT ?? 4001), process.env.HOST ?? '0.0.0.0');
console.log(`Subgraph ${name} serves ${server.url} on ${db.describe}`);
const stop = async () => {
  await server.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
