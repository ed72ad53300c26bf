// REST routes of match chat for applications: read a match's messages, add or remove the application's
// reaction on one. Each row runs a field of the competitions subgraph (schema/chat.ts).
import { z } from 'zod';
import { prepareOperation } from '../graphql/operations.ts';
import { chatMessageView as chatMessageSchema } from '../../subgraphs/competitions/views.ts';
import { defineRoute, type RouteRow } from './table.ts';
import { cursorParam, idParam, installationHeader, limitParam, pageMeta, requestIdHeader, selectionOf } from './common.ts';

const TAG = 'Match chat';

// The actor is a union: its variants are selected by type condition.
const MESSAGE = selectionOf(chatMessageSchema.omit({ actor: true })).replace(
  'type content',
  'type actor { ... on ChatUserActor { type userId } ... on ChatApplicationActor { type applicationId } ... on ChatSystemActor { type } ... on ChatModeratorActor { type userId } } content',
);

const installation = installationHeader("Optional: the installation to act through (an active one of your application on the match's event or organisation); else the application's own is found.");
const readHeaders = z.object({ 'svc-installation-id': installation, 'x-request-id': requestIdHeader });
const writeHeaders = z.object({
  'if-match': z.string().max(200).optional().describe('Required: the message revision as a strong ETag, e.g. "3". Missing → 428; stale, unquoted, weak or * → 412.'),
  'svc-installation-id': installation,
  'x-request-id': requestIdHeader,
});
const reactionPath = z.object({
  matchId: idParam,
  messageId: idParam,
  emoji: z.string().min(1).max(200).describe('One emoji, URL-encoded (🔥 is %F0%9F%94%A5); anything else is 400.'),
});
const ETAG_HEADER = { ETag: { description: 'The message revision, e.g. "4".', schema: { type: 'string' } } };
const WHO =
  "No scope is needed: the application reacts as itself, whatever the token's actor. It needs an active installation on the match's event or organisation (else 403 missing_installation); svc-installation-id may name it.";

const demoMessage = {
  id: 'msg_hello',
  matchId: 'mtc_open_1',
  type: 'text',
  actor: { type: 'user', userId: 'usr_bob' },
  content: 'Hello and good luck!',
  replyToId: null,
  senderSide: 'a',
  visibility: 'public',
  reactions: [
    { emoji: '🔥', count: 2, reactedByApplication: true },
    { emoji: '👍', count: 1, reactedByApplication: false },
  ],
  deleted: false,
  revision: 3,
  createdAt: '2026-01-05T13:50:00.000Z',
  updatedAt: '2026-01-05T13:50:00.000Z',
};

const reactionRoute = (method: 'put' | 'delete') => {
  const add = method === 'put';
  const field = add ? 'addChatReaction' : 'removeChatReaction';
  return defineRoute({
    operationId: field,
    method,
    path: '/api/v2/matches/{matchId}/chat/messages/{messageId}/reactions/{emoji}',
    tag: TAG,
    summary: add ? "Add the application's reaction to a chat message" : "Remove the application's reaction from a chat message",
    description: `${
      add
        ? 'Adds the reaction of the calling application with the emoji in the path and increments the message revision. Adding a reaction the application has already made changes nothing: 200 with the message as it is, revision kept.'
        : 'Removes the reaction of the calling application with the emoji in the path and increments the message revision. A reaction the application never made changes nothing: 200 with the message as it is, revision kept.'
    } Requires If-Match with the message revision (missing → 428, stale → 412); a deleted or unknown message is 404. ${WHO}`,
    security: 'bearer',
    input: { path: reactionPath, headers: writeHeaders, requiredHeaders: ['if-match'] },
    operation: prepareOperation(
      `mutation ${field[0].toUpperCase()}${field.slice(1)}($matchId: ID!, $messageId: ID!, $emoji: String!, $ifMatch: String) {
        ${field}(matchId: $matchId, messageId: $messageId, emoji: $emoji, ifMatch: $ifMatch) { ${MESSAGE} }
      }`,
    ),
    variables: ({ path, headers }) => ({ matchId: path.matchId, messageId: path.messageId, emoji: path.emoji, ifMatch: headers['if-match'] ?? null }),
    result: (data) => data[field],
    respond: (data) => ({ headers: { ETag: `"${(data[field] as { revision: number }).revision}"` } }),
    documentedHeaders: ETAG_HEADER,
    success: { status: 200, schema: chatMessageSchema, description: 'The message as it is now.' },
    errors: [400, 401, 403, 404, 412, 428, 429, 500, 503],
    example: add
      ? {
          request: 'PUT /api/v2/matches/mtc_open_1/chat/messages/msg_hello/reactions/%F0%9F%91%8D (If-Match: "3")',
          response: { data: { ...demoMessage, reactions: [demoMessage.reactions[0], { emoji: '👍', count: 2, reactedByApplication: true }], revision: 4 } },
        }
      : {
          request: 'DELETE /api/v2/matches/mtc_open_1/chat/messages/msg_hello/reactions/%F0%9F%94%A5 (If-Match: "3")',
          response: { data: { ...demoMessage, reactions: [{ emoji: '🔥', count: 1, reactedByApplication: false }, demoMessage.reactions[1]], revision: 4 } },
        },
  });
};

export const chatRoutes: RouteRow[] = [
  defineRoute({
    operationId: 'listChatMessages',
    method: 'get',
    path: '/api/v2/matches/{matchId}/chat/messages',
    tag: TAG,
    summary: "List a match's chat messages",
    description:
      "Oldest first, 20 per page by default (keyset pagination). Deleted messages keep their place, with deleted: true and no content or reactions. Each message's revision is the If-Match of a reaction write. The application needs an active installation on the match's event or organisation (else 404, as for any read); svc-installation-id may name it.",
    security: 'bearer',
    input: { path: z.object({ matchId: idParam }), query: z.object({ cursor: cursorParam, limit: limitParam }).strict(), headers: readHeaders },
    operation: prepareOperation(
      `query ListChatMessages($matchId: ID!, $cursor: String, $limit: Int) {
        chatMessages(matchId: $matchId, cursor: $cursor, limit: $limit) { data { ${MESSAGE} } meta { ${selectionOf(pageMeta)} } }
      }`,
    ),
    variables: ({ path, query }) => ({ matchId: path.matchId, ...query }),
    result: (data) => data.chatMessages,
    format: 'list',
    success: { status: 200, schema: chatMessageSchema, description: 'A page of messages.' },
    errors: [400, 401, 403, 404, 429, 500, 503],
    example: {
      request: 'GET /api/v2/matches/mtc_open_1/chat/messages',
      response: {
        data: [
          demoMessage,
          { ...demoMessage, id: 'msg_deleted', actor: { type: 'user', userId: 'usr_carol' }, content: null, senderSide: 'b', reactions: [], deleted: true, revision: 2 },
        ],
        meta: { nextCursor: null, hasMore: false },
      },
    },
  }),
  reactionRoute('put'),
  reactionRoute('delete'),
];
