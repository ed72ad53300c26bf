import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Vite would pick graphql's ESM build while Apollo's CommonJS packages load the CommonJS one,
    // and graphql refuses schemas from "another realm". Node itself loads the CommonJS build for
    // both (npm start), so the tests do the same.
    alias: [
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      // The client package is tested from its TypeScript source (what its exports' "source" condition names).
      { find: /^@esports-platform\/client$/, replacement: new URL('../client/src/index.ts', import.meta.url).pathname },
    ],
  },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    // The migrated, seeded database every test file's database copies, built once per run.
    globalSetup: ['test/support/database-template.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
