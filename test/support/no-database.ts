// Setup file of the `unit` and `ci-once` projects (test/vitest.config.ts): the files declared
// independent of the run's database, which run once, not on each database. Whatever hands out the
// run's database (the seeded test database, a test server over it, a scratch environment on the
// server DATABASE_URL names, or the question whether there is one) throws here, so a file that needs
// it and sits in those lists fails instead of silently testing one database of the two.
import { vi } from 'vitest';

export const NO_DATABASE =
  'this file is in a project without the run\'s database (`unit` or `ci-once` in test/vitest.config.ts): it runs once, not on each database; move it to `e2e` or `ci` if it needs one';

function refuse(): never {
  throw new Error(NO_DATABASE);
}

vi.mock('./database.ts', () => ({ createTestDatabase: async () => refuse() }));
// createScratchDatabase stays: it is given a server of the file's own (own-postgres.ts), not the run's.
vi.mock('./scratch-database.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./scratch-database.ts')>()),
  postgresServerUrl: refuse,
  scratchEnvironment: async () => refuse(),
}));
