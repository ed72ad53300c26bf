// npm run router: Hive Gateway over the subgraph services (npm run start:subgraph), configured by
// router.yaml. PORT (default 4000), HOST (default 127.0.0.1), SUBGRAPH_SECRET (required, as the
// subgraphs'), SUBGRAPH_URLS to replace router.yaml's subgraph addresses. No database: it only routes.
import '../../platform/process/settings-check.ts';
import { readFile } from 'node:fs/promises';
import { supergraphPath } from '../../subgraphs/compose.ts';
import { installProcessGuards, startupFinished } from '../../platform/process/process-guards.ts';
import { assertCanListen, listenAddressFromEnv } from '../../platform/process/listen.ts';
import { exitWithStartupFailure } from '../../platform/process/startup.ts';
import { createLogger } from '../../platform/process/logger.ts';
import { subgraphSecretFromEnv } from '../../platform/process/subgraph-secret.ts';
import { subgraphUrlsFromEnv } from '../graphql/gateway.ts';
import { readRouterConfig } from './router-config.ts';
import { startRouter } from './hive-router.ts';

const logger = createLogger('router');
// Hive Gateway's logger reads LOG_LEVEL itself and refuses pino's levels it lacks (silent, fatal):
// the level is pino's alone, and Hive Gateway logs through it (hive-router.ts).
delete process.env.LOG_LEVEL;
installProcessGuards(logger);
try {
  // Checked here for its message; router.yaml inserts it (${env.SUBGRAPH_SECRET}).
  subgraphSecretFromEnv('the router');
  const config = await readRouterConfig();
  const address = listenAddressFromEnv(4000);
  await assertCanListen(address);
  const subgraphUrls = subgraphUrlsFromEnv();
  const router = await startRouter({ config, supergraph: await readFile(supergraphPath, 'utf8'), subgraphUrls, ...address, logger });
  const targets = Object.entries({ ...config.subgraphUrls, ...subgraphUrls }).map(([name, url]) => `${name}=${url}`);
  console.log(`Router serves ${router.url} over ${targets.join(', ')} (server process ${process.pid}).`);
  const stop = async () => {
    setTimeout(() => process.exit(1), 5_000).unref();
    await router.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  startupFinished();
} catch (error) {
  exitWithStartupFailure(error, 'Could not start the router');
}
