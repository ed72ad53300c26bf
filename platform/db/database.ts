// One database handle for the process: Prisma Client 7 over a driver adapter, PGlite by default,
// PostgreSQL when DATABASE_URL says so. Also the raw pieces that migrations need.
import path from 'node:path';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { yieldBetweenQueries } from './pglite-turns.ts';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import { holdDataDir } from './data-dir-lock.ts';
import { setting } from '../process/config.ts';
import { countingFields, QueryCounter } from './query-counter.ts';

export type Db = PrismaClient;

export interface Database {
  kind: 'pglite' | 'postgresql';
  prisma: PrismaClient;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Plain SQL for the few places that need neither a prepared statement nor Prisma (health checks). */
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * A prepared statement straight on the driver, for the hottest read of every request (the access
   * token): Prisma's raw-query path costs about a third of that request's throughput. Counted like
   * Prisma's statements.
   */
  sql: SqlRunner;
  /**
   * Statements run in one transaction on one connection, sent back to back: on PostgreSQL they are
   * pipelined, so the connection is held for the SQL alone and never waits on Node between two of
   * them. The first failure rolls the transaction back and is thrown. Answers each statement's rows.
   */
  transaction(statements: SqlStatement[]): Promise<Record<string, unknown>[][]>;
  /** Calls `notify` on every NOTIFY on `channel` (and once after a lost listener reconnects); answers the unlisten. */
  listen(channel: string, notify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  describe: string;
  /**
   * SQL statements sent so far, or those one request's work sent (by its x-request-id); counted only
   * when opened with countQueries.
   */
  queryCount(requestId?: string): number;
  /** With countQueries: runs a request's handling so that its statements are counted for it. */
  countingFor?<T>(requestId: string, work: () => T): T;
}

/** What a writer outside a request needs: Prisma for its cold reads, pipelined statements for its transaction. */
export type WriteAccess = Pick<Database, 'prisma' | 'transaction'>;

export type SqlRunner = <T>(text: string, params: unknown[]) => Promise<T[]>;

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export interface DatabaseOptions {
  /** postgresql://… for PostgreSQL; otherwise PGlite in dataDir ('memory://' for an in-memory one). */
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /** Count the statements Prisma sends, for tests that assert batching. */
  countQueries?: boolean;
  /** An in-memory PGlite starts as a copy of this dump (dumpDataDir): the tests' migrated, seeded database. */
  loadDataDir?: Blob;
}

// Wraps a driver adapter so that every statement it runs, in or out of a transaction, is counted.
function counting<T extends object>(target: T, counter: QueryCounter): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'queryRaw' || name === 'executeRaw') {
        return (...args: unknown[]) => {
          counter.add();
          return value.apply(object, args);
        };
      }
      if (name === 'startTransaction' || name === 'connect') {
        return async (...args: unknown[]) => counting(await value.apply(object, args), counter);
      }
      return value.bind(object);
    },
  });
}

// Named prepared statements let PostgreSQL skip planning on the hot path.
// Names are remembered per statement text: the set of statements is fixed, and hashing the text on
// every query would be work on the hot path for nothing.
// At most 4 MiB of statement text is remembered (its characters, two bytes each at most, and 64 for
// the entry): the statements are Prisma's and the platform's, but their texts vary with list sizes.
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_BYTES = 4 * 1024 * 1024;
let statementNamesBytes = 0;
function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (!name) {
    name = `p_${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`;
    const bytes = 2 * query.sql.length + 64;
    if (statementNamesBytes + bytes <= STATEMENT_NAMES_BYTES) {
      statementNames.set(query.sql, name);
      statementNamesBytes += bytes;
    }
  }
  return name;
}

export function openDatabase(options: DatabaseOptions = {}): Database {
  const url = options.url ?? setting('DATABASE_URL');
  const counter: QueryCounter | undefined = options.countQueries ? new QueryCounter() : undefined;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.poolSize, counter);
  return openPglite(options.dataDir ?? pgliteDataDir(), counter, options.loadDataDir);
}

