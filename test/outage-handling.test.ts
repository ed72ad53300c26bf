// The pieces an outage goes through, each on its own (test/e2e/outage.test.ts stops a real server):
// which errors mean "the database cannot be reached" (real errors from node-postgres, Prisma and
// PGlite, against servers that refuse, hang up, hang, or answer the startup with an error), that a
// background task backs off and logs a run of failures once, and that the rate limiter's shared store
// failing neither refuses nor charges what was given back.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { GraphQLError } from 'graphql';
import { PrismaClient } from '../platform/db/generated/client.ts';
import { openDatabase } from '../platform/db/database.ts';
import { databaseUnavailable, isDatabaseUnavailable, unavailableOr } from '../platform/db/unavailable.ts';
import { ApiError, invalidToken } from '../platform/api/errors.ts';
import { coalesce } from '../platform/process/coalesce.ts';
import { FailureRun } from '../platform/process/failure-run.ts';
import { PolicyCounter, type Decision } from '../facade/http/rate-limits.ts';
import { buildOpenApiDocument } from '../facade/openapi/document.ts';
import { routeTable } from '../facade/routes/index.ts';

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server on 127.0.0.2 that does `onConnection` with every connection; answers its port. */
async function fakeServer(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A PostgreSQL ErrorResponse message, as a server sends it in answer to the startup message. */
function errorResponse(code: string, message: string): Buffer {
  const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(value), Buffer.from([0])]);
  const body = Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', code), field('M', message), Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const answering = (code: string, message: string) => fakeServer((socket) => socket.once('data', () => socket.end(errorResponse(code, message))));

/** The error of one query through node-postgres (a pool, as the platform uses it) and through Prisma over it. */
async function errorsOf(port: number, poolOptions: pg.PoolConfig = {}): Promise<{ pg: unknown; prisma: unknown }> {
  const url = `postgresql://app@127.0.0.2:${port}/db`;
  const pool = new pg.Pool({ connectionString: url, ...poolOptions });
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(new pg.Pool({ connectionString: url, ...poolOptions })) });
  try {
    const viaPg = await pool.query('SELECT 1').then(
      () => null,
      (error: unknown) => error,
    );
    const viaPrisma = await prisma.event.findFirst().then(
      () => null,
      (error: unknown) => error,
    );
    return { pg: viaPg, prisma: viaPrisma };
  } finally {
    await prisma.$disconnect().catch(() => undefined);
    await pool.end().catch(() => undefined);
  }
}

