// A fresh, empty database on a PostgreSQL server, dropped when done.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

async function run(serverUrl: string, sql: string | ((version: number) => string)) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const version = typeof sql === 'function' ? Number((await client.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0].server_version_num) : 0;
    await client.query(typeof sql === 'function' ? sql(version) : sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(serverUrl: string, prefix = 't', template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  // A copy of a template copies its files (after a checkpoint), not by PostgreSQL 15's default
  // WAL_LOG, which logs the template's pages as they are in memory: a sequence's page holds its last
  // value, not the value its WAL record logged ahead, so after a crash the copy's sequence goes back
  // to the template's and hands out again what it handed out (ChangeLog ids collide: writes answer
  // 500). Before 15 every copy was a file copy, and STRATEGY is not known.
  const copy = (version: number) => `CREATE DATABASE ${name} TEMPLATE ${template}${version >= 150000 ? ' STRATEGY FILE_COPY' : ''}`;
  await run(serverUrl, template ? copy : `CREATE DATABASE ${name}`);
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
