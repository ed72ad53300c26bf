// The check every test server runs on close (support/change-catalogue.ts) finds what it is there to
// find: a change type the catalogue does not name, and a payload its schema refuses; and the
// catalogue's table in docs/webhooks.md keeps up with it.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHANGE_TYPES } from '../platform/domain/change-catalogue.ts';
import { fromRoot } from '../platform/process/paths.ts';
import { catalogueViolations } from './support/change-catalogue.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

it('names a type outside the catalogue and a payload that does not fit, and passes a good one', async () => {
  expect(await catalogueViolations(db)).toEqual([]);
  const row = (id: string, type: string, payload: Record<string, unknown>) => ({ id, type, eventId: 'evt_open', resourceType: 'stage', resourceId: 'stg_open_groups', revision: 99, payload: { eventId: 'evt_open', revision: 99, ...payload } });
  await db.prisma.changeLog.createMany({
    data: [
      row('chg_test_good', 'standings.updated', { stageId: 'stg_open_groups', groupId: null, participantIds: ['par_alpha'] }),
      row('chg_test_unknown', 'standings.recomputed', { stageId: 'stg_open_groups' }),
      row('chg_test_bad', 'standings.updated', { stageId: 'stg_open_groups', participantIds: 'par_alpha', extra: true }),
    ],
  });
  const violations = await catalogueViolations(db);
  expect(violations.map((v) => v.type)).toEqual(['standings.recomputed', 'standings.updated']);
  expect(violations[0].issue).toBe('not in the webhook catalogue');
  expect(violations[1].issue).toMatch(/groupId|participantIds|additional/);
});

it("docs/webhooks.md's table of types names every type of the catalogue, and no other", async () => {
  const text = await readFile(fromRoot('docs/webhooks.md'), 'utf8');
  const table = text.slice(text.indexOf('| type | when | `details` |'));
  const documented = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `([a-z_.]+)` \|/gm)].map((match) => match[1]);
  expect(documented.sort()).toEqual(CHANGE_TYPES.map((type) => type.name).sort());
});
