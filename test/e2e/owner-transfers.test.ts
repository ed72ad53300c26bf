// Owner transfers end to end, through REST and GraphQL: accepting exactly as the interface says (key,
// caller, states, concurrency), and the lifecycle around it (offer, list, read, decline, cancel,
// expiry, webhooks verified with standardwebhooks).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
  receiver = await startReceiver();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  vi.unstubAllEnvs();
});

const transfers = (appId: string) => `/api/v2/developer/apps/${appId}/owner-transfers`;
/** A POST with a fresh Idempotency-Key, the one given, or (null) none. */
const post = (path: string, token: string, body?: unknown, key: string | null = uniqueKey('otr')) => call(server.url, path, { method: 'POST', token, key: key ?? undefined, body });
const ownerOf = async (id: string) => {
  const app = await server.db.prisma.application.findUniqueOrThrow({ where: { id } });
  return { type: app.ownerType, id: app.ownerId };
};
async function graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any>; errors?: { message: string; extensions: { code: string; details?: { issue: string }[] } }[] };
}
const issueOf = (body: { error: { details?: { issue: string }[] } }) => body.error.details?.[0]?.issue;

describe('accepting an owner transfer', () => {
  it('refuses without an Idempotency-Key, from an application actor, and from a user who does not manage the new owner', async () => {
    const path = `${transfers('app_transfer')}/otr_pending/accept`;
    const missing = await post(path, 'demo-token-dave', undefined, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'validation_failed', details: [{ field: 'idempotency-key', issue: 'required' }] });
    const app = await post(path, 'demo-token-app');
    expect(app.status).toBe(403);
    expect(issueOf(app.body)).toBe('user_actor_required');
    const alice = await post(path, 'demo-token-alice');
    expect(alice.status).toBe(403);
    expect(issueOf(alice.body)).toBe('missing_permission');
    expect(await ownerOf('app_transfer')).toEqual({ type: 'organisation', id: 'org_demo' });
  });

  it('answers 409 with the precise reason for an expired or settled transfer, and 404 for an unknown one', async () => {
    const expired = await post(`${transfers('app_transfer')}/otr_expired/accept`, 'demo-token-dave');
    expect(expired.status).toBe(409);
    expect(expired.body.error).toMatchObject({ code: 'conflict', details: [{ field: 'expiresAt', issue: 'expired' }] });
    // otr_done went to org_demo: alice manages it, and finds it settled.
    const done = await post(`${transfers('app_transfer')}/otr_done/accept`, 'demo-token-alice');
    expect(done.status).toBe(409);
    expect(done.body.error).toMatchObject({ code: 'conflict', details: [{ field: 'status', issue: 'not_pending' }] });
    expect((await post(`${transfers('app_transfer')}/otr_nope/accept`, 'demo-token-dave')).status).toBe(404);
    // A transfer is found under its own application only.
    expect((await post(`${transfers('app_demo')}/otr_pending/accept`, 'demo-token-dave')).status).toBe(404);
    expect((await post(`${transfers('app_nope')}/otr_pending/accept`, 'demo-token-dave')).status).toBe(404);
  });

  it('moves the application to the new owner, answers the transfer, replays with the same key and refuses a second key', async () => {
    const path = `${transfers('app_transfer')}/otr_pending/accept`;
    const key = uniqueKey('accept');
    const accepted = await post(path, 'demo-token-dave', undefined, key);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('etag')).toBe('"2"');
    expect(accepted.body.data).toEqual({
      id: 'otr_pending',
      applicationId: 'app_transfer',
      status: 'accepted',
      fromOwner: { type: 'organisation', id: 'org_demo' },
      toOwner: { type: 'organisation', id: 'org_rival' },
      revision: 2,
      createdAt: expect.any(String),
      expiresAt: '2100-01-01T00:00:00.000Z',
    });
    expect(await ownerOf('app_transfer')).toEqual({ type: 'organisation', id: 'org_rival' });

    const replay = await post(path, 'demo-token-dave', undefined, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(accepted.body.data);
    const again = await post(path, 'demo-token-dave');
    expect(again.status).toBe(409);
    expect(issueOf(again.body)).toBe('not_pending');

    const changes = await server.db.prisma.changeLog.findMany({ where: { resourceType: 'application', resourceId: 'app_transfer' } });
    expect(changes.map((c) => c.type)).toEqual(['application.owner_transfer.accepted']);
    // Now dave manages the owner: he sees every transfer of the application.
    const listed = await call(server.url, transfers('app_transfer'), { token: 'demo-token-dave' });
    expect(listed.body.data.map((t: { id: string; status: string }) => [t.id, t.status]).sort()).toEqual([
      ['otr_done', 'accepted'],
      ['otr_expired', 'expired'],
      ['otr_pending', 'accepted'],
    ]);
  });

  it('refuses when the application changed owner since the transfer was offered', async () => {
    const offered = await post(transfers('app_noesports'), 'demo-token-dave', { toOwner: { type: 'organisation', id: 'org_demo' } });
    expect(offered.status).toBe(201);
    await server.db.prisma.application.update({ where: { id: 'app_noesports' }, data: { ownerType: 'user', ownerId: 'usr_dave' } });
    try {
      const accepted = await post(`${transfers('app_noesports')}/${offered.body.data.id}/accept`, 'demo-token-alice');
      expect(accepted.status).toBe(409);
      expect(accepted.body.error).toMatchObject({ code: 'conflict', details: [{ field: 'fromOwner', issue: 'owner_changed' }] });
      expect(await ownerOf('app_noesports')).toEqual({ type: 'user', id: 'usr_dave' });
    } finally {
      await server.db.prisma.application.update({ where: { id: 'app_noesports' }, data: { ownerType: 'organisation', ownerId: 'org_rival' } });
    }
    expect((await post(`${transfers('app_noesports')}/${offered.body.data.id}/cancel`, 'demo-token-dave')).status).toBe(200);
  });

  it('20 concurrent accepts with different keys: exactly one moves the application', async () => {
    const offered = await post(transfers('app_noesports'), 'demo-token-dave', { toOwner: { type: 'organisation', id: 'org_demo' } });
    expect(offered.status).toBe(201);
    const before = await server.db.prisma.changeLog.count({ where: { type: 'application.owner_transfer.accepted' } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(`${transfers('app_noesports')}/${offered.body.data.id}/accept`, 'demo-token-alice')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => issueOf(a.body) === 'not_pending')).toBe(true);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    expect(await ownerOf('app_noesports')).toEqual({ type: 'organisation', id: 'org_demo' });
    expect(await server.db.prisma.changeLog.count({ where: { type: 'application.owner_transfer.accepted' } })).toBe(before + 1);
    // Tokens of the application keep working, now with the new owner's entitlements.
    const context = await call(server.url, '/api/v2/auth/context', { token: 'demo-token-noesports' });
    expect(context.status).toBe(200);
    // Give it back for the tests that follow.
    const back = await post(transfers('app_noesports'), 'demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' } });
    expect((await post(`${transfers('app_noesports')}/${back.body.data.id}/accept`, 'demo-token-dave')).status).toBe(200);
  });
});

