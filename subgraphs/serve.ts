// npm run start:subgraph -- <competitions|esports|developer>: one subgraph alone over HTTP.
// PORT (default 4001), DATABASE_URL as for npm start. Point a gateway at it with SUBGRAPH_URLS.
import pino from 'pino';
import { openDatabase } from './shared/db/database.ts';
import { installProcessGuards } from './shared/process-guards.ts';
import { SUBGRAPH_NAMES, type SubgraphName } from './index.ts';
import { startSubgraphServer } from './http-server.ts';
import { exitWithStartupFailure } from './shared/startup.ts';

const name = process.argv[2] as SubgraphName;
if (!SUBGRAPH_NAMES.includes(name)) {
  console.error(`usage: npm run start:subgraph -- <${SUBGRAPH_NAMES.join('|')}>`);
  process.exit(2);
}
installProcessGuards(pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: `subgraph-${name}` } }));
try {
  const db = openDatabase();
  const server = await startSubgraphServer(name, db, Number(process.env.PORT ?? 4001), process.env.HOST ?? '0.0.0.0');
  console.log(`Subgraph ${name} serves ${server.url} on ${db.describe} (server process ${process.pid})`);
  const stop = async () => {
    setTimeout(() => process.exit(1), 5_000).unref();
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  exitWithStartupFailure(error, `Could not start the ${name} subgraph`);
}
