// npm start: the whole API on one port, on the embedded PGlite (or DATABASE_URL), demo world loaded.
// This process is the server: `npm start` execs it, so signals reach it. SIGTERM or SIGINT drain the
// requests in flight (at most SHUTDOWN_DRAIN_MS, default 8 s) and exit at most 1.5 s later (under
// 10 s with the default).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, pgliteDataDir, type Database } from '../subgraphs/shared/db/database.ts';
import { installProcessGuards } from '../subgraphs/shared/process-guards.ts';
import { applyMigrations, pendingMigrationNames } from '../prisma/tools/migrations.ts';
import { ensurePostgresDatabase, StartupError } from '../prisma/tools/database-setup.ts';
import { DEMO, isDemoWorldLoaded, loadDemoWorldIfEmpty } from '../prisma/seed/demo-world.ts';
import { subgraphUrlsFromEnv } from './graphql/gateway.ts';
import { createLogger } from './http/observability.ts';
import { createPlatform, type Platform } from './server.ts';

const logger = createLogger();
installProcessGuards(logger);

const port = Number(process.env.PORT ?? 4000);
const drainSetting = Number(process.env.SHUTDOWN_DRAIN_MS ?? 8_000);
const drainMs = Number.isFinite(drainSetting) && drainSetting >= 0 ? drainSetting : 8_000;
const databaseUrl = process.env.DATABASE_URL;
const onPostgres = Boolean(databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl));

const migrateChild = fileURLToPath(new URL('./migrate.mjs', import.meta.url));

interface Prepared {
  applied: number;
  seeded: boolean;
}

/** Runs the compiled migrate.mjs beside this bundle as a child process. */
function prepareInChild(seed: boolean): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [migrateChild, '--json', ...(seed ? ['--seed'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
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
async function openPrepared(): Promise<{ db: Database } & Prepared> {
  const seed = process.env.SEED_DEMO_WORLD !== '0';
  const bundled = existsSync(migrateChild);
  if (bundled && !onPostgres && !existsSync(path.join(pgliteDataDir(), 'PG_VERSION'))) {
    const prepared = await prepareInChild(seed);
    return { db: openDatabase(), ...prepared };
  }
  const db = openDatabase();
  const pending = (await pendingMigrationNames(db.query)).length > 0;
  const needsSeed = seed && (pending || !(await isDemoWorldLoaded(db.prisma)));
  if (!pending && !needsSeed) return { db, applied: 0, seeded: false };
  if (!bundled) {
    const applied = pending ? (await applyMigrations(db.adapterFactory)).length : 0;
    return { db, applied, seeded: seed ? await loadDemoWorldIfEmpty(db.prisma) : false };
  }
  // PGlite's data directory has one user at a time: hand it to the child, then take it back.
  if (db.kind === 'pglite') await db.close();
  const prepared = await prepareInChild(seed);
  return { db: db.kind === 'pglite' ? openDatabase() : db, ...prepared };
}

async function start(): Promise<{ platform: Platform; db: Database }> {
  if (onPostgres) await ensurePostgresDatabase(databaseUrl!);
  const { db, applied, seeded } = await openPrepared();
  const platform = await createPlatform({ db, subgraphUrls: subgraphUrlsFromEnv() });
  const { url } = await platform.listen(port, process.env.HOST ?? '0.0.0.0');

  const base = url.replace('127.0.0.1', 'localhost');
  console.log(`
Esports competition platform is up on ${db.describe}${applied ? ` (applied ${applied} migration(s))` : ''}${seeded ? ', demo world loaded' : ''}.

  REST v2      ${base}/api/v2        e.g. ${base}/api/v2/auth/context
  REST v1      ${base}/api/v1        (x-api-key), e.g. ${base}/api/v1/events
  GraphQL      ${base}/graphql   (open it in a browser for GraphiQL)
  Realtime     ${base.replace(/^http/, 'ws')}/api/v1/gateway (API keys), ${base.replace(/^http/, 'ws')}/graphql (tokens); graphql-ws
  OAuth        ${base}/oauth/token   ${base}/oauth/authorize (users sign in and consent)
               issuer ${platform.issuer.url}${platform.issuer.configured ? ' (PUBLIC_URL)' : ' (set PUBLIC_URL for clients that call another address)'}
  OpenAPI      ${base}/api/openapi.json
  Docs         ${base}/docs
  Health       ${base}/healthz  ${base}/readyz  ${base}/metrics

Demo credentials (docs/demo-world.md):
  access tokens   ${Object.values(DEMO.tokens).join(', ')}
  OAuth clients   ${Object.entries(DEMO.clients).map(([id, secret]) => `${id}:${secret}`).join(', ')}
  v1 API keys     ${Object.entries(DEMO.apiKeys).map(([org, key]) => `${org}=${key}`).join(', ')}
  user password   ${DEMO.password} (usr_alice, usr_bob, usr_carol, usr_dave, usr_erin)

Try:
  curl -H 'Authorization: Bearer ${DEMO.tokens.app}' ${base}/api/v2/auth/context

Server process ${process.pid}; stop it with Ctrl-C or SIGTERM.
`);
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
} catch (error) {
  // One sentence, never a stack trace: what went wrong and, where we know it, what to do.
  const message = error instanceof StartupError ? error.message : `Could not start: ${(error as Error)?.message ?? String(error)}`;
  console.error(message.split('\n')[0]);
  process.exit(1);
}
