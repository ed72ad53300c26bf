// The nine competition writes end to end: statuses, ETags, revisions, change log, preconditions,
// idempotency, authority and each operation's rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // A team that takes part in no event yet.
  await server.db.prisma.team.create({ data: { id: 'team_echo', name: 'Team Echo' } });
});
afterAll(() => server?.close());

const revisionOf = async (eventId: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);

/** A write with the current revision as If-Match. */
async function write(method: string, path: string, body?: unknown, options: { token?: string; key?: string | false; eventId?: string } = {}) {
  const eventId = options.eventId ?? /\/events\/([^/]+)/.exec(path)![1];
  return api(path, { method, body, token: options.token, ifMatch: await revisionOf(eventId), key: options.key === false ? undefined : (options.key ?? uniqueKey()) });
}

function expectWrite(response: Awaited<ReturnType<typeof call>>, status: number, revision: number, updated = true) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.data).toMatchObject({ revision, updated });
  expect(Object.keys(response.body.data).sort()).toEqual(['resourceId', 'revision', 'updated']);
  expect(response.headers.get('etag')).toBe(`"${revision}"`);
}

function expectError(response: Awaited<ReturnType<typeof call>>, status: number, code: string, issueOrField?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  if (issueOrField) {
    expect(response.body.error.details.map((d: { field?: string; issue: string }) => [d.field, d.issue]).flat()).toContain(issueOrField);
  }
}

