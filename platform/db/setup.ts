// Before a server opens its database: a PostgreSQL database named by DATABASE_URL that does not exist
// yet is created (the server's own user needs CREATEDB for that), and every failure becomes one
// sentence an operator can act on, instead of a driver's or the migration engine's stack trace.
import pg from 'pg';
import { StartupError } from '../process/startup.ts';
import { setting } from '../process/config.ts';
import type { Database } from './database.ts';
import { pendingMigrationNames } from './migrations.ts';

export { StartupError };

const where = (url: URL) => `${url.hostname}:${url.port || 5432}`;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

function explain(error: unknown, url: URL): StartupError {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT') {
    return new StartupError(`Cannot reach PostgreSQL at ${where(url)} (${code}): is the server running, and is DATABASE_URL right?`);
  }
  if (code === '28P01' || code === '28000') {
    return new StartupError(`PostgreSQL at ${where(url)} refused the login of "${decodeURIComponent(url.username)}": check the user and password in DATABASE_URL.`);
  }
  return new StartupError(`Cannot use PostgreSQL at ${where(url)}: ${message ?? String(error)}`);
}

/** Makes sure the database of a postgresql:// URL exists; creates it when it does not. */
export async function ensurePostgresDatabase(connectionString: string): Promise<{ created: boolean }> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  try {
    await (await connect(connectionString)).end();
    return { created: false };
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw explain(error, url);
  }
  const maintenance = new URL(connectionString);
  maintenance.pathname = '/postgres';
  let client: pg.Client;
  try {
    client = await connect(maintenance.toString());
  } catch (error) {
    throw explain(error, url);
  }
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return { created: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '42P04') return { created: false }; // created meanwhile by another instance
    if (code === '42501') {
      throw new StartupError(
        `The database "${name}" does not exist on ${where(url)} and the user may not create it: run  createdb -h ${url.hostname} -p ${url.port || 5432} -U ${decodeURIComponent(url.username) || 'postgres'} ${name}  and start again.`,
      );
    }
    throw explain(error, url);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * For the processes that serve a database they do not migrate (npm run start:subgraph, npm run
 * worker): it answers and holds every committed migration, else one sentence saying what to do.
 */
export async function assertDatabaseReady(db: Database): Promise<void> {
  let pending: string[];
  try {
    pending = await pendingMigrationNames(db.query);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    if (db.kind === 'postgresql') throw explain(error, new URL(setting('DATABASE_URL') ?? db.describe));
    throw new StartupError(`Cannot open ${db.describe}: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  }
  if (pending.length > 0) {
    throw new StartupError(`${db.describe} lacks ${pending.length} of the committed migrations (${pending[0]}${pending.length > 1 ? ', …' : ''}): run npm run db:migrate (or npm start) against it first.`);
  }
}
