// Organiser writes, part two: registering a team (POST /api/v2/events/{eventId}/participants) and a
// team's player answering its invitation (…/invitations/{invitationId}/accept and …/decline), through
// REST and GraphQL: rules, authority, idempotency, revisions and change-log rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, expectError, uniqueKey, writeByGraphQL } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // A team that takes part in no event, with one player (usr_erin) and a coach (usr_carol).
  await server.db.prisma.team.create({ data: { id: 'team_echo', name: 'Team Echo' } });
  await server.db.prisma.teamMember.createMany({ data: [{ teamId: 'team_echo', userId: 'usr_erin', role: 'captain' }, { teamId: 'team_echo', userId: 'usr_carol', role: 'coach' }] });
});
afterAll(() => server?.close());

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const revisionOf = async (id: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id } })).revision;
const register = async (eventId: string, body: unknown, options: { token?: string; key?: string | false; ifMatch?: string | number | null } = {}) =>
  api(`/api/v2/events/${eventId}/participants`, {
    method: 'POST',
    body,
    token: options.token,
    ifMatch: options.ifMatch === undefined ? await revisionOf(eventId) : options.ifMatch,
    key: options.key === false ? undefined : (options.key ?? uniqueKey('register')),
  });
const answer = (eventId: string, invitationId: string, action: 'accept' | 'decline', options: { token?: string; key?: string | false } = {}) =>
  api(`/api/v2/events/${eventId}/invitations/${invitationId}/${action}`, {
    method: 'POST',
    token: options.token ?? 'demo-token-bob',
    key: options.key === false ? undefined : (options.key ?? uniqueKey(action)),
  });

const graphql = (query: string, variables: Record<string, unknown>, token?: string) => writeByGraphQL(server.url, query, variables, token);

