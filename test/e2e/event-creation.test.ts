// Organiser writes, part one: creating an event (POST /api/v2/organisations/{organisationId}/events)
// and changing it (PATCH /api/v2/events/{eventId}) through REST and GraphQL, with the rules of every
// event write: scope, installation, a user's permission, Idempotency-Key, If-Match, one revision per
// write and its change-log row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, expectError, uniqueKey, writeByGraphQL } from '../support/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(server.url, path, options);
const create = (body: unknown, options: { token?: string | null; key?: string | false; organisationId?: string } = {}) =>
  api(`/api/v2/organisations/${options.organisationId ?? 'org_demo'}/events`, {
    method: 'POST',
    body,
    token: options.token,
    key: options.key === false ? undefined : (options.key ?? uniqueKey('create')),
  });
const eventOf = (id: string) => server.db.prisma.event.findUniqueOrThrow({ where: { id } });
const revisionOf = async (id: string) => (await eventOf(id)).revision;
const patch = async (eventId: string, body: unknown, options: { token?: string; ifMatch?: string | number | null } = {}) =>
  api(`/api/v2/events/${eventId}`, { method: 'PATCH', body, token: options.token, ifMatch: options.ifMatch === undefined ? await revisionOf(eventId) : options.ifMatch });

const graphql = (query: string, variables: Record<string, unknown>, token?: string) => writeByGraphQL(server.url, query, variables, token);

