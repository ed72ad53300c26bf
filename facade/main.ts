// npm start: the whole API on one port, on the embedded PGlite (or DATABASE_URL), demo world loaded.
// This process is the server: `npm start` execs it, so signals reach it. SIGTERM or SIGINT drain the
// requests in flight (at most SHUTDOWN_DRAIN_MS, default 8 s) and exit at most 1.5 s later (under
// 10 s with the default).
import '../platform/process/settings-check.ts';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, pgliteDataDir, type Database } from '../platform/db/database.ts';
import { holdDataDir, type DataDirHold } from '../platform/db/data-dir-lock.ts';
import { installProcessGuards, startupFinished } from '../platform/process/process-guards.ts';
import { assertCanListen, displayBase, isLoopback, listenAddressFromEnv } from '../platform/process/listen.ts';
import { exitWithStartupFailure, StartupError } from '../platform/process/startup.ts';
import { subgraphSecretFromEnv } from '../platform/process/subgraph-secret.ts';
import { applyMigrations, pendingMigrationNames } from '../platform/db/migrations.ts';
import { ensurePostgresDatabase } from '../platform/db/setup.ts';
import { DEMO, demoWorldWarning, isDemoWorldLoaded, loadDemoWorldIfEmpty } from '../subgraphs/demo-world.ts';
import { subgraphUrlsFromEnv } from './graphql/gateway.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { createLogger } from '../platform/process/logger.ts';
import { setting } from '../platform/process/config.ts';
import { createPlatform, type Platform } from './server.ts';

const logger = createLogger('esports-platform');
installProcessGuards(logger);

const drainMs = setting('SHUTDOWN_DRAIN_MS');
const onPostgres = setting('DATABASE_URL') !== undefined;

const migrateChild = fileURLToPath(new URL('./migrate.mjs', import.meta.url));

interface Prepared {
  applied: number;
  seeded: boolean;
}

/**
 * Runs the compiled migrate.mjs beside this bundle as a child process. On PGlite it works under this
 * process's lock on the directory (handed over by a token in its environment), so that no other
 * process can open the directory between this one closing it and the child opening it, or after.
 */
function prepareInChild(seed: boolean, hold: DataDirHold | undefined): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [migrateChild, '--json', ...(seed ? ['--seed'] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...hold?.handOverEnv() },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new StartupError(stderr.trim().split('\n')[0] || `Migrations failed (exit ${code}).`));
      const { applied, seeded } = JSON.parse(stdout.trim().split('\n').pop()!) as { applied: string[]; seeded: boolean };
      resolve({ applied: applied.length, seeded });
    });
  });
}

/**
 * The database, migrated and (unless SEED_DEMO_WORLD=0) holding the demo world. Pending migrations,
 * a new PGlite's initdb and the seeding run in a short-lived child process, so that neither the
 * schema engine nor the seeding's garbage is ever part of the server's memory; a start with nothing
 * to do only reads _prisma_migrations and one row. Run from sources (no bundle beside it), it does
 * the same work in-process.
 */
async function openPrepared(hold: DataDirHold | undefined): Promise<{ db: Database } & Prepared> {
  const seed = setting('SEED_DEMO_WORLD');
  const bundled = existsSync(migrateChild);
  if (bundled && !onPostgres && !existsSync(path.join(pgliteDataDir(), 'PG_VERSION'))) {
    const prepared = await prepareInChild(seed, hold);
    return { db: openDatabase(), ...prepared };
  }
  const db = openDatabase();
  const pending = (await pendingMigrationNames(db.query)).length > 0;
  const needsSeed = seed && (pending || !(await isDemoWorldLoaded(db.prisma)));
  if (!pending && !needsSeed) return { db, applied: 0, seeded: false };
  if (!bundled) {
    const applied = pending ? (await applyMigrations(db.adapterFactory)).length : 0;
    return { db, applied, seeded: seed ? await loadDemoWorldIfEmpty(db) : false };
  }
  // PGlite's data directory has one user at a time: hand it to the child, then take it back.
  if (db.kind === 'pglite') await db.close();
  const prepared = await prepareInChild(seed, hold);
  return { db: db.kind === 'pglite' ? openDatabase() : db, ...prepared };
}

