// Publishing esports data: the import command and the provider mutation validate every record,
// upsert by id idempotently and record a change-log row.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { fromRoot } from '../../platform/process/paths.ts';
import { runScript } from '../support/processes.ts';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'esports-import-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const NEW_DATA = {
  events: [{ id: 'ese_cup', name: 'Spring Cup', startsAt: '2026-04-01T10:00:00Z' }],
  stages: [{ id: 'ess_cup_main', eventId: 'ese_cup', name: 'Main', status: 'upcoming', format: 'swiss', position: 1 }],
  groups: [{ id: 'esg_cup_a', eventId: 'ese_cup', stageId: 'ess_cup_main', name: 'A', position: 1, standingCount: 8, roundCount: 5 }],
  matches: [
    { id: 'esm_cup_1', eventId: 'ese_cup', scheduledAt: '2026-04-01T12:00:00Z', status: 'scheduled', bestOf: 1, teamA: { id: 'est_a', name: 'A Team' }, teamB: { id: 'est_b', name: 'B Team' } },
  ],
};

const importMutation = async (data: unknown, token = 'demo-token-provider') => {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'mutation ($data: JSON!) { importEsportsData(data: $data) { importId created updated unchanged } }', variables: { data } }),
  });
  return response.json();
};

describe('the provider mutation', () => {
  it('creates, then replays idempotently, then updates only what changed, with a change-log row each time', async () => {
    const first = await importMutation(NEW_DATA);
    expect(first.data.importEsportsData).toMatchObject({ created: 4, updated: 0, unchanged: 0 });
    const again = await importMutation(NEW_DATA);
    expect(again.data.importEsportsData).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    const renamed = await importMutation({ ...NEW_DATA, events: [{ ...NEW_DATA.events[0], name: 'Spring Cup 2026' }] });
    expect(renamed.data.importEsportsData).toMatchObject({ created: 0, updated: 1, unchanged: 3 });
    expect((await server.db.prisma.esportsEvent.findUniqueOrThrow({ where: { id: 'ese_cup' } })).name).toBe('Spring Cup 2026');
    const log = await server.db.prisma.changeLog.findMany({ where: { type: 'esports.imported', resourceId: { in: [first, again, renamed].map((r) => r.data.importEsportsData.importId) } } });
    expect(log).toHaveLength(3);
    expect(log.find((row) => row.resourceId === renamed.data.importEsportsData.importId)!.payload).toMatchObject({ updated: 1, source: 'application:app_provider' });
    // Readable by data customers at once.
    const read = await fetch(`${server.url}/api/v2/esports/matches/esm_cup_1`, { headers: { authorization: 'Bearer demo-token-app', 'svc-installation-id': 'ins_demo_org' } });
    expect((await read.json()).data).toMatchObject({ eventName: 'Spring Cup 2026', teamA: { name: 'A Team', logoUrl: null, score: null } });
  });

  it('needs the scope esports:publish', async () => {
    const denied = await importMutation(NEW_DATA, 'demo-token-app');
    expect(denied.errors[0].extensions.code).toBe('forbidden');
    expect(denied.errors[0].extensions.details[0].issue).toBe('missing_scope');
  });

  it('validates every record, names each bad field, and imports nothing of a bad file', async () => {
    const before = await server.db.prisma.esportsEvent.count();
    const bad = await importMutation({
      events: [{ id: 'ese_bad', name: '' }, { id: 'ese_ok', name: 'Fine', startsAt: 'yesterday' }],
      stages: [{ id: 'ess_x', eventId: 'ese_missing', name: 'X', status: 'done', format: 'swiss', position: -1 }],
      matches: [{ id: 'esm_x', eventId: 'ese_ok', scheduledAt: '2026-01-01T00:00:00Z', status: 'scheduled', bestOf: 1, teamA: { id: 't', name: 'T' } }],
      colour: 'blue',
    });
    expect(bad.errors[0].extensions.code).toBe('validation_failed');
    const fields = bad.errors[0].extensions.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['events.0.name', 'events.1.startsAt', 'stages.0.status', 'stages.0.position', 'matches.0.teamB', 'colour']));
    const references = await importMutation({ stages: [{ id: 'ess_x', eventId: 'ese_missing', name: 'X', status: 'running', format: 'swiss', position: 1 }], groups: [{ id: 'esg_x', eventId: 'ese_major', stageId: 'ess_cup_main', name: 'G', position: 1, standingCount: 1, roundCount: 1 }] });
    const referenceFields = references.errors[0].extensions.details.map((d: { field: string; issue: string }) => `${d.field}: ${d.issue}`);
    expect(referenceFields).toEqual(expect.arrayContaining(['stages.0.eventId: unknown esports event ese_missing', 'groups.0.stageId: the stage belongs to another event']));
    expect(await server.db.prisma.esportsEvent.count()).toBe(before);
  });

  it('refuses to move a stage to another event than its published groups, and keeps every timestamp in UTC', async () => {
    const data = {
      events: [{ id: 'ese_move_a', name: 'Move A', startsAt: '2026-05-01T12:00:00+02:00' }, { id: 'ese_move_b', name: 'Move B' }],
      stages: [{ id: 'ess_move', eventId: 'ese_move_a', name: 'Main', status: 'upcoming', format: 'swiss', position: 1 }],
      groups: [{ id: 'esg_move', eventId: 'ese_move_a', stageId: 'ess_move', name: 'A', position: 1, standingCount: 4, roundCount: 3 }],
    };
    expect((await importMutation(data)).data.importEsportsData).toMatchObject({ created: 4 });
    const event = await server.db.prisma.esportsEvent.findUniqueOrThrow({ where: { id: 'ese_move_a' } });
    expect(event.startsAt?.toISOString()).toBe('2026-05-01T10:00:00.000Z');
    // The file names no group: only the published one says the stage may not move.
    const moved = await importMutation({ stages: [{ ...data.stages[0], eventId: 'ese_move_b' }] });
    expect(moved.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'stages', issue: 'a stage would move to another event than its published groups' }] });
    expect((await server.db.prisma.esportsStage.findUniqueOrThrow({ where: { id: 'ess_move' } })).eventId).toBe('ese_move_a');
    // Moved with its group, it may.
    const both = await importMutation({ stages: [{ ...data.stages[0], eventId: 'ese_move_b' }], groups: [{ ...data.groups[0], eventId: 'ese_move_b' }] });
    expect(both.data.importEsportsData).toMatchObject({ created: 0, updated: 2, unchanged: 0 });
  });

  it('of concurrent imports, each sees those before it: a stage and its group never end in different events', async () => {
    const base = {
      events: [{ id: 'ese_race_a', name: 'Race A' }, { id: 'ese_race_b', name: 'Race B' }],
      stages: [{ id: 'ess_race', eventId: 'ese_race_a', name: 'Main', status: 'upcoming', format: 'swiss', position: 1 }],
    };
    expect((await importMutation(base)).data.importEsportsData).toMatchObject({ created: 3 });
    // One adds a group to the stage in event A while another moves the stage to event B.
    const [group, move] = await Promise.all([
      importMutation({ groups: [{ id: 'esg_race', eventId: 'ese_race_a', stageId: 'ess_race', name: 'A', position: 1, standingCount: 4, roundCount: 3 }] }),
      importMutation({ stages: [{ ...base.stages[0], eventId: 'ese_race_b' }] }),
    ]);
    const stage = await server.db.prisma.esportsStage.findUniqueOrThrow({ where: { id: 'ess_race' } });
    const published = await server.db.prisma.esportsGroup.findUnique({ where: { id: 'esg_race' } });
    if (published) expect(published.eventId).toBe(stage.eventId);
    // Exactly one of them lands, whichever came first.
    expect([group, move].filter((answer) => answer.data?.importEsportsData).length).toBe(1);
  });
});

