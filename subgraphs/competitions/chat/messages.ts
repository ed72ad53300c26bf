// Match chat for applications (docs/chat.md): read a match's messages, and add or remove the calling
// application's reaction on one. The application needs an active installation on the match's event
// or organisation (the svc-installation-id header may name which); no scope is needed, an application
// reacts as itself. A reaction write takes If-Match with the message revision and, when it changes
// something, moves the revision on and records a change (chat.reaction_added / _removed) in the same
// transaction; a write that changes nothing answers the message as it is.
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { CHANGE_LOG_INSERT, NOTIFY_CHANGES } from '../../../platform/domain/change-log.ts';
import { failWith, guardFailure } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { WIRE } from '../../../platform/db/wire-models.ts';
import type { RowOf } from '../../../platform/db/wire-rows.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { installationFor, namedInstallation } from '../../../platform/domain/authority.ts';
import { ApiError, forbidden, notFound } from '../../../platform/api/errors.ts';
import { expectedRevision, revisionMismatch } from '../../../platform/api/preconditions.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../../platform/api/pagination.ts';
import type { chatActorView, chatMessageView } from '../views.ts';
import type { ChangeType } from '../../../platform/domain/change-catalogue.ts';

// A message as answered, and who wrote it: the view's types (views.ts), declared once.
export type ChatActor = z.output<typeof chatActorView>;
export type ChatMessageView = z.output<typeof chatMessageView>;

// A message's own columns, from the datamodel (wire-rows.ts); content is read apart (hidden once deleted).
const MESSAGE = WIRE.chatMessage.pick(
  'id', 'matchId', 'type', 'actorType', 'actorId', 'replyToId', 'senderSide', 'visibility', 'deleted', 'revision', 'createdAt', 'updatedAt',
);

type MessageRow = RowOf<typeof MESSAGE> & {
  content: string | null;
  reactions: { emoji: string; count: number; mine: boolean }[] | null;
  /** createdAt to the microsecond: the cursor's key. */
  sortKey: string;
};

// A message with its reactions summed per emoji (in the order each emoji was first used), and whether
// the calling application ($2) is among each one's reactors. Deleted messages show neither content
// nor reactions.
const MESSAGE_COLUMNS = `
  ${MESSAGE.columns}, CASE WHEN m.deleted THEN NULL ELSE m.content END AS content,
  to_char(m."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.US') AS "sortKey",
  CASE WHEN m.deleted THEN NULL ELSE (
    SELECT json_agg(json_build_object('emoji', r.emoji, 'count', r.count, 'mine', r.mine) ORDER BY r.first, r.emoji)
    FROM (
      SELECT emoji, count(*)::int AS count, bool_or("actorType" = 'application' AND "actorId" = $2) AS mine, min("createdAt") AS first
      FROM "ChatReaction" WHERE "messageId" = m.id GROUP BY emoji) r) END AS reactions`;

const MESSAGE_SQL = `SELECT ${MESSAGE_COLUMNS} FROM "ChatMessage" m WHERE m.id = $1 AND m."matchId" = $3`;

