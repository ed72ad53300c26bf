// npm run start:subgraph -- <competitions|esports|developer>: one subgraph alone over HTTP.
// PORT (default 4001), HOST (default 127.0.0.1), SUBGRAPH_SECRET (required), DATABASE_URL as for
// npm start. Point a gateway at it with SUBGRAPH_URLS and the same SUBGRAPH_SECRET.
import '../platform/process/settings-check.ts';
import { openDatabase } from '../platform/db/database.ts';
import { installProcessGuards, startupFinished } from '../platform/process/process-guards.ts';
import { SUBGRAPH_NAMES, type SubgraphName } from './index.ts';
import { startSubgraphServer } from './http-server.ts';
import { assertCanListen, isLoopback, listenAddressFromEnv } from '../platform/process/listen.ts';
import { exitWithStartupFailure } from '../platform/process/startup.ts';
import { createLogger } from '../platform/process/logger.ts';
import { subgraphSecretFromEnv } from '../platform/process/subgraph-secret.ts';
import { assertDatabaseReady } from '../platform/db/setup.ts';
import { demoWorldWarning, isDemoWorldLoaded } from './demo-world.ts';

const name = process.argv[2] as SubgraphName;
if (!SUBGRAPH_NAMES.includes(name)) {
  console.error(`usage: npm run start:subgraph -- <${SUBGRAPH_NAMES.join('|')}>`);
  process.exit(2);
}
installProcessGuards(createLogger(`subgraph-${name}`));
try {
  const secret = subgraphSecretFromEnv(`the ${name} subgraph`);
  const address = listenAddressFromEnv(4001);
  await assertCanListen(address);
  const db = openDatabase();
  await assertDatabaseReady(db);
  const demoExposed = !isLoopback(address.host) && (await isDemoWorldLoaded(db.prisma));
  const server = await startSubgraphServer(name, db, { secret, ...address });
  console.log(`Subgraph ${name} serves ${server.url} on ${db.describe} (server process ${process.pid}); it answers only requests carrying SUBGRAPH_SECRET in svc-subgraph-secret.`);
  if (demoExposed) console.warn(demoWorldWarning(address.host));
  const stop = async () => {
    setTimeout(() => process.exit(1), 5_000).unref();
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  startupFinished();
} catch (error) {
  // Exiting releases the data directory's lock; a database that failed to open is not waited on.
  exitWithStartupFailure(error, `Could not start the ${name} subgraph`);
}
