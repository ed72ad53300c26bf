// The `unit` project's guard (test/support/no-database.ts): a file of that project that asks for the
// run's database fails with the reason, whichever way it asks.
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.ts';
import { postgresServerUrl, scratchEnvironment } from './support/scratch-database.ts';
import { startTestServer } from './support/server.ts';
import { NO_DATABASE } from './support/no-database.ts';

describe('a file declared independent of the database', () => {
  it('cannot open the run database, a test server over it or a scratch database', async () => {
    await expect(createTestDatabase()).rejects.toThrow(NO_DATABASE);
    await expect(startTestServer()).rejects.toThrow(NO_DATABASE);
    await expect(scratchEnvironment('t')).rejects.toThrow(NO_DATABASE);
    expect(() => postgresServerUrl()).toThrow(NO_DATABASE);
  });
});