describe('publish', () => {
  it('publishes a draft, moves the revision by one, logs the change and replays a retry after the revision moved on', async () => {
    const key = uniqueKey('publish');
    const before = await revisionOf('evt_draft');
    const first = await api('/api/v2/events/evt_draft/publish', { method: 'POST', ifMatch: before, key });
    expectWrite(first, 200, before + 1);
    expect(first.body.data.resourceId).toBe('evt_draft');
    expect((await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_draft' } })).state).toBe('scheduled');
    const log = await server.db.prisma.changeLog.findFirst({ where: { eventId: 'evt_draft', type: 'event.published' } });
    expect(log).toMatchObject({ resourceType: 'event', resourceId: 'evt_draft', revision: before + 1 });

    // The revision moves on; the retry with the same key still replays the first answer.
    expectWrite(await write('POST', '/api/v2/events/evt_draft/stages', { name: 'Extra', format: 'swiss', bestOf: 1 }), 201, before + 2);
    const retry = await api('/api/v2/events/evt_draft/publish', { method: 'POST', ifMatch: before, key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await revisionOf('evt_draft')).toBe(before + 2);
  });

  it('refuses to publish anything but a draft: 409', async () => {
    expectError(await write('POST', '/api/v2/events/evt_open/publish'), 409, 'conflict', 'not_publishable');
    expectError(await write('POST', '/api/v2/events/evt_done/publish'), 409, 'conflict', 'not_publishable');
  });

  it('needs Idempotency-Key (400), If-Match (428) and the current revision as a strong ETag (412)', async () => {
    const revision = await revisionOf('evt_open');
    const keyless = await api('/api/v2/events/evt_open/publish', { method: 'POST', ifMatch: revision });
    expectError(keyless, 400, 'validation_failed', 'idempotency-key');
    expect(keyless.body.error.message).toBe('The request headers are not valid: idempotency-key is missing.');
    expect(keyless.body.error.details).toEqual([{ field: 'idempotency-key', issue: 'required' }]);
    // A route that takes no body refuses one instead of ignoring it.
    expectError(await api('/api/v2/events/evt_draft/publish', { method: 'POST', ifMatch: await revisionOf('evt_draft'), key: uniqueKey(), body: { state: 'live' } }), 400, 'validation_failed', 'body');
    expectError(await api('/api/v2/events/evt_open/publish', { method: 'POST', key: uniqueKey() }), 428, 'precondition_required');
    expectError(await api('/api/v2/events/evt_open/publish', { method: 'POST', ifMatch: revision - 1, key: uniqueKey() }), 412, 'precondition_failed');
    expectError(await api('/api/v2/events/evt_open/publish', { method: 'POST', ifMatch: `W/"${revision}"`, key: uniqueKey() }), 412, 'precondition_failed', 'weak ETag');
    expectError(await api('/api/v2/events/evt_open/publish', { method: 'POST', ifMatch: 'garbage', key: uniqueKey() }), 412, 'precondition_failed');
    // Exactly a quoted strong ETag: an unquoted revision and * never match, and the message says what was expected.
    for (const [value, issue] of [[String(revision), 'not quoted'], ['*', 'wildcard'], [`"${revision}", "${revision + 1}"`, 'not a strong ETag of a revision']]) {
      const refused = await api('/api/v2/events/evt_open/publish', { method: 'POST', ifMatch: value, key: uniqueKey() });
      expectError(refused, 412, 'precondition_failed', issue);
      expect(refused.body.error.message).toContain('for example If-Match: "3"');
    }
  });

  it('an Idempotency-Key whose record expired (24 h) is free again', async () => {
    const key = uniqueKey('expired');
    await server.db.prisma.idempotencyRecord.create({
      data: { applicationId: 'app_demo', method: 'POST', route: 'createStage', key, requestHash: 'old', state: 'completed', responseStatus: 201, responseBody: { resourceId: 'stg_old', revision: 1, updated: true }, expiresAt: new Date(Date.now() - 1000) },
    });
    const revision = await revisionOf('evt_open');
    const response = await api('/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key, body: { name: 'After expiry', format: 'swiss', bestOf: 1 } });
    expectWrite(response, 201, revision + 1);
    expect(response.body.data.resourceId).not.toBe('stg_old');
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 when an Idempotency-Key is reused for a different request', async () => {
    const key = uniqueKey('reuse');
    const revision = await revisionOf('evt_open');
    expectWrite(await api('/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision, key, body: { name: 'A', format: 'swiss', bestOf: 1 } }), 201, revision + 1);
    const other = await api('/api/v2/events/evt_open/stages', { method: 'POST', ifMatch: revision + 1, key, body: { name: 'B', format: 'swiss', bestOf: 1 } });
    expectError(other, 409, 'conflict', 'idempotency_key_reused');
  });
});

describe('authority on writes', () => {
  const writes: [string, string, unknown?][] = [
    ['POST', '/api/v2/events/evt_open/publish'],
    ['PATCH', '/api/v2/events/evt_open/settings/veto', { configurations: [] }],
    ['POST', '/api/v2/events/evt_open/stages', { name: 'S', format: 'swiss', bestOf: 1 }],
    ['POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_charlie' }],
    ['POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_alpha', stageId: 'stg_open_groups', points: 1 }],
    ['PATCH', '/api/v2/events/evt_open/participants/par_charlie', { action: 'status', status: 'checked_in' }],
    ['PUT', '/api/v2/events/evt_open/participants/par_charlie/lineup', { operation: 'remove_member', userId: 'usr_charlie_2', scope: 'event' }],
    ['DELETE', '/api/v2/events/evt_open/participants/par_charlie'],
    ['PUT', '/api/v2/events/evt_open/playdays/pd_open_1/staff', { staff: [] }],
  ];

  it.each(writes)('%s %s: 403 without the scope, with nothing changed', async (method, path, body) => {
    const before = await revisionOf('evt_open');
    expectError(await write(method, path, body, { token: 'demo-token-readonly' }), 403, 'forbidden', 'missing_scope');
    expect(await revisionOf('evt_open')).toBe(before);
  });

  it('403 without an installation on the event\'s organisation; an event of another organisation is never leaked', async () => {
    const response = await write('POST', '/api/v2/events/evt_open/stages', { name: 'S', format: 'swiss', bestOf: 1 }, { token: 'demo-token-noesports' });
    expectError(response, 403, 'forbidden', 'missing_installation');
    const rival = await write('POST', '/api/v2/events/evt_rival/stages', { name: 'S', format: 'swiss', bestOf: 1 });
    expectError(rival, 403, 'forbidden', 'missing_installation');
    expect(JSON.stringify(rival.body)).not.toContain('Rival Cup');
  });

  it('404 for an unknown event', async () => {
    expectError(await api('/api/v2/events/evt_nope/stages', { method: 'POST', ifMatch: 1, key: uniqueKey(), body: { name: 'S', format: 'swiss', bestOf: 1 } }), 404, 'not_found');
  });

  it('a user actor needs the permission on the organisation', async () => {
    const refused = await write('POST', '/api/v2/events/evt_open/stages', { name: 'S', format: 'swiss', bestOf: 1 }, { token: 'demo-token-dave' });
    expectError(refused, 403, 'forbidden', 'missing_permission');
    // A sentence: what the user may not do, the permission it takes and who holds it.
    expect(refused.body.error.message).toBe('The user may not add or change stages and groups in this event: that needs the permission event.structure:manage, which administrators of the organisation hold.');
    const revision = await revisionOf('evt_open');
    expectWrite(await write('POST', '/api/v2/events/evt_open/stages', { name: 'By Alice', format: 'swiss', bestOf: 1 }, { token: 'demo-token-alice' }), 201, revision + 1);
  });
});

describe('veto settings', () => {
  const veto = (body: unknown) => write('PATCH', '/api/v2/events/evt_open/settings/veto', body, { key: false });
  const stored = async () => (await server.db.prisma.vetoConfiguration.findMany({ where: { eventId: 'evt_open' }, orderBy: { bestOf: 'asc' } })).map((c) => ({ bestOf: c.bestOf, steps: c.steps }));

  it('normalises to the size of the pool: picks kept, bans fitted, a decider for odd best-ofs', async () => {
    const revision = await revisionOf('evt_open');
    const response = await veto({
      configurations: [
        { bestOf: 3, steps: [{ action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] },
        { bestOf: 1, steps: Array.from({ length: 9 }, (_, i) => ({ action: 'ban', team: i % 2 ? 'b' : 'a' })) },
        { bestOf: 2, steps: [{ action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] },
      ],
    });
    expectWrite(response, 200, revision + 1);
    const [bo1, bo2, bo3] = await stored();
    // Pool of 7: bo3 = 2 picks + 4 bans + decider; bo1 = 6 bans (9 given) + decider; bo2 = 2 picks + 5 bans.
    expect(bo3.steps).toEqual([
      { action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' },
      { action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'decider', team: null },
    ]);
    expect((bo1.steps as unknown[]).length).toBe(7);
    expect((bo1.steps as { action: string }[]).at(-1)!.action).toBe('decider');
    expect((bo2.steps as { action: string }[]).filter((s) => s.action === 'ban')).toHaveLength(5);
    expect((bo2.steps as { action: string }[]).some((s) => s.action === 'decider')).toBe(false);
  });

  it('the same configuration again changes nothing: updated false, same revision', async () => {
    const body = { configurations: [{ bestOf: 1, steps: [] }] };
    const first = await veto(body);
    expect(first.status).toBe(200);
    const again = await veto(body);
    expectWrite(again, 200, first.body.data.revision, false);
  });

  it('a smaller map pool shrinks the bans', async () => {
    const response = await veto({ mapPool: ['map_dust2', 'map_mirage', 'map_nuke', 'map_inferno', 'map_train'], configurations: [{ bestOf: 3, steps: [{ action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'ban', team: 'a' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] }] });
    expect(response.status).toBe(200);
    const [bo3] = await stored();
    expect(bo3.steps).toEqual([{ action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }, { action: 'decider', team: null }]);
    expect(await server.db.prisma.eventMapPool.count({ where: { eventId: 'evt_open' } })).toBe(5);
  });

  it.each([
    [{ configurations: [{ bestOf: 1, steps: [{ action: 'pick', team: 'a' }] }] }, 'configurations.0.steps'],
    [{ configurations: [{ bestOf: 4, steps: [] }] }, 'configurations.0.bestOf'],
    [{ mapPool: ['map_dust2'], configurations: [{ bestOf: 3, steps: [{ action: 'pick', team: 'a' }, { action: 'pick', team: 'b' }] }] }, 'configurations.0.bestOf'],
    [{ mapPool: ['map_nope'], configurations: [] }, 'mapPool.0'],
    [{ configurations: [{ bestOf: 1, steps: [{ action: 'ban' }] }] }, 'configurations.0.steps.0.team'],
    [{ configurations: [{ bestOf: 1, steps: [] }, { bestOf: 1, steps: [] }] }, 'configurations'],
    [{ configurations: [], colour: 'red' }, 'colour'],
  ])('400 validation_failed for %j', async (body, field) => {
    const revision = await revisionOf('evt_open');
    expectError(await veto(body), 400, 'validation_failed', field);
    expect(await revisionOf('evt_open')).toBe(revision);
  });
});

describe('stages', () => {
  it('creates a stage with groups: 201, resourceId is the stage', async () => {
    const revision = await revisionOf('evt_open');
    const response = await write('POST', '/api/v2/events/evt_open/stages', { name: 'Swiss', format: 'swiss', bestOf: 3, groups: [{ name: 'Upper' }, { name: 'Lower' }] });
    expectWrite(response, 201, revision + 1);
    const stage = await server.db.prisma.stage.findUniqueOrThrow({ where: { id: response.body.data.resourceId }, include: { groups: true } });
    expect(stage).toMatchObject({ eventId: 'evt_open', name: 'Swiss', format: 'swiss', bestOf: 3 });
    expect(stage.groups.map((g) => g.name).sort()).toEqual(['Lower', 'Upper']);
  });

  it.each([
    [{ name: 'X', format: 'knockout', bestOf: 1 }, 'format'],
    [{ name: 'X', format: 'swiss', bestOf: 4 }, 'bestOf'],
    [{ name: 'X', format: 'single_elimination', bestOf: 1, groups: [{ name: 'G' }] }, 'groups'],
    [{ name: '', format: 'swiss', bestOf: 1 }, 'name'],
    [{ format: 'swiss', bestOf: 1 }, 'name'],
    [{ name: 'X', format: 'swiss', bestOf: '3' }, 'bestOf'],
    [{ name: 'X', format: 'swiss', bestOf: 1, startsAt: 'tomorrow' }, 'startsAt'],
  ])('400 for %j', async (body, field) => {
    expectError(await write('POST', '/api/v2/events/evt_open/stages', body), 400, 'validation_failed', field);
  });

  it('malformed JSON is a 400 that changes nothing', async () => {
    const revision = await revisionOf('evt_open');
    const response = await fetch(`${server.url}/api/v2/events/evt_open/stages`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json', 'if-match': `"${revision}"`, 'idempotency-key': uniqueKey() },
      body: '{"name": "x",',
    });
    expect(response.status).toBe(400);
    expect(await revisionOf('evt_open')).toBe(revision);
  });

  it('a completed event takes no new stages: 409', async () => {
    expectError(await write('POST', '/api/v2/events/evt_done/stages', { name: 'Late', format: 'swiss', bestOf: 1 }), 409, 'conflict', 'event_closed');
  });
});

describe('invitations', () => {
  it('invites a team into a stage and one of its groups: 201', async () => {
    const revision = await revisionOf('evt_open');
    const response = await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_echo', stageId: 'stg_open_groups', groupId: 'grp_open_b' });
    expectWrite(response, 201, revision + 1);
    expect(response.body.data.resourceId).toMatch(/^inv_/);
  });

  it('refuses a group outside the stage, an unknown team, a team already taking part or already invited', async () => {
    expectError(await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_echo', stageId: 'stg_open_groups', groupId: 'grp_live_a1' }), 400, 'validation_failed', 'groupId');
    expectError(await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_echo', groupId: 'grp_open_a' }), 400, 'validation_failed', 'stageId');
    expectError(await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_nope' }), 400, 'validation_failed', 'teamId');
    expectError(await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_alpha' }), 409, 'conflict', 'already_participant');
    expectError(await write('POST', '/api/v2/events/evt_open/invitations', { teamId: 'team_echo' }), 409, 'conflict', 'already_invited');
  });
});

describe('standing adjustments', () => {
  it('adjusts a participant of the group and its standing', async () => {
    const before = await server.db.prisma.standing.findUniqueOrThrow({ where: { id: 'std_open_a_alpha' } });
    const response = await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_alpha', stageId: 'stg_open_groups', groupId: 'grp_open_a', points: -2, reason: 'late' });
    expect(response.status).toBe(201);
    expect(response.body.data.resourceId).toMatch(/^adj_/);
    expect((await server.db.prisma.standing.findUniqueOrThrow({ where: { id: 'std_open_a_alpha' } })).points).toBe(before.points - 2);
    // A standing entered by hand: its table moved, nothing ranks it again.
    const logged = await server.db.prisma.changeLog.findMany({ where: { eventId: 'evt_open', revision: response.body.data.revision }, orderBy: { sequence: 'asc' } });
    expect(logged.map((c) => [c.type, (c.payload as { groupId?: string }).groupId ?? null])).toEqual([['standing.adjusted', 'grp_open_a'], ['standings.updated', 'grp_open_a']]);
  });

  it('refuses a participant outside that stage or group, and zero points', async () => {
    expectError(await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_delta', stageId: 'stg_open_groups', groupId: 'grp_open_a', points: 1 }), 400, 'validation_failed', 'participantId');
    expectError(await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_charlie', stageId: 'stg_open_groups', points: 1 }), 400, 'validation_failed', 'participantId');
    expectError(await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_live_alpha', stageId: 'stg_open_groups', points: 1 }), 400, 'validation_failed', 'participantId');
    expectError(await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_alpha', stageId: 'stg_open_groups', points: 0 }), 400, 'validation_failed', 'points');
    expectError(await write('POST', '/api/v2/events/evt_open/standing-adjustments', { participantId: 'par_alpha', stageId: 'stg_live_a', points: 1 }), 400, 'validation_failed', 'stageId');
  });
});

describe('participants', () => {
  const patch = (body: unknown) => write('PATCH', '/api/v2/events/evt_open/participants/par_delta', body, { key: false });

  it('status: changes once, then updated false with the revision kept', async () => {
    const revision = await revisionOf('evt_open');
    expectWrite(await patch({ action: 'status', status: 'checked_in' }), 200, revision + 1);
    expectWrite(await patch({ action: 'status', status: 'checked_in' }), 200, revision + 1, false);
  });

  it('selected groups must be groups of this event', async () => {
    expectError(await patch({ action: 'selected_groups', groupIds: ['grp_live_a1'] }), 400, 'validation_failed', 'groupIds.0');
    const response = await patch({ action: 'selected_groups', groupIds: ['grp_open_a', 'grp_open_b'] });
    expect(response.status).toBe(200);
    expect((await server.db.prisma.participant.findUniqueOrThrow({ where: { id: 'par_delta' } })).selectedGroupIds).toEqual(['grp_open_a', 'grp_open_b']);
  });

  it('signup answers replace the answers', async () => {
    expect((await patch({ action: 'signup_answers', answers: { discord: 'delta#1', region: 'eu' } })).status).toBe(200);
    expect((await server.db.prisma.participant.findUniqueOrThrow({ where: { id: 'par_delta' } })).signupAnswers).toEqual({ discord: 'delta#1', region: 'eu' });
  });

  it.each([
    [{ action: 'status', status: 'sleeping' }, 'status'],
    [{ action: 'rename', name: 'x' }, 'action'],
    [{ action: 'status' }, 'status'],
    [{ action: 'signup_answers', answers: { q: { nested: true } } }, 'answers.q'],
  ])('400 for %j', async (body, field) => {
    expectError(await patch(body), 400, 'validation_failed', field);
  });

  it('404 for a participant of another event', async () => {
    expectError(await write('PATCH', '/api/v2/events/evt_open/participants/par_live_alpha', { action: 'status', status: 'confirmed' }, { key: false }), 404, 'not_found');
  });

  it('deletes a registration only before placement into matches', async () => {
    expectError(await write('DELETE', '/api/v2/events/evt_open/participants/par_alpha', undefined, { key: false }), 409, 'conflict', 'placed_in_matches');
    const revision = await revisionOf('evt_open');
    const removed = await write('DELETE', '/api/v2/events/evt_open/participants/par_charlie', undefined, { key: false });
    expectWrite(removed, 200, revision + 1);
    expect(removed.body.data.resourceId).toBe('par_charlie');
    expect(await server.db.prisma.participant.findUnique({ where: { id: 'par_charlie' } })).toBeNull();
    expectError(await write('DELETE', '/api/v2/events/evt_open/participants/par_charlie', undefined, { key: false }), 404, 'not_found');
  });
});

describe('lineups', () => {
  const lineup = (body: unknown, participant = 'par_alpha') => write('PUT', `/api/v2/events/evt_open/participants/${participant}/lineup`, body, { key: false });
  const roleOf = async (participantId: string, userId: string) =>
    (await server.db.prisma.lineupMember.findUnique({ where: { participantId_userId: { participantId, userId } } }))?.role ?? null;

  it('sets a role in this event only', async () => {
    expect((await lineup({ operation: 'set_role', userId: 'usr_alpha_2', role: 'substitute', scope: 'event' })).status).toBe(200);
    expect(await roleOf('par_alpha', 'usr_alpha_2')).toBe('substitute');
    expect(await roleOf('par_live_alpha', 'usr_alpha_2')).toBe('player');
  });

  it('scope team changes every open registration of the team in the organisation and their revisions', async () => {
    const liveBefore = await revisionOf('evt_live');
    const doneBefore = await revisionOf('evt_done');
    expect((await lineup({ operation: 'set_role', userId: 'usr_alpha_3', role: 'coach', scope: 'team' })).status).toBe(200);
    expect(await roleOf('par_alpha', 'usr_alpha_3')).toBe('coach');
    expect(await roleOf('par_live_alpha', 'usr_alpha_3')).toBe('coach');
    expect(await roleOf('par_done_alpha', 'usr_alpha_3')).toBe('player');
    expect(await roleOf('par_rival_alpha', 'usr_alpha_3')).toBe('player');
    expect(await revisionOf('evt_live')).toBe(liveBefore + 1);
    expect(await revisionOf('evt_done')).toBe(doneBefore);
  });

  it('removes and adds members of the team only', async () => {
    expect((await lineup({ operation: 'remove_member', userId: 'usr_alpha_5', scope: 'event' })).status).toBe(200);
    expect(await roleOf('par_alpha', 'usr_alpha_5')).toBeNull();
    expect((await lineup({ operation: 'add_member', userId: 'usr_alpha_5', role: 'substitute', scope: 'event' })).status).toBe(200);
    expect(await roleOf('par_alpha', 'usr_alpha_5')).toBe('substitute');
    expectError(await lineup({ operation: 'add_member', userId: 'usr_erin', role: 'player', scope: 'event' }), 400, 'validation_failed', 'userId');
    expectError(await lineup({ operation: 'set_role', userId: 'usr_erin', role: 'player', scope: 'event' }), 400, 'validation_failed', 'userId');
    expectError(await lineup({ operation: 'add_member', userId: 'usr_alpha_5', scope: 'event' }), 400, 'validation_failed', 'role');
    expectError(await lineup({ operation: 'remove_member', userId: 'usr_alpha_5', scope: 'season' }), 400, 'validation_failed', 'scope');
  });

  it('removing someone who is not there changes nothing', async () => {
    const revision = await revisionOf('evt_open');
    expectWrite(await lineup({ operation: 'remove_member', userId: 'usr_erin', scope: 'event' }), 200, revision, false);
  });
});

describe('playday staff', () => {
  const staff = (body: unknown) => write('PUT', '/api/v2/events/evt_open/playdays/pd_open_1/staff', body, { key: false });

  it('replaces the roster whole; the same roster again changes nothing', async () => {
    const roster = { staff: [{ userId: 'usr_erin', role: 'caster' }, { userId: 'usr_bob', role: 'observer' }, { userId: 'usr_erin', role: 'referee' }] };
    const first = await staff(roster);
    expect(first.status).toBe(200);
    const rows = await server.db.prisma.playdayStaff.findMany({ where: { playdayId: 'pd_open_1' } });
    expect(rows.map((r) => `${r.userId}:${r.role}`).sort()).toEqual(['usr_bob:observer', 'usr_erin:caster', 'usr_erin:referee']);
    expectWrite(await staff(roster), 200, first.body.data.revision, false);
  });

  it('unknown users or roles are 400 and change nothing', async () => {
    const before = await server.db.prisma.playdayStaff.count({ where: { playdayId: 'pd_open_1' } });
    expectError(await staff({ staff: [{ userId: 'usr_nope', role: 'caster' }] }), 400, 'validation_failed', 'staff.0.userId');
    expectError(await staff({ staff: [{ userId: 'usr_bob', role: 'dj' }] }), 400, 'validation_failed', 'staff.0.role');
    expect(await server.db.prisma.playdayStaff.count({ where: { playdayId: 'pd_open_1' } })).toBe(before);
  });

  it('404 for a playday of another event', async () => {
    expectError(await write('PUT', '/api/v2/events/evt_live/playdays/pd_open_1/staff', { staff: [] }, { key: false }), 404, 'not_found');
  });
});

describe('the same writes in GraphQL', () => {
  const graphql = async (query: string, variables: Record<string, unknown>, token = 'demo-token-app') => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return response.json();
  };
  const CREATE = 'mutation ($e: ID!, $i: CreateStageInput!, $m: String, $k: String!) { createStage(eventId: $e, input: $i, ifMatch: $m, idempotencyKey: $k) { resourceId revision updated replayed } }';

  it('applies the same preconditions, rules and idempotency', async () => {
    const input = { name: 'GQL', format: 'league', bestOf: 1 };
    expect((await graphql(CREATE, { e: 'evt_open', i: input, k: uniqueKey() })).errors[0].extensions.code).toBe('precondition_required');
    expect((await graphql(CREATE, { e: 'evt_open', i: { ...input, bestOf: 4 }, m: '1', k: uniqueKey() })).errors[0].extensions.code).toBe('validation_failed');
    expect((await graphql(CREATE, { e: 'evt_open', i: input, m: String(await revisionOf('evt_open')), k: uniqueKey() }, 'demo-token-readonly')).errors[0].extensions.code).toBe('forbidden');
    const key = uniqueKey();
    const revision = await revisionOf('evt_open');
    const first = await graphql(CREATE, { e: 'evt_open', i: input, m: `"${revision}"`, k: key });
    expect(first.data.createStage).toMatchObject({ revision: revision + 1, updated: true, replayed: false });
    const again = await graphql(CREATE, { e: 'evt_open', i: input, m: `"${revision}"`, k: key });
    expect(again.data.createStage).toEqual({ ...first.data.createStage, replayed: true });
  });
});
