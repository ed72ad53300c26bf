// A fresh, empty database on a PostgreSQL server, dropped when done.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

async function run(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(serverUrl: string, prefix = 't', template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await run(serverUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** DATABASE_URL when it names a PostgreSQL server. */
export function postgresServerUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

/**
 * The environment for a command that opens its own database: a fresh database on the PostgreSQL
 * server DATABASE_URL names, or else a PGlite folder in a temporary directory; removed by cleanup().
 */
export async function scratchEnvironment(prefix: string): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const server = postgresServerUrl();
  if (server) {
    const scratch = await createScratchDatabase(server, prefix);
    return { env: { DATABASE_URL: scratch.url }, cleanup: scratch.drop };
  }
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  return { env: { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
