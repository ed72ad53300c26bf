// Maps reference data, the platform operator's: npm run maps:import validates, upserts by id, leaves
// unchanged maps alone and records one maps.updated change when anything changed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runScript } from '../support/processes.ts';
import { updateMaps } from '../../subgraphs/competitions/maps/update.ts';
import { ApiError } from '../../platform/api/errors.ts';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'maps-update-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const v1Maps = async () => {
  const response = await fetch(`${server.url}/api/v1/maps?limit=100`, { headers: { 'x-api-key': 'demo-org-key-0001' } });
  return ((await response.json()) as { data: { id: string; name: string; imageUrl: string | null }[] }).data;
};

describe('maps reference data', () => {
  it('adds and renames maps, records one change, and changes nothing the second time', async () => {
    const before = await server.db.prisma.changeLog.count({ where: { type: 'maps.updated' } });
    const update = { maps: [{ id: 'map_vertigo', name: 'Vertigo', imageUrl: 'https://cdn.example.test/maps/vertigo.png' }, { id: 'map_train', name: 'Train (2026)' }, { id: 'map_nuke', name: 'Nuke', imageUrl: 'https://cdn.example.test/maps/nuke.png' }] };
    const result = await updateMaps(server.db, update, 'test');
    expect(result).toMatchObject({ created: ['map_vertigo'], updated: ['map_train'], unchanged: 1 });
    const maps = await v1Maps();
    expect(maps.find((m) => m.id === 'map_vertigo')).toEqual({ id: 'map_vertigo', name: 'Vertigo', imageUrl: 'https://cdn.example.test/maps/vertigo.png' });
    expect(maps.find((m) => m.id === 'map_train')).toEqual({ id: 'map_train', name: 'Train (2026)', imageUrl: null });
    const change = await server.db.prisma.changeLog.findUniqueOrThrow({ where: { id: result.changeId! } });
    expect(change).toMatchObject({ type: 'maps.updated', organisationId: null, eventId: null, resourceType: 'maps', resourceId: 'maps' });
    expect(change.payload).toEqual({ source: 'test', created: ['map_vertigo'], updated: ['map_train'] });

    const again = await updateMaps(server.db, update, 'test');
    expect(again).toEqual({ created: [], updated: [], unchanged: 3, changeId: null });
    expect(await server.db.prisma.changeLog.count({ where: { type: 'maps.updated' } })).toBe(before + 1);
  });

  it('refuses a bad file whole, naming each field, and changes nothing', async () => {
    const count = await server.db.prisma.map.count();
    for (const [data, field] of [
      [{ maps: [{ id: 'Vertigo', name: 'Vertigo' }] }, 'maps.0.id'],
      [{ maps: [{ id: 'map_a', name: '' }] }, 'maps.0.name'],
      [{ maps: [{ id: 'map_a', name: 'A', imageUrl: 'javascript:x' }] }, 'maps.0.imageUrl'],
      [{ maps: [{ id: 'map_a', name: 'A' }, { id: 'map_a', name: 'B' }] }, 'maps'],
      [{ maps: [] }, 'maps'],
      [{ maps: [{ id: 'map_a', name: 'A' }], extra: 1 }, 'extra'],
    ] as const) {
      const error = await updateMaps(server.db, data, 'test').catch((e: unknown) => e);
      expect(error, JSON.stringify(data)).toBeInstanceOf(ApiError);
      expect((error as ApiError).details?.map((d) => d.field), JSON.stringify(data)).toContain(field);
    }
    expect(await server.db.prisma.map.count()).toBe(count);
  });
});

describe('npm run maps:import', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ seed: false });
  });
  afterAll(() => db?.drop());

  const run = (script: string, args: string[] = []) =>
    runScript(script, args, db.url ? { DATABASE_URL: db.url } : { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') });

  it('applies a file to its database and reports what changed; a bad file is refused with its errors', async () => {
    if (!db.url) expect((await run('db:migrate')).code).toBe(0);
    const file = path.join(dir, 'maps.json');
    await writeFile(file, JSON.stringify({ maps: [{ id: 'map_vertigo', name: 'Vertigo' }, { id: 'map_overpass', name: 'Overpass' }] }));
    const first = await run('maps:import', [file]);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('2 created, 0 updated, 0 unchanged');
    expect((await run('maps:import', [file])).output).toContain('0 created, 0 updated, 2 unchanged');
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ maps: [{ id: 'nope', name: 'Nope' }] }));
    const refused = await run('maps:import', [bad]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('was not applied');
    expect(refused.output).toContain('maps.0.id');
  }, 120_000);
});