describe('POST /api/v2/organisations/{organisationId}/events', () => {
  it('creates a draft at revision 1 with the defaults, its slug from the name, and logs event.created', async () => {
    const response = await create({ name: 'Spring Cup 2027', game: 'cs2', timezone: 'Europe/Berlin', startsAt: '2027-04-10T09:00:00Z', endsAt: '2027-04-11T20:00:00+02:00' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(Object.keys(response.body.data).sort()).toEqual(['resourceId', 'revision', 'updated']);
    expect(response.body.data).toMatchObject({ revision: 1, updated: true });
    expect(response.headers.get('etag')).toBe('"1"');
    const id = response.body.data.resourceId;
    expect(id).toMatch(/^evt_/);
    expect(await eventOf(id)).toMatchObject({
      organisationId: 'org_demo', name: 'Spring Cup 2027', slug: 'spring-cup-2027', state: 'draft', visibility: 'private', type: 'cup',
      platform: 'pc', currency: 'EUR', region: null, game: 'cs2', timezone: 'Europe/Berlin', revision: 1,
      startsAt: new Date('2027-04-10T09:00:00Z'), endsAt: new Date('2027-04-11T18:00:00Z'), firstStageId: null,
    });
    const log = await server.db.prisma.changeLog.findMany({ where: { eventId: id } });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'event.created', organisationId: 'org_demo', resourceType: 'event', resourceId: id, revision: 1 });
    expect(log[0].payload).toEqual({ eventId: id, revision: 1, name: 'Spring Cup 2027', slug: 'spring-cup-2027', state: 'draft', visibility: 'private' });
    // It reads back like any event, with the ETag its next write needs.
    const read = await api(`/api/v2/events/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
  });

  it('replays a retry with the same key: the same answer, one event', async () => {
    const key = uniqueKey('replay');
    const body = { name: 'Replay Cup' };
    const first = await create(body, { key });
    expect(first.status).toBe(201);
    const again = await create(body, { key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.db.prisma.event.count({ where: { name: 'Replay Cup' } })).toBe(1);
    expectError(await create({ name: 'Another Cup' }, { key }), 409, 'conflict', 'idempotency_key_reused');
    expectError(await create(body, { key: false }), 400, 'validation_failed', 'idempotency-key');
  });

  it('derives a free slug with a numeric suffix; an explicit slug that is taken is 409 slug_taken', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) {
      const response = await create({ name: 'Nordic Masters!' });
      expect(response.status).toBe(201);
      slugs.push((await eventOf(response.body.data.resourceId)).slug);
    }
    expect(slugs).toEqual(['nordic-masters', 'nordic-masters-2', 'nordic-masters-3']);
    // A demo event's slug (evt_open's is "open") as a name, and accents folded.
    expect((await eventOf((await create({ name: 'Open' })).body.data.resourceId)).slug).toBe('open-2');
    expect((await eventOf((await create({ name: 'Coupe d’Été' })).body.data.resourceId)).slug).toBe('coupe-d-ete');
    expect((await eventOf((await create({ name: '大会' })).body.data.resourceId)).slug).toMatch(/^event(-\d+)?$/);
    const taken = await create({ name: 'Anything', slug: 'nordic-masters' });
    expectError(taken, 409, 'conflict', 'slug_taken');
    const chosen = await create({ name: 'Anything', slug: 'my-own-slug' });
    expect(chosen.status).toBe(201);
    expect((await eventOf(chosen.body.data.resourceId)).slug).toBe('my-own-slug');
    // Slugs are per organisation: org_rival may have "open" too.
    const rival = await create({ name: 'Open', slug: 'open' }, { token: 'demo-token-noesports', organisationId: 'org_rival' });
    expect(rival.status, JSON.stringify(rival.body)).toBe(201);
  });

  it('concurrent creations with the same name get distinct slugs, and none fails', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => create({ name: 'Rush Hour' })));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(201));
    const events = await server.db.prisma.event.findMany({ where: { name: 'Rush Hour' }, select: { slug: true } });
    expect(events).toHaveLength(12);
    expect(new Set(events.map((e) => e.slug)).size).toBe(12);
    expect(events.map((e) => e.slug)).toContain('rush-hour');
  });

  it.each([
    [{ name: 'X', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ name: 'X', timezone: 'europe/berlin' }, 'timezone'],
    [{ name: 'X', startsAt: '2027-04-11T09:00:00Z', endsAt: '2027-04-10T09:00:00Z' }, 'endsAt'],
    [{ name: 'X', startsAt: 'tomorrow' }, 'startsAt'],
    [{ name: 'X', colour: 'red' }, 'colour'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: '   ' }, 'name'],
    [{}, 'name'],
    [{ name: 'Nul\u0000Cup' }, 'name'],
    [{ name: 'X', slug: 'Not A Slug' }, 'slug'],
    [{ name: 'X', visibility: 'secret' }, 'visibility'],
  ])('400 naming the field for %j, and nothing is created', async (body, field) => {
    const before = await server.db.prisma.event.count();
    expectError(await create(body), 400, 'validation_failed', field);
    expect(await server.db.prisma.event.count()).toBe(before);
  });

  it('authority: 401 without a token, 403 without the scope, the installation or the permission', async () => {
    const before = await server.db.prisma.event.count();
    expectError(await create({ name: 'Nope' }, { token: null }), 401, 'invalid_token');
    expectError(await create({ name: 'Nope' }, { token: 'demo-token-readonly' }), 403, 'forbidden', 'missing_scope');
    // app_demo has no installation on org_rival; app_noesports none on org_demo; an unknown organisation has none.
    expectError(await create({ name: 'Nope' }, { organisationId: 'org_rival' }), 403, 'forbidden', 'missing_installation');
    expectError(await create({ name: 'Nope' }, { token: 'demo-token-noesports' }), 403, 'forbidden', 'missing_installation');
    expectError(await create({ name: 'Nope' }, { organisationId: 'org_nope' }), 403, 'forbidden', 'missing_installation');
    // dave has no role in org_demo; bob plays but does not organise.
    expectError(await create({ name: 'Nope' }, { token: 'demo-token-dave' }), 403, 'forbidden', 'missing_permission');
    expectError(await create({ name: 'Nope' }, { token: 'demo-token-bob' }), 403, 'forbidden', 'missing_permission');
    expect(await server.db.prisma.event.count()).toBe(before);
    const byAlice = await create({ name: 'By Alice' }, { token: 'demo-token-alice' });
    expect(byAlice.status).toBe(201);
  });

  it('a revoked installation stops creations', async () => {
    await server.db.prisma.installation.create({ data: { id: 'ins_test_rival', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_rival', status: 'active' } });
    expect((await create({ name: 'While Installed' }, { organisationId: 'org_rival' })).status).toBe(201);
    await server.db.prisma.installation.update({ where: { id: 'ins_test_rival' }, data: { status: 'revoked', revokedAt: new Date() } });
    expectError(await create({ name: 'After Revocation' }, { organisationId: 'org_rival' }), 403, 'forbidden', 'missing_installation');
    expect(await server.db.prisma.event.count({ where: { name: 'After Revocation' } })).toBe(0);
  });

  it('GraphQL createEvent: the same write, the same rules', async () => {
    const mutation = `mutation ($organisationId: ID!, $input: CreateEventInput!, $idempotencyKey: String!) {
      createEvent(organisationId: $organisationId, input: $input, idempotencyKey: $idempotencyKey) { resourceId revision updated replayed } }`;
    const variables = { organisationId: 'org_demo', input: { name: 'Graph Cup', visibility: 'public' }, idempotencyKey: uniqueKey('gql') };
    const first = await graphql(mutation, variables);
    expect(first.data?.createEvent).toMatchObject({ revision: 1, updated: true, replayed: false });
    expect(await eventOf(first.data!.createEvent.resourceId)).toMatchObject({ slug: 'graph-cup', visibility: 'public' });
    const again = await graphql(mutation, variables);
    expect(again.data?.createEvent).toEqual({ ...first.data!.createEvent, replayed: true });
    const bad = await graphql(mutation, { ...variables, input: { name: 'Graph Cup', timezone: 'Nowhere/Land' }, idempotencyKey: uniqueKey('gql') });
    expect(bad.errors?.[0].extensions.code).toBe('validation_failed');
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('timezone');
    const refused = await graphql(mutation, { ...variables, idempotencyKey: uniqueKey('gql') }, 'demo-token-dave');
    expect(refused.errors?.[0].extensions.code).toBe('forbidden');
  });
});

describe('PATCH /api/v2/events/{eventId}', () => {
  let eventId: string;
  beforeAll(async () => {
    eventId = (await create({ name: 'Patch Me', startsAt: '2027-05-01T10:00:00Z', endsAt: '2027-05-02T10:00:00Z' })).body.data.resourceId;
  });

  it('changes the fields sent, one revision, event.updated naming them; null clears; the same again is updated false', async () => {
    const response = await patch(eventId, {
      name: 'Patched',
      description: 'Sixteen teams, one weekend.',
      visibility: 'public',
      timezone: 'America/New_York',
      logoUrl: 'https://cdn.example.test/logo.png',
      primaryColor: '#1F6FEB',
      secondaryColor: '#f2cc60',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({ resourceId: eventId, revision: 2, updated: true });
    expect(response.headers.get('etag')).toBe('"2"');
    expect(await eventOf(eventId)).toMatchObject({
      name: 'Patched', slug: 'patch-me', description: 'Sixteen teams, one weekend.', visibility: 'public', timezone: 'America/New_York',
      logoUrl: 'https://cdn.example.test/logo.png', primaryColor: '#1f6feb', secondaryColor: '#f2cc60', revision: 2,
    });
    const log = await server.db.prisma.changeLog.findFirstOrThrow({ where: { eventId, type: 'event.updated' } });
    expect(log).toMatchObject({ resourceType: 'event', resourceId: eventId, revision: 2 });
    expect((log.payload as { fields: string[] }).fields.sort()).toEqual(['description', 'logoUrl', 'name', 'primaryColor', 'secondaryColor', 'timezone', 'visibility']);

    const cleared = await patch(eventId, { description: null, endsAt: null, slug: 'patched' });
    expect(cleared.body.data).toEqual({ resourceId: eventId, revision: 3, updated: true });
    expect(await eventOf(eventId)).toMatchObject({ description: null, endsAt: null, slug: 'patched' });

    const same = await patch(eventId, { name: 'Patched', primaryColor: '#1f6feb' });
    expect(same.body.data).toEqual({ resourceId: eventId, revision: 3, updated: false });
    expect(await server.db.prisma.changeLog.count({ where: { eventId } })).toBe(3);
  });

  it('If-Match: missing 428, stale 412, weak 412; nothing changes', async () => {
    const revision = await revisionOf(eventId);
    expectError(await patch(eventId, { name: 'No' }, { ifMatch: null }), 428, 'precondition_required');
    expectError(await patch(eventId, { name: 'No' }, { ifMatch: revision - 1 }), 412, 'precondition_failed', `current revision is ${revision}`);
    expectError(await patch(eventId, { name: 'No' }, { ifMatch: `W/"${revision}"` }), 412, 'precondition_failed', 'weak ETag');
    expect(await revisionOf(eventId)).toBe(revision);
  });

  it.each([
    [{}, 'body'],
    [{ primaryColor: 'blue' }, 'primaryColor'],
    [{ secondaryColor: '#12345' }, 'secondaryColor'],
    [{ timezone: 'Atlantis/Capital' }, 'timezone'],
    [{ startsAt: '2027-05-03T10:00:00Z', endsAt: '2027-05-01T10:00:00Z' }, 'endsAt'],
    [{ name: null }, 'name'],
    [{ name: 'y'.repeat(101) }, 'name'],
    [{ description: 'bad\u0000byte' }, 'description'],
    [{ bannerUrl: 'ftp://example.test/banner.png' }, 'bannerUrl'],
    [{ state: 'live' }, 'state'],
  ])('400 naming the field for %j', async (body, field) => {
    const revision = await revisionOf(eventId);
    expectError(await patch(eventId, body), 400, 'validation_failed', field);
    expect(await revisionOf(eventId)).toBe(revision);
  });

  it('checks the dates against the stored ones, and slugs against the organisation', async () => {
    await patch(eventId, { startsAt: '2027-06-01T10:00:00Z', endsAt: '2027-06-02T10:00:00Z' });
    expectError(await patch(eventId, { endsAt: '2027-05-30T10:00:00Z' }), 400, 'validation_failed', 'endsAt');
    expectError(await patch(eventId, { startsAt: '2027-06-03T10:00:00Z' }), 400, 'validation_failed', 'startsAt');
    expectError(await patch(eventId, { slug: 'open' }), 409, 'conflict', 'slug_taken');
  });

  it('authority: scope, installation, permission; unknown event 404', async () => {
    expectError(await patch('evt_draft', { name: 'No' }, { token: 'demo-token-readonly' }), 403, 'forbidden', 'missing_scope');
    expectError(await patch('evt_rival', { name: 'No' }), 403, 'forbidden', 'missing_installation');
    expectError(await patch('evt_draft', { name: 'No' }, { token: 'demo-token-dave' }), 403, 'forbidden', 'missing_permission');
    expectError(await patch('evt_nope', { name: 'No' }, { ifMatch: 1 }), 404, 'not_found');
    expect((await patch('evt_draft', { name: 'Demo Draft Cup (renamed)' }, { token: 'demo-token-alice' })).status).toBe(200);
  });

  it('GraphQL updateEvent: absent keeps, null clears', async () => {
    const revision = await revisionOf(eventId);
    const result = await graphql(
      `mutation ($eventId: ID!, $input: UpdateEventInput!, $ifMatch: String) { updateEvent(eventId: $eventId, input: $input, ifMatch: $ifMatch) { resourceId revision updated replayed } }`,
      { eventId, input: { game: 'valorant', logoUrl: null }, ifMatch: `"${revision}"` },
    );
    expect(result.data?.updateEvent).toEqual({ resourceId: eventId, revision: revision + 1, updated: true, replayed: false });
    expect(await eventOf(eventId)).toMatchObject({ game: 'valorant', logoUrl: null, name: 'Patched' });
  });
});

describe('the webhook catalogue', () => {
  it('lists the organiser change types', async () => {
    const catalogue = await api('/api/v2/developer/webhook-event-types');
    expect(catalogue.status).toBe(200);
    const names = catalogue.body.data.map((type: { name: string }) => type.name);
    expect(names).toEqual(expect.arrayContaining(['event.created', 'event.updated', 'participant.created', 'invitation.accepted', 'invitation.declined']));
    // An endpoint may subscribe to them.
    const endpoint = await api('/api/v2/developer/apps/app_demo/webhook-endpoints', {
      method: 'POST',
      key: uniqueKey('hook'),
      body: { name: 'Organiser', url: 'https://hooks.example.test/organiser', subscribedEvents: ['event.created', 'invitation.accepted'] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    // A creation becomes a delivery of event.created to it, carrying the change's details.
    const created = await create({ name: 'Hooked Cup' });
    expect(created.status).toBe(201);
    const eventId = created.body.data.resourceId;
    const endpointId: string = endpoint.body.data.endpoint.id;
    expect(endpointId).toMatch(/^whe_/);
    const delivered = () =>
      server.db.prisma.webhookDelivery.findFirst({ where: { endpointId, eventType: 'event.created', payload: { path: ['data', 'eventId'], equals: eventId } } });
    let delivery = await delivered();
    for (const deadline = Date.now() + 20_000; !delivery && Date.now() < deadline; delivery = await delivered()) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(delivery?.payload).toMatchObject({
      type: 'event.created',
      data: { eventId, organisationId: 'org_demo', resourceType: 'event', resourceId: eventId, revision: 1, details: { name: 'Hooked Cup', slug: 'hooked-cup', state: 'draft', visibility: 'private' } },
    });
    // And the application's delivery log lists it, under its endpoint.
    const page = await api(`/api/v2/developer/apps/app_demo/webhook-deliveries?endpointId=${endpointId}&eventType=event.created`);
    expect(page.body.data.map((d: { id: string }) => d.id), JSON.stringify({ delivery, page: page.body })).toContain(delivery!.id);
  });
});