describe('the demo cup', () => {
  it('evt_cup is a draft of org_demo with no stages and sixteen registered teams, in order', async () => {
    const cup = await server.db.prisma.event.findUniqueOrThrow({ where: { id: 'evt_cup' }, include: { stages: true } });
    expect(cup).toMatchObject({ organisationId: 'org_demo', state: 'draft', revision: 1, stages: [] });
    const participants = await server.db.prisma.participant.findMany({ where: { eventId: 'evt_cup' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const ids = Array.from({ length: 16 }, (_, i) => String(i + 1).padStart(2, '0'));
    expect(participants.map((p) => [p.id, p.teamId, p.status])).toEqual(ids.map((n) => [`par_cup_${n}`, `team_${n}`, 'registered']));
    for (let i = 1; i < participants.length; i++) expect(participants[i].createdAt.getTime()).toBeGreaterThan(participants[i - 1].createdAt.getTime());
    const members = await server.db.prisma.teamMember.findMany({ where: { teamId: 'team_07' }, orderBy: { userId: 'asc' } });
    expect(members.map((m) => m.userId)).toEqual(['usr_07a', 'usr_07b']);
    expect(await server.db.prisma.invitation.findUniqueOrThrow({ where: { id: 'inv_cup_alpha' } })).toMatchObject({ eventId: 'evt_cup', teamId: 'team_alpha', status: 'pending' });
  });
});

describe('POST /api/v2/events/{eventId}/participants', () => {
  it('registers a team with its members as the lineup, one revision, participant.created', async () => {
    const revision = await revisionOf('evt_draft');
    const response = await register('evt_draft', { teamId: 'team_echo' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data).toMatchObject({ revision: revision + 1, updated: true });
    expect(response.headers.get('etag')).toBe(`"${revision + 1}"`);
    const participantId = response.body.data.resourceId;
    expect(participantId).toMatch(/^par_/);
    const participant = await server.db.prisma.participant.findUniqueOrThrow({ where: { id: participantId }, include: { lineup: { orderBy: { userId: 'asc' } } } });
    expect(participant).toMatchObject({ eventId: 'evt_draft', teamId: 'team_echo', status: 'registered', selectedGroupIds: [] });
    expect(participant.lineup.map((m) => [m.userId, m.role])).toEqual([['usr_carol', 'coach'], ['usr_erin', 'captain']]);
    const log = await server.db.prisma.changeLog.findMany({ where: { eventId: 'evt_draft', revision: revision + 1 } });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'participant.created', resourceType: 'participant', resourceId: participantId });
    expect(log[0].payload).toMatchObject({ participantId, teamId: 'team_echo', status: 'registered', groupId: null, invitationId: null });
    // It reads back through v1 like the seeded ones.
    const v1 = await api(`/api/v1/events/evt_draft/participants/${participantId}`, { token: null, headers: { 'x-api-key': 'demo-org-key-0001' } });
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
  });

  it('replays a retry with the same key, and registers once', async () => {
    const key = uniqueKey('replay');
    const revision = await revisionOf('evt_live');
    await server.db.prisma.team.create({ data: { id: 'team_foxtrot', name: 'Team Foxtrot' } });
    const first = await register('evt_live', { teamId: 'team_foxtrot', stageId: 'stg_live_a', groupId: 'grp_live_a1' }, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await register('evt_live', { teamId: 'team_foxtrot', stageId: 'stg_live_a', groupId: 'grp_live_a1' }, { key, ifMatch: revision });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.db.prisma.participant.count({ where: { eventId: 'evt_live', teamId: 'team_foxtrot' } })).toBe(1);
    expect((await server.db.prisma.participant.findUniqueOrThrow({ where: { id: first.body.data.resourceId } })).selectedGroupIds).toEqual(['grp_live_a1']);
  });

  it('409 already_participant; 409 event_closed', async () => {
    expectError(await register('evt_cup', { teamId: 'team_05' }), 409, 'conflict', 'already_participant');
    expectError(await register('evt_done', { teamId: 'team_echo' }), 409, 'conflict', 'event_closed');
  });

  it.each([
    [{ teamId: 'team_nope' }, 'teamId'],
    [{}, 'teamId'],
    [{ teamId: 'team_echo', stageId: 'stg_open_groups' }, 'stageId'],
    [{ teamId: 'team_echo', stageId: 'stg_live_a', groupId: 'grp_open_a' }, 'groupId'],
    [{ teamId: 'team_echo', groupId: 'grp_live_a1' }, 'stageId'],
    [{ teamId: 'team_echo', status: 'confirmed' }, 'status'],
    [{ teamId: 'team\u0000echo' }, 'teamId'],
  ])('400 naming the field for %j', async (body, field) => {
    const revision = await revisionOf('evt_live');
    expectError(await register('evt_live', body), 400, 'validation_failed', field);
    expect(await revisionOf('evt_live')).toBe(revision);
  });

  it('If-Match: missing 428, stale 412; Idempotency-Key required', async () => {
    const revision = await revisionOf('evt_cup');
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { ifMatch: null }), 428, 'precondition_required');
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { ifMatch: revision + 3 }), 412, 'precondition_failed');
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { key: false }), 400, 'validation_failed', 'idempotency-key');
    expect(await revisionOf('evt_cup')).toBe(revision);
  });

  it('authority: scope, installation, permission; unknown event 404', async () => {
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { token: 'demo-token-readonly' }), 403, 'forbidden', 'missing_scope');
    expectError(await register('evt_rival', { teamId: 'team_echo' }), 403, 'forbidden', 'missing_installation');
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { token: 'demo-token-noesports' }), 403, 'forbidden', 'missing_installation');
    expectError(await register('evt_cup', { teamId: 'team_echo' }, { token: 'demo-token-dave' }), 403, 'forbidden', 'missing_permission');
    const bob = await register('evt_cup', { teamId: 'team_echo' }, { token: 'demo-token-bob' });
    expectError(bob, 403, 'forbidden', 'missing_permission');
    expect(bob.body.error.message).toBe('The user may not invite or register teams or manage participants in this event: that needs the permission event.participants:manage, which administrators and moderators of the organisation hold.');
    expectError(await register('evt_nope', { teamId: 'team_echo' }, { ifMatch: 1 }), 404, 'not_found');
  });

  it('GraphQL createParticipant', async () => {
    const revision = await revisionOf('evt_open');
    await server.db.prisma.team.create({ data: { id: 'team_golf', name: 'Team Golf' } });
    const mutation = `mutation ($eventId: ID!, $input: CreateParticipantInput!, $ifMatch: String, $idempotencyKey: String!) {
      createParticipant(eventId: $eventId, input: $input, ifMatch: $ifMatch, idempotencyKey: $idempotencyKey) { resourceId revision updated replayed } }`;
    const result = await graphql(mutation, { eventId: 'evt_open', input: { teamId: 'team_golf', stageId: 'stg_open_groups', groupId: 'grp_open_b' }, ifMatch: `"${revision}"`, idempotencyKey: uniqueKey('gql') });
    expect(result.data?.createParticipant).toMatchObject({ revision: revision + 1, updated: true, replayed: false });
    const again = await graphql(mutation, { eventId: 'evt_open', input: { teamId: 'team_golf' }, ifMatch: `"${revision + 1}"`, idempotencyKey: uniqueKey('gql') });
    expect(again.errors?.[0].extensions.code).toBe('conflict');
    expect(again.errors?.[0].extensions.details?.[0].issue).toBe('already_participant');
  });
});

