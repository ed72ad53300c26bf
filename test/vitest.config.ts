import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// Four sets of test files, as vitest projects; every test file is in exactly one
// (test/test-sets.test.ts checks it, and that npm test and .ci/run run every project).
//
// - `unit`: files that do not use the run's database (DATABASE_URL, or the PGlite template): they
//   give the same answer on both databases, so they run once, in npm test. Declared by name below;
//   inside this project whatever hands out the run's database throws (test/support/no-database.ts),
//   so a file that needs one cannot sit here unnoticed.
// - `e2e`: every other file, unless listed in CI or CI_ONCE: end to end over the run's database,
//   each capability at least once. `npm test` is `unit` + `e2e`.
// - `ci`: the slow files over the run's database (floods under the production heap flags, npm start
//   and its failures, processes of their own, the distributed topology, outages, Chromium): run by
//   .ci/run only, with `e2e` on PostgreSQL (`npm run test:ci`).
// - `ci-once`: slow files with a database of their own (a PostgreSQL of their own, a PGlite folder):
//   run by .ci/run once (`npm run test:ci-once`), under the same guard as `unit`.
//
// Run one file, whatever its set: npx vitest run --config test/vitest.config.ts test/e2e/x.test.ts

/** Files that never use the run's database. */
export const UNIT = [
  'test/client-errors.test.ts',
  'test/client-types.test.ts',
  'test/config.test.ts',
  'test/database-rules.test.ts',
  'test/demand-control.test.ts',
  'test/enum-agreement.test.ts',
  'test/gateway-internals.test.ts',
  'test/graphql-limits.test.ts',
  'test/health-budget.test.ts',
  'test/input-safety.test.ts',
  'test/json-shape.test.ts',
  'test/layout.test.ts',
  'test/listen.test.ts',
  'test/no-database.test.ts',
  'test/outage-handling.test.ts',
  'test/overlay-bracket-model.test.ts',
  'test/pglite-turns.test.ts',
  'test/realtime-transport.test.ts',
  'test/recipes.test.ts',
  'test/route-examples.test.ts',
  'test/schema-drift.test.ts',
  'test/standings-from-stored.test.ts',
  'test/test-sets.test.ts',
  'test/tournament-brackets-manager.test.ts',
  'test/tournament-generation.test.ts',
  'test/tournament-progression.test.ts',
  'test/tournament-settings.test.ts',
  'test/tournament-standings.test.ts',
  'test/tournament-swiss.test.ts',
  'test/views.test.ts',
  'test/webhook-addresses.test.ts',
  'test/zod-graphql.test.ts',
];

/** Slow files over the run's database, run by .ci/run only, on both databases. */
export const CI = [
  // Floods under the production heap flags (npm start), and 10,000 requests of resuming writers.
  'test/e2e/memory-floods.test.ts',
  'test/e2e/realtime-resume-load.test.ts',
  // Every operation fuzzed with malformed requests (http-conventions and openapi hold the rules in
  // npm test); the import commands (npm run esports:import, maps:import) in processes of their own.
  'test/e2e/fuzz.test.ts',
  'test/e2e/esports-import.test.ts',
  'test/e2e/maps-update.test.ts',
  // npm start and its failures, exposure and db:reset: processes of their own (npm start is also
  // run by doc-examples and client-docs in npm test).
  'test/e2e/db-reset.test.ts',
  'test/e2e/exposure.test.ts',
  'test/e2e/start.test.ts',
  'test/e2e/startup-failures.test.ts',
  // Chromium only (REQUIRE_BROWSER=1 in .ci/run); the pages' browser tests in graphiql, landing and
  // overlays stay in npm test, skipped where there is no Chromium.
  'test/e2e/oauth-browser.test.ts',
  'test/e2e/realtime-browser-example.test.ts',
  // PostgreSQL only (skipped on PGlite): several processes on one database, database outages.
  'test/e2e/outage.test.ts',
  'test/e2e/realtime-processes.test.ts',
  'test/e2e/router.test.ts',
  'test/e2e/webhook-crash.test.ts',
];

/** Slow files with a database of their own, run by .ci/run once. */
export const CI_ONCE = [
  // A PostgreSQL of their own, stopped, killed and crashed.
  'test/e2e/simulate-faults.test.ts',
  'test/scratch-database.test.ts',
  // The PGlite folder's lock, on a folder of its own.
  'test/e2e/data-dir-lock.test.ts',
  // No database, but slow: the distributed topology's subgraph process under a flood, db:diff of
  // database functions on PGlite, and the memory held by thousands of documents.
  'test/database-functions.test.ts',
  'test/document-memory.test.ts',
  'test/topology.test.ts',
];

const resolve = {
  // Vite would pick graphql's ESM build while Apollo's CommonJS packages load the CommonJS one, and
  // graphql refuses schemas from "another realm". Node itself loads the CommonJS build for both (npm
  // start), so the tests do the same.
  alias: [
    { find: /^graphql$/, replacement: require.resolve('graphql') },
    // The client package is tested from its TypeScript source (what its exports' "source" condition names).
    { find: /^@esports-platform\/client$/, replacement: new URL('../client/src/index.ts', import.meta.url).pathname },
  ],
};
const root = new URL('..', import.meta.url).pathname;
const exclude = ['test/bench/**', 'node_modules/**'];
// What every project shares. Not `extends: true`: a project would inherit the root's globalSetup and
// build a template of its own, at the same time as the root's.
const project = (name: string, include: string[], more: { exclude?: string[]; setupFiles?: string[]; testTimeout?: number } = {}) => ({
  resolve,
  test: {
    name,
    root,
    include,
    exclude: [...exclude, ...(more.exclude ?? [])],
    setupFiles: more.setupFiles ?? [],
    pool: 'forks' as const,
    testTimeout: more.testTimeout ?? 60_000,
    hookTimeout: 180_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});

export default defineConfig({
  resolve,
  test: {
    root,
    exclude,
    // The migrated, seeded database every test file's database copies, built once per run by the
    // root project; the projects are given it (inject('databaseTemplate')).
    globalSetup: ['test/support/database-template.ts'],
    // Files in parallel. Most of a file's time is its server's (in the file's own process) and the
    // processes it starts, waiting on sockets in turn; on 2 cores, 3 forks beat vitest's default of
    // one fewer than the cores. Measured in docs/development.md#tests; --maxWorkers overrides it.
    maxWorkers: 3,
    projects: [
      project('unit', UNIT, { setupFiles: ['test/support/no-database.ts'] }),
      project('e2e', ['test/**/*.test.ts'], { exclude: [...UNIT, ...CI, ...CI_ONCE] }),
      // Slow by definition: a test may take five minutes on a busy machine (the schema engine's
      // WebAssembly in database-functions took over 60 s a test beside two other files).
      project('ci', CI, { testTimeout: 300_000 }),
      project('ci-once', CI_ONCE, { setupFiles: ['test/support/no-database.ts'], testTimeout: 300_000 }),
    ],
  },
});