/** How long a request waits for a PostgreSQL connection (DATABASE_CONNECT_TIMEOUT_MS, default 10 s). */
function connectTimeoutMs(): number {
  return setting('DATABASE_CONNECT_TIMEOUT_MS');
}

/** Where the embedded database lives: PGLITE_DATA_DIR, else ./data/pglite. */
export const pgliteDataDir = () => setting('PGLITE_DATA_DIR') ?? path.resolve('data/pglite');

function openPostgres(url: string, poolSize = setting('DATABASE_POOL_SIZE'), counter?: QueryCounter): Database {
  // Pipelined connections: a transaction's statements go out together (see transaction below); a
  // single query, Prisma's included, behaves as on any connection.
  // A connection is waited for at most DATABASE_CONNECT_TIMEOUT_MS (a server that does not answer, or
  // a pool that stays busy that long): the request then answers 503 instead of hanging.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, pipeline: true, connectionTimeoutMillis: connectTimeoutMs() });
  // An idle connection the server closed (a restart) is dropped by the pool and replaced on demand.
  pool.on('error', () => undefined);
  // Every connection keeps a listener of its own for its lifetime: a connection released and taken
  // again while its socket's data is still being read (a release inside a query's callback hands it
  // to the next waiter at once) has none for that moment, and the server's "terminating connection"
  // read next would be an uncaught exception. Its queries are failed all the same.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const adapterFactory = new PrismaPg(pool, { statementNameGenerator: statementName });
  // Prisma's pg adapter runs a migration script split at every semicolon, which cuts a function's
  // body (prisma/functions/) apart; the script goes to the server whole, as one simple query, instead.
  const migrationFactory: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => Object.assign(await adapterFactory.connect(), { executeScript: async (script: string) => void (await pool.query(script)) }),
    connectToShadowDb: () => adapterFactory.connectToShadowDb(),
  };
  const prisma = new PrismaClient({ adapter: counter ? counting(adapterFactory, counter) : adapterFactory });
  const listener = new PostgresListener(url);
  return {
    kind: 'postgresql',
    listen: (channel, notify) => listener.listen(channel, notify),
    prisma,
    adapterFactory: migrationFactory,
    describe: url.replace(/\/\/[^@]*@/, '//***@'),
    sql: async <T>(text: string, params: unknown[]) => {
      counter?.add();
      return (await pool.query({ name: statementName({ sql: text }), text, values: params })).rows as T[];
    },
    async transaction(statements) {
      counter?.add(statements.length + 2);
      const client = await pool.connect();
      let broken: Error | undefined;
      // A connection lost while checked out is reported on the client as well as to the statements in
      // flight; without a listener that report would be an uncaught exception.
      const lost = (error: Error) => (broken ??= error);
      client.on('error', lost);
      try {
        const sent = [
          client.query('BEGIN'),
          ...statements.map(({ text, values }) => client.query({ name: statementName({ sql: text }), text, values })),
          client.query('COMMIT'),
        ];
        const settled = await Promise.allSettled(sent);
        // After a failure the statements behind it are refused and COMMIT answers ROLLBACK.
        const failure = settled.find((result) => result.status === 'rejected');
        if (failure) {
          const reason = (failure as PromiseRejectedResult).reason as Error & { code?: string };
          if (!reason.code || client.getTransactionStatus() !== 'I') broken = reason;
          throw reason;
        }
        return settled.slice(1, -1).map((result) => (result as PromiseFulfilledResult<pg.QueryResult>).value.rows);
      } finally {
        // A connection that failed outside SQL (or is somehow still in a transaction) is not reused.
        client.off('error', lost);
        client.release(broken);
      }
    },
    ...countingFields(counter),
    query: (sql, params) => pool.query(sql, params as unknown[]),
    async close() {
      await listener.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

function openPglite(dataDir: string, counter?: QueryCounter, loadDataDir?: Blob): Database {
  const inMemory = dataDir.startsWith('memory://');
  // One process at a time on a directory (data-dir-lock.ts): a second one refuses here, before PGlite
  // has touched a file.
  const hold = inMemory ? undefined : holdDataDir(dataDir);
  // PGlite's default shared_buffers (128 MB) is most of its resident memory; the embedded database
  // is small and the OS caches its files anyway (PGLITE_SHARED_BUFFERS overrides it).
  const startParams = [...(PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams, '-c', `shared_buffers=${setting('PGLITE_SHARED_BUFFERS')}`];
  // 'memory://' rather than no directory: PGlite loads a dump only into a named one.
  const client = new PGlite(dataDir, { startParams, ...(inMemory && loadDataDir ? { loadDataDir } : {}) });
  // A directory PGlite cannot open fails its first query, which says so; not an unhandled rejection too.
  client.waitReady.catch(() => undefined);
  yieldBetweenQueries(client);
  const adapterFactory = new PrismaPGlite(client);
  // PGlite keeps one session: its shadow database for the schema engine is a second, in-memory one.
  const migrationFactory: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: () => adapterFactory.connect(),
    connectToShadowDb: () => new PrismaPGlite(new PGlite()).connect(),
  };
  const prisma = new PrismaClient({ adapter: counter ? counting(adapterFactory, counter) : adapterFactory });
  return {
    kind: 'pglite',
    async listen(channel, notify) {
      const unlisten = await client.listen(channel, () => notify());
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    ...countingFields(counter),
    prisma,
    adapterFactory: migrationFactory,
    describe: inMemory ? 'PGlite (in memory)' : `PGlite (${dataDir})`,
    sql: async <T>(text: string, params: unknown[]) => {
      counter?.add();
      return (await client.query(text, params)).rows as T[];
    },
    async transaction(statements) {
      counter?.add(statements.length + 2);
      // One session in process: its transaction() holds it exclusively, statements run one by one.
      return client.transaction(async (tx) => {
        const rows: Record<string, unknown>[][] = [];
        for (const { text, values } of statements) rows.push((await tx.query<Record<string, unknown>>(text, values)).rows);
        return rows;
      });
    },
    query: (sql, params) => client.query(sql, params as unknown[]) as Promise<{ rows: Record<string, unknown>[] }>,
    async close() {
      try {
        await prisma.$disconnect();
        await client.close();
      } finally {
        hold?.release();
      }
    },
  };
}

/**
 * One connection outside the pool that LISTENs for the whole process. If it is lost it reconnects
 * (every second until it can) and wakes every listener once, for what it may have missed meanwhile.
 */
class PostgresListener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly listeners = new Map<string, Set<() => void>>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly url: string) {}

  async listen(channel: string, notify: () => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    const first = !set;
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(notify);
    const client = await this.connected();
    if (first) await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    return async () => {
      set.delete(notify);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await this.client?.query(`UNLISTEN "${channel.replace(/"/g, '')}"`).catch(() => undefined);
      }
    };
  }

  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    return (this.connecting ??= this.connect().finally(() => (this.connecting = null)));
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const notify of this.listeners.get(message.channel) ?? []) notify();
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    for (const channel of this.listeners.keys()) await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    this.client = client;
    return client;
  }

  private lost(client: pg.Client) {
    if (this.client !== client || this.closed) return;
    this.client = null;
    const again = () => {
      this.retry = null;
      if (this.closed) return;
      this.connected().then(
        () => {
          for (const set of this.listeners.values()) for (const notify of set) notify();
        },
        () => (this.retry = setTimeout(again, 1000)),
      );
    };
    this.retry = setTimeout(again, 1000);
  }

  async close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client ?? (await this.connecting?.catch(() => null));
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
