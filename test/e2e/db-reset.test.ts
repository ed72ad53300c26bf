// npm run db:reset restores the demo world, whatever the database holds: on the embedded PGlite (a
// folder) or on the PostgreSQL database DATABASE_URL names.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/database.ts';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { root } from '../support/processes.ts';

let env: Record<string, string>;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ env, cleanup } = await scratchEnvironment('t_reset'));
});
afterAll(() => cleanup());

const npm = (script: string) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });

const withDb = async <T>(work: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> => {
  const db = openDatabase({ url: env.DATABASE_URL || undefined, dataDir: env.PGLITE_DATA_DIR });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
};

describe('npm run db:reset', () => {
  it('restores the demo world after changes, and creates it in an empty database', async () => {
    const fresh = await npm('db:reset');
    expect(fresh.code, fresh.output).toBe(0);
    expect(fresh.output).toContain('demo world loaded');
    await withDb(async (db) => {
      await db.prisma.event.update({ where: { id: 'evt_open' }, data: { name: 'Changed', revision: 42 } });
      await db.prisma.event.deleteMany({ where: { id: 'evt_draft' } });
    });
    const again = await npm('db:reset');
    expect(again.code, again.output).toBe(0);
    await withDb(async (db) => {
      const open = await db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_open' } });
      expect(open).toMatchObject({ name: 'Demo Open', revision: 5 });
      expect(await db.prisma.event.count({ where: { id: 'evt_draft' } })).toBe(1);
    });
  }, 180_000);
});