async function start(): Promise<{ platform: Platform; db: Database }> {
  // Everything the environment says is checked before anything is opened.
  const { port, host } = listenAddressFromEnv(4000);
  await assertCanListen({ port, host });
  const subgraphUrls = subgraphUrlsFromEnv();
  const subgraphSecret = subgraphUrls ? subgraphSecretFromEnv('a gateway with SUBGRAPH_URLS') : undefined;
  // The supergraph's own addresses are placeholders: the gateway needs one for every subgraph.
  const unaddressed = subgraphUrls ? SUBGRAPH_NAMES.filter((name) => !subgraphUrls[name]) : [];
  if (unaddressed.length) throw new StartupError(`SUBGRAPH_URLS names no address for the ${unaddressed.join(' and ')} subgraph${unaddressed.length > 1 ? 's' : ''}: npm start needs one for each of ${SUBGRAPH_NAMES.join(', ')}.`);
  // On PGlite this process holds the directory's lock from here until it exits, through the
  // migration child's turn and the close and reopen around it (data-dir-lock.ts).
  const dataDir = pgliteDataDir();
  // The migrations run in a child process (openPrepared), which cannot reach this process's memory.
  if (!onPostgres && existsSync(migrateChild) && dataDir.startsWith('memory://')) {
    throw new StartupError(`PGLITE_DATA_DIR=${dataDir} is not a directory, and the embedded database of npm start lives in one: for a throwaway database, point it at an empty directory (PGLITE_DATA_DIR=$(mktemp -d)/pglite).`);
  }
  const hold = onPostgres || dataDir.startsWith('memory://') ? undefined : holdDataDir(dataDir);
  if (onPostgres) await ensurePostgresDatabase(setting('DATABASE_URL')!);
  const { db, applied, seeded } = await openPrepared(hold);
  const platform = await createPlatform({ db, subgraphUrls, subgraphSecret });
  const { url } = await platform.listen(port, host);
  const bound = Number(new URL(url).port);
  const exposed = !isLoopback(host);
  // The demo credentials are printed only for a database that holds the demo world.
  const demo = seeded || (await isDemoWorldLoaded(db.prisma));

  const base = displayBase(host, bound);
  const demoLines = demo
    ? `
Demo credentials (docs/demo-world.md):
  access tokens   ${Object.values(DEMO.tokens).join(', ')}
  OAuth clients   ${Object.entries(DEMO.clients).map(([id, secret]) => `${id}:${secret}`).join(', ')}
  v1 API keys     ${Object.entries(DEMO.apiKeys).map(([org, key]) => `${org}=${key}`).join(', ')}
  user password   ${DEMO.password} (usr_alice, usr_bob, usr_carol, usr_dave, usr_erin)

Try:
  curl -s -H 'Authorization: Bearer ${DEMO.tokens.app}' ${base}/api/v2/auth/context
`
    : `
No demo world in this database: applications get tokens from ${base}/oauth/token (docs/getting-started.md).
`;
  console.log(`
Esports competition platform is up on ${db.describe}${applied ? ` (applied ${applied} migration(s))` : ''}${seeded ? ', demo world loaded' : ''}.
Listening on ${host.includes(':') ? `[${host}]` : host}:${bound}${exposed ? ' (HOST): other machines can reach it.' : ', this machine only (set HOST, e.g. HOST=0.0.0.0, to accept other machines).'}

  Start here   ${base}/   (open it in a browser: the links below${demo ? ' and the demo credentials' : ''})
  REST v2      ${base}/api/v2        e.g. ${base}/api/v2/auth/context
  REST v1      ${base}/api/v1        (x-api-key), e.g. ${base}/api/v1/events
  GraphQL      ${base}/graphql   (open it in a browser for GraphiQL)
  Realtime     ${base.replace(/^http/, 'ws')}/api/v1/gateway (API keys), ${base.replace(/^http/, 'ws')}/graphql (tokens); graphql-ws
  OAuth        ${base}/oauth/token   ${base}/oauth/authorize (users sign in and consent)
               issuer ${platform.issuer.url}${platform.issuer.configured ? ' (PUBLIC_URL)' : ' (set PUBLIC_URL for clients that call another address)'}
  OpenAPI      ${base}/api/openapi.json
  Docs         ${base}/docs
  Health       ${base}/healthz  ${base}/readyz  ${base}/metrics
${demoLines}
Server process ${process.pid}; stop it with Ctrl-C or SIGTERM.
`);
  if (exposed && demo) console.warn(`${demoWorldWarning(host)}\n`);
  return { platform, db };
}

let running: { platform: Platform; db: Database } | undefined;
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: draining requests in flight');
  // Whatever happens while closing, the process is gone 1.5 s after the drain's limit.
  setTimeout(() => process.exit(1), drainMs + 1_500).unref();
  try {
    await running?.platform.close({ drainMs });
    await running?.db.close();
  } finally {
    process.exit(0);
  }
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  running = await start();
  startupFinished();
} catch (error) {
  // One sentence, never a stack trace: what went wrong and, where we know it, what to do.
  exitWithStartupFailure(error);
}
