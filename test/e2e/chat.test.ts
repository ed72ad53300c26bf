// Match chat for applications end to end: removing and adding the application's reaction exactly as
// the interface says (emoji in the path, If-Match on the message revision, deleted messages,
// installations, concurrency), reading the chat, GraphQL, and the change reaching the realtime gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { startTestServer, type TestServer } from '../support/server.ts';
import { bearer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const chat = '/api/v2/matches/mtc_open_1/chat/messages';
const reaction = (emoji: string, message = 'msg_hello') => `${chat}/${message}/reactions/${encodeURIComponent(emoji)}`;
const revision = async (id = 'msg_hello') => (await server.db.prisma.chatMessage.findUniqueOrThrow({ where: { id } })).revision;

async function send(method: 'PUT' | 'DELETE', path: string, headers: Record<string, string> = {}, token = 'demo-token-app') {
  const response = await fetch(`${server.url}${path}`, { method, headers: { ...bearer(token), ...headers } });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.json() };
}
const issueOf = (body: { error: { details?: { issue: string }[] } }) => body.error.details?.[0]?.issue;

describe('removing the application’s reaction', () => {
  it('removes it, moves the revision on and answers the whole message', async () => {
    const removed = await send('DELETE', reaction('🔥'), { 'if-match': '"3"' });
    expect(removed.status).toBe(200);
    expect(removed.etag).toBe('"4"');
    expect(removed.body.data).toEqual({
      id: 'msg_hello',
      matchId: 'mtc_open_1',
      type: 'text',
      actor: { type: 'user', userId: 'usr_bob' },
      content: 'Hello and good luck!',
      replyToId: null,
      senderSide: 'a',
      visibility: 'public',
      reactions: [
        { emoji: '🔥', count: 1, reactedByApplication: false },
        { emoji: '👍', count: 1, reactedByApplication: false },
      ],
      deleted: false,
      revision: 4,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const change = await server.db.prisma.changeLog.findFirst({ where: { type: 'chat.reaction_removed' } });
    expect(change).toMatchObject({ organisationId: 'org_demo', eventId: 'evt_open', resourceType: 'chat_message', resourceId: 'msg_hello', payload: { matchId: 'mtc_open_1', emoji: '🔥', messageRevision: 4 } });
  });

  it('changes nothing for a reaction the application never made, and keeps the revision', async () => {
    for (const emoji of ['🔥', '👍']) {
      const unchanged = await send('DELETE', reaction(emoji), { 'if-match': '"4"' });
      expect(unchanged.status).toBe(200);
      expect(unchanged.body.data.revision).toBe(4);
      expect(unchanged.etag).toBe('"4"');
    }
    expect(await server.db.prisma.changeLog.count({ where: { type: 'chat.reaction_removed' } })).toBe(1);
  });

  it('needs If-Match (428), the current revision (412), a message that is there (404) and one emoji (400)', async () => {
    expect((await send('DELETE', reaction('🔥'))).status).toBe(428);
    const stale = await send('DELETE', reaction('🔥'), { 'if-match': '"3"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error.details[0]).toEqual({ field: 'if-match', issue: 'current revision is 4' });
    for (const value of ['W/"4"', '4', '*']) expect((await send('DELETE', reaction('🔥'), { 'if-match': value })).status, value).toBe(412);
    expect((await send('DELETE', reaction('🔥', 'msg_deleted'), { 'if-match': '"2"' })).status).toBe(404);
    expect((await send('DELETE', reaction('🔥', 'msg_nope'), { 'if-match': '"1"' })).status).toBe(404);
    // A message is found under its own match only.
    expect((await send('DELETE', `/api/v2/matches/mtc_live_a_001/chat/messages/msg_hello/reactions/${encodeURIComponent('🔥')}`, { 'if-match': '"4"' })).status).toBe(404);
    for (const emoji of ['fire', '🔥🔥', '🔥 ', ':fire:', 'a']) {
      const refused = await send('DELETE', reaction(emoji), { 'if-match': '"4"' });
      expect(refused.status, emoji).toBe(400);
      expect(issueOf(refused.body)).toBe('not_one_emoji');
    }
    expect(await revision()).toBe(4);
  });

  it('acts through an installation on the match’s organisation, which svc-installation-id may name', async () => {
    const other = await send('DELETE', reaction('👍'), { 'if-match': '"4"' }, 'demo-token-noesports');
    expect(other.status).toBe(403);
    expect(issueOf(other.body)).toBe('missing_installation');
    expect((await send('DELETE', reaction('👍'), { 'if-match': '"4"', 'svc-installation-id': 'ins_demo_org' })).status).toBe(200);
    for (const [installation, issue] of [
      ['ins_demo_bob', 'installation_mismatch'],
      ['ins_demo_carol', 'missing_installation'],
      ['ins_noesports_org', 'missing_installation'],
      ['ins_nope', 'missing_installation'],
    ]) {
      const refused = await send('DELETE', reaction('👍'), { 'if-match': '"4"', 'svc-installation-id': installation });
      expect(refused.status, installation).toBe(403);
      expect(issueOf(refused.body)).toBe(issue);
    }
  });

  it('of concurrent removals with the same If-Match, exactly one moves the revision', async () => {
    const added = await send('PUT', reaction('🎉'), { 'if-match': `"${await revision()}"` });
    expect(added.status).toBe(200);
    const before = added.body.data.revision;
    const answers = await Promise.all(Array.from({ length: 12 }, () => send('DELETE', reaction('🎉'), { 'if-match': `"${before}"` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 412)).toHaveLength(11);
    expect(await revision()).toBe(before + 1);
  });
});

describe('adding, reading and following', () => {
  it('adds the application’s reaction once: adding it again changes nothing', async () => {
    const current = await revision();
    const added = await send('PUT', reaction('👍🏽'), { 'if-match': `"${current}"` });
    expect(added.status).toBe(200);
    expect(added.body.data.revision).toBe(current + 1);
    expect(added.body.data.reactions).toContainEqual({ emoji: '👍🏽', count: 1, reactedByApplication: true });
    const again = await send('PUT', reaction('👍🏽'), { 'if-match': `"${current + 1}"` });
    expect(again.status).toBe(200);
    expect(again.body.data.revision).toBe(current + 1);
    expect((await send('PUT', reaction('🇫🇷'), { 'if-match': `"${current}"` })).status).toBe(412);
    expect((await send('PUT', reaction('🔥', 'msg_deleted'), { 'if-match': '"2"' })).status).toBe(404);
  });

  it('lists the chat oldest first in cursor pages, deleted messages without content', async () => {
    const first = await fetch(`${server.url}${chat}?limit=1`, { headers: bearer('demo-token-app') }).then((r) => r.json());
    expect(first.data.map((m: { id: string }) => m.id)).toEqual(['msg_hello']);
    expect(first.meta.hasMore).toBe(true);
    const rest = await fetch(`${server.url}${chat}?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`, { headers: bearer('demo-token-app') }).then((r) => r.json());
    expect(rest.data).toEqual([
      expect.objectContaining({ id: 'msg_deleted', deleted: true, content: null, reactions: [], actor: { type: 'user', userId: 'usr_carol' }, revision: 2 }),
    ]);
    expect(rest.meta).toEqual({ nextCursor: null, hasMore: false });
    expect((await fetch(`${server.url}${chat}`, { headers: bearer('demo-token-noesports') })).status).toBe(404);
    expect((await fetch(`${server.url}${chat}?cursor=bogus`, { headers: bearer('demo-token-app') })).status).toBe(400);
  });

  it('works the same through GraphQL, the actor a union', async () => {
    const graphql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...bearer('demo-token-app'), 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })).json();
    const listed = await graphql(`{ chatMessages(matchId: "mtc_open_1") { data { id actor { __typename ... on ChatUserActor { userId } } reactions { emoji count reactedByApplication } } } }`);
    expect(listed.data.chatMessages.data[0]).toMatchObject({ id: 'msg_hello', actor: { __typename: 'ChatUserActor', userId: 'usr_bob' } });
    const current = await revision();
    const removed = await graphql(`mutation ($ifMatch: String) { removeChatReaction(matchId: "mtc_open_1", messageId: "msg_hello", emoji: "👍🏽", ifMatch: $ifMatch) { revision } }`, { ifMatch: `"${current}"` });
    expect(removed.data.removeChatReaction.revision).toBe(current + 1);
    const missing = await graphql(`mutation { addChatReaction(matchId: "mtc_open_1", messageId: "msg_hello", emoji: "🔥") { revision } }`);
    expect(missing.errors[0].extensions.code).toBe('precondition_required');
  });

  it('reaches the realtime gateway as a change of the event', async () => {
    const client = createClient({ url: server.url.replace(/^http/, 'ws') + '/api/v1/gateway', webSocketImpl: WebSocket, connectionParams: { apiKey: 'demo-org-key-0001' }, retryAttempts: 0 });
    try {
      const received = new Promise<{ type: string; resourceType: string; resourceId: string }>((resolve, reject) => {
        client.subscribe<{ eventChanged: { type: string; resourceType: string; resourceId: string } }>(
          { query: 'subscription { eventChanged(eventId: "evt_open") { type resourceType resourceId } }' },
          // Only an addition: a change of an earlier test may still be on its way to the gateway.
          { next: ({ data }) => data!.eventChanged.type === 'chat.reaction_added' && resolve(data!.eventChanged), error: reject, complete: () => undefined },
        );
      });
      // The subscription starts asynchronously (no acknowledgement in the protocol): a change written
      // before it has started is not sent, so write again, with another emoji, until one arrives.
      let arrived: { type: string } | undefined;
      void received.then((change) => (arrived = change));
      for (const emoji of ['🎯', '🎲', '🎳', '🎻', '🎺']) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (arrived) break;
        expect((await send('PUT', reaction(emoji), { 'if-match': `"${await revision()}"` })).status).toBe(200);
        await Promise.race([received, new Promise((resolve) => setTimeout(resolve, 1_000))]);
        if (arrived) break;
      }
      expect(await received).toEqual({ type: 'chat.reaction_added', resourceType: 'chat_message', resourceId: 'msg_hello' });
    } finally {
      await client.dispose();
    }
  });
});