describe('the lifecycle around it', () => {
  it('offers, lists, reads, declines and cancels, with the rules of each', async () => {
    const path = transfers('app_demo');
    // Validation: the owner must exist and differ, the expiry is 1–30 days.
    for (const [body, issue] of [
      [{ toOwner: { type: 'organisation', id: 'org_demo' } }, 'same_owner'],
      [{ toOwner: { type: 'organisation', id: 'org_nope' } }, 'not_found'],
      [{ toOwner: { type: 'planet', id: 'earth' } }, undefined],
      [{ toOwner: { type: 'organisation', id: 'org_rival' }, expiresInDays: 31 }, undefined],
      [{ toOwner: { type: 'organisation', id: 'org_rival' }, extra: 1 }, undefined],
    ] as const) {
      const refused = await post(path, 'demo-token-alice', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      if (issue) expect(issueOf(refused.body)).toBe(issue);
    }
    expect((await post(path, 'demo-token-app', { toOwner: { type: 'organisation', id: 'org_rival' } })).status).toBe(403);
    expect((await post(path, 'demo-token-dave', { toOwner: { type: 'organisation', id: 'org_rival' } })).status).toBe(403);

    const created = await post(path, 'demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' }, expiresInDays: 2 });
    expect(created.status).toBe(201);
    const offer = created.body.data;
    expect(offer).toMatchObject({ applicationId: 'app_demo', status: 'pending', fromOwner: { type: 'organisation', id: 'org_demo' }, toOwner: { type: 'organisation', id: 'org_rival' }, revision: 1 });
    expect(Date.parse(offer.expiresAt) - Date.parse(offer.createdAt)).toBe(2 * 24 * 3600 * 1000);
    // One pending transfer at a time.
    const second = await post(path, 'demo-token-alice', { toOwner: { type: 'user', id: 'usr_bob' } });
    expect(second.status).toBe(409);
    expect(second.body.error.details[0]).toEqual({ issue: 'transfer_pending', field: offer.id });

    // Both sides read it; the application itself too; another application does not see it.
    for (const token of ['demo-token-alice', 'demo-token-dave', 'demo-token-app']) {
      const read = await call(server.url, `${path}/${offer.id}`, { token });
      expect(read.status, token).toBe(200);
      expect(read.body.data).toEqual(offer);
    }
    expect((await call(server.url, `${path}/${offer.id}`, { token: 'demo-token-noesports' })).status).toBe(404);
    expect((await call(server.url, path, { token: 'demo-token-noesports' })).status).toBe(404);
    const pending = await call(server.url, `${path}?status=pending`, { token: 'demo-token-dave' });
    expect(pending.body.data.map((t: { id: string }) => t.id)).toEqual([offer.id]);

    // Only the receiving side declines; only the sending side cancels.
    expect((await post(`${path}/${offer.id}/decline`, 'demo-token-alice')).status).toBe(403);
    expect((await post(`${path}/${offer.id}/cancel`, 'demo-token-dave')).status).toBe(403);
    const declined = await post(`${path}/${offer.id}/decline`, 'demo-token-dave');
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({ id: offer.id, status: 'declined', revision: 2 });
    expect(await ownerOf('app_demo')).toEqual({ type: 'organisation', id: 'org_demo' });
    expect((await post(`${path}/${offer.id}/accept`, 'demo-token-dave')).status).toBe(409);

    const next = await post(path, 'demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' } });
    expect(next.status).toBe(201);
    const cancelled = await post(`${path}/${next.body.data.id}/cancel`, 'demo-token-alice');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', revision: 2 });
    expect((await post(`${path}/${next.body.data.id}/accept`, 'demo-token-dave')).status).toBe(409);

    // Newest first, with a cursor.
    const first = await call(server.url, `${path}?limit=1`, { token: 'demo-token-alice' });
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual([next.body.data.id]);
    const rest = await call(server.url, `${path}?limit=1&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`, { token: 'demo-token-alice' });
    expect(rest.body.data.map((t: { id: string }) => t.id)).toEqual([offer.id]);
  });

  it('sends application.owner_transfer.* webhooks to the application’s own endpoints, signed', async () => {
    const endpoint = await call(server.url, '/api/v2/developer/apps/app_demo/webhook-endpoints', {
      method: 'POST',
      key: uniqueKey('whe'),
      body: { name: 'Transfers', url: receiver.url, subscribedEvents: ['application.owner_transfer.created', 'application.owner_transfer.declined'] },
    });
    expect(endpoint.status).toBe(201);
    const offer = await post(transfers('app_demo'), 'demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' } });
    expect(offer.status).toBe(201);
    expect((await post(`${transfers('app_demo')}/${offer.body.data.id}/decline`, 'demo-token-dave')).status).toBe(200);
    // The receiver may also get the changes of earlier tests' transfers: this offer's two are awaited.
    type Payload = { type: string; data: Record<string, any> };
    const ofThisOffer = () =>
      receiver.received
        .map((request) => new Webhook(endpoint.body.data.secret).verify(request.body, request.headers) as Payload)
        .filter((payload) => payload.data.details.transferId === offer.body.data.id);
    const deadline = Date.now() + 20_000;
    while (ofThisOffer().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const payloads = ofThisOffer();
    expect(payloads.map((p) => p.type).sort()).toEqual(['application.owner_transfer.created', 'application.owner_transfer.declined']);
    for (const payload of payloads) {
      expect(payload.data).toMatchObject({ organisationId: null, eventId: null, resourceType: 'application', resourceId: 'app_demo' });
      expect(payload.data.details).toMatchObject({ transferId: offer.body.data.id, toOwner: { type: 'organisation', id: 'org_rival' } });
    }
    // Another application's endpoints get nothing of it.
    const others = await server.db.prisma.webhookDelivery.count({ where: { eventType: { startsWith: 'application.owner_transfer' }, applicationId: { not: 'app_demo' } } });
    expect(others).toBe(0);
  });

  it('works the same through GraphQL', async () => {
    const created = await graphql(
      'demo-token-alice',
      `mutation ($key: String!) { createOwnerTransfer(appId: "app_demo", input: { toOwner: { type: user, id: "usr_dave" } }, idempotencyKey: $key) { id status toOwner { type id } } }`,
      { key: uniqueKey('gql') },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createOwnerTransfer.id;
    expect(created.data!.createOwnerTransfer).toEqual({ id, status: 'pending', toOwner: { type: 'user', id: 'usr_dave' } });
    const listed = await graphql('demo-token-dave', `{ ownerTransfers(appId: "app_demo", status: pending) { data { id fromOwner { id } } } }`);
    expect(listed.data!.ownerTransfers.data).toEqual([{ id, fromOwner: { id: 'org_demo' } }]);
    const refused = await graphql('demo-token-alice', `mutation ($key: String!) { acceptOwnerTransfer(appId: "app_demo", transferId: "${id}", idempotencyKey: $key) { id } }`, { key: uniqueKey('gql') });
    expect(refused.errors?.[0].extensions.code).toBe('forbidden');
    const cancelled = await graphql('demo-token-alice', `mutation ($key: String!) { cancelOwnerTransfer(appId: "app_demo", transferId: "${id}", idempotencyKey: $key) { status revision } }`, { key: uniqueKey('gql') });
    expect(cancelled.data!.cancelOwnerTransfer).toEqual({ status: 'cancelled', revision: 2 });
    const expired = await graphql('demo-token-dave', `mutation { acceptOwnerTransfer(appId: "app_transfer", transferId: "otr_expired", idempotencyKey: "k-1") { id } }`);
    expect(expired.errors?.[0].extensions).toMatchObject({ code: 'conflict', details: [{ issue: 'expired' }] });
  });
});