describe('which errors mean the database cannot be reached', () => {
  const cases: [string, () => Promise<number>][] = [
    ['connection refused', closedPort],
    ['the server hangs up at once (connection terminated)', () => fakeServer((socket) => socket.destroy())],
    ['"the database system is shutting down" (57P03)', () => answering('57P03', 'the database system is shutting down')],
    ['"the database system is starting up" (57P03)', () => answering('57P03', 'the database system is starting up')],
    ['"sorry, too many clients already" (53300)', () => answering('53300', 'sorry, too many clients already')],
    ['"terminating connection due to administrator command" (57P01)', () => answering('57P01', 'terminating connection due to administrator command')],
  ];
  for (const [what, serve] of cases) {
    it(`${what}: from node-postgres and from Prisma`, async () => {
      const errors = await errorsOf(await serve());
      expect(errors.pg).toBeTruthy();
      expect(errors.prisma).toBeTruthy();
      expect(isDatabaseUnavailable(errors.pg), String(errors.pg)).toBe(true);
      expect(isDatabaseUnavailable(errors.prisma), String(errors.prisma)).toBe(true);
      // And as graphql-js hands it to the error formatting: wrapped.
      expect(isDatabaseUnavailable(new GraphQLError('x', { originalError: errors.prisma as Error }))).toBe(true);
    });
  }

  it('a server that never answers: the connection timeout and the pool timeout', async () => {
    const port = await fakeServer(() => undefined);
    const pool = new pg.Pool({ connectionString: `postgresql://app@127.0.0.2:${port}/db`, max: 1, connectionTimeoutMillis: 200 });
    pool.on('error', () => undefined);
    const [connecting, waiting] = await Promise.all([pool.query('SELECT 1').catch((error: unknown) => error), pool.query('SELECT 1').catch((error: unknown) => error)]);
    await pool.end();
    expect(String(connecting)).toMatch(/timeout/);
    expect(String(waiting)).toMatch(/timeout/);
    expect(isDatabaseUnavailable(connecting), String(connecting)).toBe(true);
    expect(isDatabaseUnavailable(waiting), String(waiting)).toBe(true);
  });

  it('a closed PGlite, through every path of the Database', async () => {
    const db = openDatabase({ url: 'pglite', dataDir: 'memory://' });
    await db.query('SELECT 1');
    await db.close();
    for (const attempt of [() => db.sql('SELECT 1', []), () => db.prisma.event.findFirst(), () => db.transaction([{ text: 'SELECT 1', values: [] }]), () => db.query('SELECT 1')]) {
      const error = await attempt().then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('is not fooled by errors that are the client’s or ours', async () => {
    const port = await answering('28P01', 'password authentication failed for user "app"');
    const { pg: refusedLogin } = await errorsOf(port);
    for (const error of [
      refusedLogin,
      invalidToken(),
      new ApiError('validation_failed', 'no', [{ issue: 'x' }]),
      Object.assign(new Error('write guard stale failed'), { code: 'WG001', constraint: 'stale', detail: '3' }),
      Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }),
      Object.assign(new Error('Transaction API error: Transaction already closed'), { code: 'P2028' }),
      new Error('Internal error'),
      Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' }),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
    expect(unavailableOr(refusedLogin)).toBe(refusedLogin);
  });

  it('answers 503 service_unavailable with Retry-After, for REST and GraphQL alike', () => {
    const answer = databaseUnavailable();
    expect(answer.status).toBe(503);
    expect(answer.code).toBe('service_unavailable');
    expect(answer.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
    expect(answer.extensions).toMatchObject({ code: 'service_unavailable', details: [{ issue: 'database_unavailable' }], retryAfter: Number(answer.headers['Retry-After']) });
  });
});

describe('the OpenAPI document', () => {
  it('documents a 503 with Retry-After for every operation that needs the database (all but the index)', () => {
    const document = buildOpenApiDocument(routeTable) as { paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // The index answers without the database (it lists the demo credentials only when it can tell).
        if (operation.tags?.includes('Index')) {
          expect(operation.responses['503'], `${method} ${path}`).toBeUndefined();
          continue;
        }
        expect(operation.responses['503']?.headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
      }
    }
  });
});

describe('a background task while the database is away', () => {
  it('backs off instead of running at every wake-up, logs the run of failures once, and says when it works again', async () => {
    const logged: string[] = [];
    let failing = true;
    let runs = 0;
    const task = coalesce(
      async () => {
        runs++;
        if (failing) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      { failures: new FailureRun('the task', (message) => logged.push(message)) },
    );
    // Woken every 5 ms for a second (notifications and polls while the database is away).
    const waking = setInterval(() => void task(), 5);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // 100, 200, 400 ms apart: a handful of tries, not two hundred.
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(6);
    expect(logged).toEqual(['the task failed; retrying with backoff']);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    clearInterval(waking);
    task.cancel();
    expect(logged[1]).toMatch(/^the task works again after \d+ failed tries$/);
    expect(logged).toHaveLength(2);
  });
});

/**
 * A rate-limit table as rate-limiter-flexible's PostgreSQL store reads and writes it, in memory, whose
 * every answer comes a tick later and fails while `up` is false at that moment: a send can be on its
 * way when the store goes.
 */
function flakyStore() {
  const rows = new Map<string, { points: number; expire: number }>();
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const store = {
    up: true,
    rows,
    client: {
      query: async ({ text, values }: { text: string; values: unknown[] }) => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!store.up) throw refused;
        const now = Date.now();
        const key = values[0] as string;
        const row = rows.get(key);
        if (text.includes('SELECT')) return row && row.expire > now ? { rows: [row], rowCount: 1 } : { rows: [], rowCount: 0 };
        const points = values[1] as number;
        const next = row && row.expire > now ? { points: row.points + points, expire: row.expire } : { points, expire: values[2] as number };
        rows.set(key, next);
        return { rows: [next], rowCount: 1 };
      },
    },
  };
  return store;
}

describe('the rate limiter in front of a shared store that comes and goes', () => {
  it('charges the store, in the end, exactly what was taken or kept and not given back, whatever the store did meanwhile (property)', async () => {
    const step = fc.oneof(
      fc.constant({ op: 'take' as const }),
      fc.constant({ op: 'reserve' as const }),
      fc.nat({ max: 50 }).map((which) => ({ op: 'giveBack' as const, which })),
      fc.nat({ max: 50 }).map((which) => ({ op: 'keep' as const, which })),
      fc.constant({ op: 'flush' as const }),
      fc.constant({ op: 'settle' as const }),
      fc.boolean().map((up) => ({ op: 'store' as const, up })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 80 }), async (steps) => {
        const store = flakyStore();
        const counter = new PolicyCounter({ name: 'auth_failures', quota: 20, windowSeconds: 600 }, { kind: 'postgresql', client: store.client, syncMs: 3_600_000 });
        // Taken points (charged until given back) and held ones (charged once kept).
        const taken: Decision[] = [];
        const held: Decision[] = [];
        const flushes: Promise<void>[] = [];
        let charged = 0;
        try {
          for (const action of steps) {
            if (action.op === 'take' || action.op === 'reserve') {
              const decision = await (action.op === 'take' ? counter.take('127.0.0.1', 1) : counter.reserve('127.0.0.1', 1));
              if (!decision.allowed) continue;
              if (action.op === 'take') charged += 1;
              (action.op === 'take' ? taken : held).push(decision);
            } else if (action.op === 'giveBack' && taken.length + held.length) {
              const which = action.which % (taken.length + held.length);
              if (which < taken.length) {
                taken.splice(which, 1)[0].giveBack!();
                charged -= 1;
              } else held.splice(which - taken.length, 1)[0].giveBack!();
            } else if (action.op === 'keep' && held.length) {
              held.splice(action.which % held.length, 1)[0].keep!();
              charged += 1;
            } else if (action.op === 'flush') flushes.push(counter.flush());
            else if (action.op === 'settle') await Promise.all(flushes.splice(0));
            else if (action.op === 'store') store.up = action.up;
          }
          store.up = true;
          await Promise.all(flushes.splice(0));
          for (let round = 0; round < 3; round++) await counter.flush();
          // Checks still running are this instance's alone: the store never sees them.
          expect(store.rows.get('rl_auth_failures:127.0.0.1')?.points ?? 0).toBe(charged);
          // And this instance agrees: the rest of the quota, less what it still holds.
          let admitted = 0;
          while ((await counter.take('127.0.0.1', 1)).allowed) admitted += 1;
          expect(admitted).toBe(Math.max(0, 20 - charged - held.length));
        } finally {
          counter.stop();
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the rate limiter in front of a shared store, on a refusal', () => {
  it('answers the store\'s window end, not the one guessed when this instance began the window: waiting Retry-After is enough', async () => {
    const store = flakyStore();
    // No timed sends: the window begins in the store only when something is sent to it.
    const counter = new PolicyCounter({ name: 'api_key', quota: 3, windowSeconds: 2 }, { kind: 'postgresql', client: store.client, syncMs: 3_600_000 });
    try {
      for (let i = 0; i < 3; i++) expect((await counter.take('org_demo', 1)).allowed).toBe(true);
      // The store's window begins with the refusal's send, 1.2 s after this instance guessed it began.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const refused = await counter.take('org_demo', 1);
      expect(refused.allowed).toBe(false);
      expect(refused.resetSeconds).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, refused.resetSeconds * 1000));
      expect((await counter.take('org_demo', 1)).allowed).toBe(true);
    } finally {
      counter.stop();
    }
  });
});

describe('the rate limiter in front of a slow shared store', () => {
  it('never answers a reset longer than the window, however long reading the count took', async () => {
    const store = flakyStore();
    const slow = { query: async (request: { text: string; values: unknown[] }) => (await new Promise((resolve) => setTimeout(resolve, 300)), store.client.query(request)) };
    const counter = new PolicyCounter({ name: 'api_key', quota: 5, windowSeconds: 3 }, { kind: 'postgresql', client: slow, syncMs: 3_600_000 });
    try {
      const first = await counter.take('org_slow', 1);
      expect(first.allowed).toBe(true);
      expect(first.resetSeconds).toBe(3);
    } finally {
      counter.stop();
    }
  });
});

describe('the rate limiter when its shared store cannot be reached', () => {
  it('counts alone without refusing or failing, gives back what was not served, and logs the outage once', async () => {
    const logged: string[] = [];
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    let storeUp = false;
    const client = {
      query: async () => {
        if (!storeUp) throw refused;
        return { rows: [{ points: 0, expire: null }], rowCount: 1 };
      },
    };
    const counter = new PolicyCounter(
      { name: 'token', quota: 5, windowSeconds: 60 },
      { kind: 'postgresql', client, syncMs: 10, failures: new FailureRun('rate-limit store', (message) => logged.push(message)) },
    );
    try {
      // Ten requests the service could not serve: each taken, then given back.
      for (let i = 0; i < 10; i++) {
        const decision = await counter.take('app_demo', 1);
        expect(decision.allowed).toBe(true);
        decision.giveBack?.();
        await counter.flush();
      }
      // Nothing of them is charged: the whole quota is there, and still counted (alone) past it.
      for (let i = 0; i < 5; i++) expect((await counter.take('app_demo', 1)).allowed).toBe(true);
      expect((await counter.take('app_demo', 1)).allowed).toBe(false);
      await counter.flush();
      expect(logged).toEqual(['rate-limit store failed; retrying with backoff']);
    } finally {
      storeUp = true;
      counter.stop();
    }
  });
});
