// The check every test server runs on close (support/change-catalogue.ts) finds what it is there to
// find: a change type the catalogue does not name, and a payload its schema refuses; the catalogue's
// table in docs/webhooks.md keeps up with it; and a writer's payload is typed by its change type.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHANGE_TYPES, payloadSchema } from '../platform/domain/change-catalogue.ts';
import type { NewChange } from '../platform/domain/change-log.ts';
import type { Change } from '../subgraphs/competitions/events/event-write.ts';
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

it('types each change\'s payload by its type, at compile time (npm run typecheck)', () => {
  const change: Change<'standings.updated'> = { type: 'standings.updated', resourceType: 'standings', resourceId: 'grp_a', payload: { stageId: 'stg_a', groupId: null, participantIds: ['par_a'] } };
  // @ts-expect-error participantIds is a list of ids
  const wrong: Change<'standings.updated'> = { type: 'standings.updated', resourceType: 'standings', resourceId: 'grp_a', payload: { stageId: 'stg_a', groupId: null, participantIds: 'par_a' } };
  // @ts-expect-error a field the type does not declare
  const extra: Change = { type: 'participant.deleted', resourceType: 'participant', resourceId: 'par_a', payload: { participantId: 'par_a', teamId: 'team_a' } };
  // @ts-expect-error another type's details
  const other: NewChange = { type: 'webhook.test', organisationId: null, eventId: null, resourceType: 'endpoint', resourceId: 'whe_a', revision: null, payload: { matchId: 'mtc_a' } };
  expect([change, wrong, extra, other].map((c) => c.type)).toEqual(['standings.updated', 'standings.updated', 'participant.deleted', 'webhook.test']);
});

it('serves JSON Schemas derived from the zod schemas, written as the catalogue wrote them by hand', () => {
  const matchUpdated = CHANGE_TYPES.find((type) => type.name === 'match.updated')!;
  // "X or null" as one type list (an enum with null among its values), no `type` beside an enum or a
  // const, integers without zod's safe-integer bounds.
  expect(matchUpdated.details.properties).toMatchObject({
    status: { enum: ['scheduled', 'live', 'completed', 'cancelled'] },
    scoreA: { type: ['integer', 'null'] },
    forfeit: { enum: ['a', 'b', null] },
    opponents: { type: ['array', 'null'], items: { type: 'object', required: ['participantId', 'place', 'points'], additionalProperties: false } },
  });
  expect(JSON.stringify(CHANGE_TYPES.map((type) => payloadSchema(type)))).not.toMatch(/"\$schema"|"anyOf"|"propertyNames"|9007199254740991|"type":"string","(const|enum)"/);
  const stageCreated = CHANGE_TYPES.find((type) => type.name === 'stage.created')!;
  expect(JSON.stringify((stageCreated.details.properties as Record<string, unknown>).settings)).toBe('{"type":"object","description":"The settings as given (defaults not filled)."}');
  expect(stageCreated.details.required).toEqual(['stageId', 'name', 'format', 'bestOf', 'groupIds']);
});
