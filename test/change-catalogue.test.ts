// The check every test server runs on close (support/change-catalogue.ts) finds what it is there to
// find: a change type the catalogue does not name, and a payload its schema refuses.
import { afterAll, beforeAll, expect, it } from 'vitest';
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