describe('npm run esports:import', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ seed: false });
  });
  afterAll(() => db?.drop());

  const env = (): Record<string, string> => (db.url ? { DATABASE_URL: db.url } : { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') });
  const run = (file: string) => runScript('esports:import', [file], env());

  it('imports the demo file, then finds nothing to change; a bad file is refused with its errors', async () => {
    // The command works on its own database: PGlite in a folder (migrated by npm run db:migrate), or PostgreSQL.
    if (!db.url) expect((await runScript('db:migrate', [], env())).code).toBe(0);
    const demo = fromRoot('prisma/seed/esports-demo.json');
    const first = await run(demo);
    expect(first.code, first.output).toBe(0);
    const records = Object.values(JSON.parse(await readFile(demo, 'utf8')) as Record<string, unknown[]>).reduce((n, list) => n + list.length, 0);
    expect(first.output).toContain(`${records} created, 0 updated, 0 unchanged`);
    const second = await run(demo);
    expect(second.output).toContain(`0 created, 0 updated, ${records} unchanged`);
    const badFile = path.join(dir, 'bad.json');
    await writeFile(badFile, JSON.stringify({ matches: [{ id: 'm', eventId: 'nope' }] }));
    const bad = await run(badFile);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('was not imported');
    expect(bad.output).toMatch(/matches\.0\.scheduledAt/);
    const notJson = path.join(dir, 'not.json');
    await writeFile(notJson, '{ nope');
    expect((await run(notJson)).code).toBe(1);
  }, 120_000);
});