describe('answering an invitation', () => {
  it('a user outside the team, or an application actor, is told nothing: 404, and nothing changes', async () => {
    const revision = await revisionOf('evt_cup');
    for (const action of ['accept', 'decline'] as const) {
      expectError(await answer('evt_cup', 'inv_cup_alpha', action, { token: 'demo-token-alice' }), 404, 'not_found');
      expectError(await answer('evt_cup', 'inv_cup_alpha', action, { token: 'demo-token-app' }), 404, 'not_found');
      expectError(await answer('evt_cup', 'inv_cup_alpha', action, { token: 'demo-token-dave' }), 404, 'not_found');
      // bob's invitation, but asked through another event; and an invitation that does not exist.
      expectError(await answer('evt_open', 'inv_cup_alpha', action), 404, 'not_found');
      expectError(await answer('evt_cup', 'inv_nope', action), 404, 'not_found');
      // inv_open_1 invites team_charlie: not bob's.
      expectError(await answer('evt_open', 'inv_open_1', action), 404, 'not_found');
    }
    expect(await revisionOf('evt_cup')).toBe(revision);
    expect((await server.db.prisma.invitation.findUniqueOrThrow({ where: { id: 'inv_cup_alpha' } })).status).toBe('pending');
    expectError(await answer('evt_cup', 'inv_cup_alpha', 'accept', { key: false }), 400, 'validation_failed', 'idempotency-key');
  });

  it("bob accepts for team_alpha: registered in one transaction, one revision, both change-log rows; a replay; a second accept is 409", async () => {
    const revision = await revisionOf('evt_cup');
    const key = uniqueKey('accept');
    const accepted = await answer('evt_cup', 'inv_cup_alpha', 'accept', { key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.data).toMatchObject({ revision: revision + 1, updated: true });
    expect(accepted.headers.get('etag')).toBe(`"${revision + 1}"`);
    const participantId = accepted.body.data.resourceId;
    const participant = await server.db.prisma.participant.findUniqueOrThrow({ where: { id: participantId }, include: { lineup: true } });
    expect(participant).toMatchObject({ eventId: 'evt_cup', teamId: 'team_alpha', status: 'registered' });
    expect(participant.lineup.map((m) => m.userId)).toContain('usr_bob');
    expect((await server.db.prisma.invitation.findUniqueOrThrow({ where: { id: 'inv_cup_alpha' } })).status).toBe('accepted');
    const log = await server.db.prisma.changeLog.findMany({ where: { eventId: 'evt_cup', revision: revision + 1 }, orderBy: { sequence: 'asc' } });
    expect(log.map((row) => [row.type, row.resourceId])).toEqual([['invitation.accepted', 'inv_cup_alpha'], ['participant.created', participantId]]);
    expect(log[0].payload).toMatchObject({ invitationId: 'inv_cup_alpha', teamId: 'team_alpha', participantId });

    const replay = await answer('evt_cup', 'inv_cup_alpha', 'accept', { key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(accepted.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await answer('evt_cup', 'inv_cup_alpha', 'accept'), 409, 'conflict', 'invitation_not_pending');
    expectError(await answer('evt_cup', 'inv_cup_alpha', 'decline'), 409, 'conflict', 'invitation_not_pending');
    expect(await server.db.prisma.participant.count({ where: { eventId: 'evt_cup', teamId: 'team_alpha' } })).toBe(1);
    expect(await revisionOf('evt_cup')).toBe(revision + 1);
  });

  it('accepting for a team that already takes part is 409 already_participant; declining works', async () => {
    // Bob's team is in evt_open already; an invitation there can only be declined.
    await server.db.prisma.invitation.createMany({
      data: [
        { id: 'inv_test_alpha_open', eventId: 'evt_open', teamId: 'team_alpha', status: 'pending' },
        { id: 'inv_test_alpha_draft', eventId: 'evt_draft', teamId: 'team_alpha', stageId: 'stg_draft_main', status: 'pending' },
      ],
    });
    expectError(await answer('evt_open', 'inv_test_alpha_open', 'accept'), 409, 'conflict', 'already_participant');
    const revision = await revisionOf('evt_open');
    const declined = await answer('evt_open', 'inv_test_alpha_open', 'decline');
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.data).toEqual({ resourceId: 'inv_test_alpha_open', revision: revision + 1, updated: true });
    expect((await server.db.prisma.invitation.findUniqueOrThrow({ where: { id: 'inv_test_alpha_open' } })).status).toBe('declined');
    const log = await server.db.prisma.changeLog.findFirstOrThrow({ where: { eventId: 'evt_open', revision: revision + 1 } });
    expect(log).toMatchObject({ type: 'invitation.declined', resourceType: 'invitation', resourceId: 'inv_test_alpha_open' });

    // A token of app_demo for bob whose installations are all revoked: 403 missing_installation.
    await server.db.prisma.installation.updateMany({ where: { id: { in: ['ins_demo_bob', 'ins_demo_org'] } }, data: { status: 'revoked', revokedAt: new Date() } });
    try {
      expectError(await answer('evt_draft', 'inv_test_alpha_draft', 'accept'), 403, 'forbidden', 'missing_installation');
    } finally {
      await server.db.prisma.installation.updateMany({ where: { id: { in: ['ins_demo_bob', 'ins_demo_org'] } }, data: { status: 'active', revokedAt: null } });
    }
  });

  it('GraphQL acceptInvitation and declineInvitation, for bob only', async () => {
    const mutation = (name: string) => `mutation ($eventId: ID!, $invitationId: ID!, $idempotencyKey: String!) {
      ${name}(eventId: $eventId, invitationId: $invitationId, idempotencyKey: $idempotencyKey) { resourceId revision updated replayed } }`;
    const variables = { eventId: 'evt_draft', invitationId: 'inv_test_alpha_draft', idempotencyKey: uniqueKey('gql') };
    const refused = await graphql(mutation('acceptInvitation'), variables, 'demo-token-alice');
    expect(refused.errors?.[0].extensions.code).toBe('not_found');
    const revision = await revisionOf('evt_draft');
    const accepted = await graphql(mutation('acceptInvitation'), variables, 'demo-token-bob');
    expect(accepted.data?.acceptInvitation).toMatchObject({ revision: revision + 1, updated: true, replayed: false });
    const participant = await server.db.prisma.participant.findUniqueOrThrow({ where: { id: accepted.data!.acceptInvitation.resourceId } });
    expect(participant).toMatchObject({ eventId: 'evt_draft', teamId: 'team_alpha' });
    const declined = await graphql(mutation('declineInvitation'), { ...variables, idempotencyKey: uniqueKey('gql') }, 'demo-token-bob');
    expect(declined.errors?.[0].extensions.details?.[0].issue).toBe('invitation_not_pending');
  });
});