const MESSAGES_PAGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM "ChatMessage" m
  WHERE m."matchId" = $1 AND ($3::timestamp IS NULL OR (m."createdAt", m.id) > ($3::timestamp, $4))
  ORDER BY m."createdAt", m.id
  LIMIT $5`;

const MATCH_SQL = `SELECT m.id, m."eventId", e."organisationId" FROM "Match" m JOIN "Event" e ON e.id = m."eventId" WHERE m.id = $1`;

function actorOf(row: MessageRow): ChatActor {
  if (row.actorType === 'application') return { type: 'application', applicationId: row.actorId ?? '' };
  if (row.actorType === 'moderator') return { type: 'moderator', userId: row.actorId ?? '' };
  if (row.actorType === 'user') return { type: 'user', userId: row.actorId ?? '' };
  return { type: 'system' };
}

const toView = (row: MessageRow): ChatMessageView => ({
  id: row.id,
  matchId: row.matchId,
  type: row.type,
  actor: actorOf(row),
  content: row.content,
  replyToId: row.replyToId,
  // Text columns that only ever hold the view's values (the writers take them from the same enums).
  senderSide: row.senderSide as ChatMessageView['senderSide'],
  visibility: row.visibility as ChatMessageView['visibility'],
  reactions: (row.reactions ?? []).map((r) => ({ emoji: r.emoji, count: r.count, reactedByApplication: r.mine })),
  deleted: row.deleted,
  revision: row.revision,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

interface ChatMatch {
  id: string;
  eventId: string;
  organisationId: string;
}

/**
 * The match, for an application installed on its event or organisation. An installation named by
 * svc-installation-id must be an active one of this application there (else 403); without the
 * header, none at all is 404 for a read and 403 for a write, as for events.
 */
async function chatMatch(ctx: SubgraphContext, matchId: string, use: 'read' | 'write'): Promise<{ match: ChatMatch; applicationId: string }> {
  const authority = await ctx.authority();
  const [match] = await ctx.sql<ChatMatch>(MATCH_SQL, [matchId]);
  const named = ctx.scope.installationId;
  if (named) {
    const installation = await namedInstallation(ctx.sql, authority.applicationId, named);
    if (!match) throw notFound('The match');
    const covers = (installation.targetType === 'organisation' && installation.targetId === match.organisationId) || (installation.targetType === 'event' && installation.targetId === match.eventId);
    if (!covers) throw forbidden("svc-installation-id is not an installation on this match's event or organisation.", 'installation_mismatch');
    return { match, applicationId: authority.applicationId };
  }
  const installation = match ? await installationFor(ctx.loaders, authority.applicationId, 'event', match.eventId, match.organisationId) : null;
  if (!match || (!installation && use === 'read')) throw notFound('The match');
  if (!installation) throw forbidden('The application has no active installation on the organisation of this match.', 'missing_installation');
  return { match, applicationId: authority.applicationId };
}

export interface ChatListArgs {
  cursor?: string | null;
  limit?: number | null;
}

/** A match's chat, oldest first. */
export async function listMessages(ctx: SubgraphContext, matchId: string, args: ChatListArgs): Promise<Page<ChatMessageView>> {
  const { applicationId } = await chatMatch(ctx, matchId, 'read');
  const limit = pageLimit(args.limit);
  const binding = `chat|${matchId}`;
  const after = decodeCursor(binding, args.cursor);
  if (after && (after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/.test(after[0]))) {
    throw new ApiError('validation_failed', 'cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const rows = await ctx.sql<MessageRow>(MESSAGES_PAGE_SQL, [matchId, applicationId, after?.[0] ?? null, after?.[1] ?? null, limit + 1]);
  return pageOf(rows, limit, binding, (row) => [row.sortKey, row.id], toView);
}

async function messageOf(ctx: SubgraphContext, matchId: string, messageId: string, applicationId: string): Promise<ChatMessageView> {
  const [row] = await ctx.sql<MessageRow>(MESSAGE_SQL, [messageId, applicationId, matchId]);
  if (!row || row.deleted) throw notFound('The chat message');
  return toView(row);
}

export async function getMessage(ctx: SubgraphContext, matchId: string, messageId: string): Promise<ChatMessageView> {
  const { applicationId } = await chatMatch(ctx, matchId, 'read');
  return messageOf(ctx, matchId, messageId, applicationId);
}

// One emoji: a single RGI emoji sequence (skin tones, flags, keycaps and ZWJ sequences included).
// (Built from a string: the v flag is newer than the language level the compiler targets.)
const ONE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

export function validEmoji(emoji: string): string {
  if (emoji.length > 64 || !ONE_EMOJI.test(emoji)) {
    throw new ApiError('validation_failed', 'The reaction must be one emoji, URL-encoded in the path (🔥 is %F0%9F%94%A5).', [{ field: 'emoji', issue: 'not_one_emoji' }]);
  }
  return emoji;
}

// The message, locked, as the write expects it: there, not deleted, at the revision of If-Match.
const GUARD_SQL = `
  SELECT CASE
      WHEN m.id IS NULL OR m.deleted THEN ${failWith('missing', 'coalesce(m.revision, 0)')}
      WHEN m.revision <> $3 THEN ${failWith('stale', 'm.revision')}
    END AS guard
  FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT id, deleted, revision FROM "ChatMessage" WHERE id = $1 AND "matchId" = $2 FOR UPDATE) m ON true`;

// The reaction goes or comes, and only if it did does the message move on and the change get recorded.
const changeSql = (reaction: string, type: ChangeType) => `
  WITH reacted AS (${reaction}),
  bumped AS (
    UPDATE "ChatMessage" SET revision = revision + 1, "updatedAt" = ${NOW}
    WHERE id = $1 AND EXISTS (SELECT 1 FROM reacted)
    RETURNING id, revision)
  ${CHANGE_LOG_INSERT}
  SELECT $5, '${type}', $6, $7, 'chat_message', b.id, NULL,
         json_build_object('matchId', $2::text, 'messageId', b.id, 'emoji', $3::text, 'messageRevision', b.revision)::jsonb, ${NOW}
  FROM bumped b`;

const REMOVE_SQL = changeSql(
  `DELETE FROM "ChatReaction" WHERE "messageId" = $1 AND emoji = $3 AND "actorType" = 'application' AND "actorId" = $4 RETURNING 1`,
  'chat.reaction_removed',
);
const ADD_SQL = changeSql(
  `INSERT INTO "ChatReaction" ("messageId", emoji, "actorType", "actorId", "createdAt") VALUES ($1, $3, 'application', $4, ${NOW}) ON CONFLICT DO NOTHING RETURNING 1`,
  'chat.reaction_added',
);

/** Adds (PUT) or removes (DELETE) the calling application's reaction; answers the message as it is then. */
export async function react(
  ctx: SubgraphContext,
  action: 'add' | 'remove',
  matchId: string,
  messageId: string,
  emoji: string,
  ifMatch: string | null | undefined,
): Promise<ChatMessageView> {
  const expected = expectedRevision(ifMatch);
  validEmoji(emoji);
  const { match, applicationId } = await chatMatch(ctx, matchId, 'write');
  try {
    await ctx.transaction([
      { text: GUARD_SQL, values: [messageId, matchId, expected] },
      {
        text: action === 'add' ? ADD_SQL : REMOVE_SQL,
        values: [messageId, matchId, emoji, applicationId, newId('chg'), match.organisationId, match.eventId],
      },
      NOTIFY_CHANGES,
    ]);
  } catch (error) {
    const failed = guardFailure(error);
    if (failed?.check === 'missing') throw notFound('The chat message');
    if (failed?.check === 'stale') throw revisionMismatch(Number(failed.value));
    throw error;
  }
  return messageOf(ctx, matchId, messageId, applicationId);
}
