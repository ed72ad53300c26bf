// Organisation API keys and match chat messages as read: the REST responses and OpenAPI take these
// schemas, and the GraphQL object types take their fields from them (shared/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString, isoTimestamp } from '../shared/zod-graphql.ts';

export const apiKeyView = z
  .object({
    id: idString,
    organisationId: idString,
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it.'),
    createdAt: isoTimestamp,
    lastUsedAt: isoTimestamp.nullable().describe('To the minute.'),
    expiresAt: isoTimestamp.nullable().describe('Set by a rotation with a grace period.'),
    revokedAt: isoTimestamp.nullable(),
  })
  .strict()
  .describe('An organisation API key for the v1 read API: never the key itself, which is shown once.')
  .meta({ id: 'OrganisationApiKey' });

export const issuedApiKeyView = z
  .object({ apiKey: apiKeyView, key: z.string().describe('The key itself, for x-api-key: shown only in this answer.') })
  .strict()
  .meta({ id: 'IssuedApiKey' });

export const chatActorView = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('user'), userId: idString }).strict().meta({ id: 'ChatUserActor' }),
    z.object({ type: z.literal('application'), applicationId: idString }).strict().meta({ id: 'ChatApplicationActor' }),
    z.object({ type: z.literal('system') }).strict().meta({ id: 'ChatSystemActor' }),
    z.object({ type: z.literal('moderator'), userId: idString }).strict().meta({ id: 'ChatModeratorActor' }),
  ])
  .describe('Who wrote it: a participant (user), an application, the platform (system) or a moderator.');

const chatReactionView = z
  .object({
    emoji: z.string(),
    count: z.number().int(),
    reactedByApplication: z.boolean().describe('Whether the calling application is among those who reacted so.'),
  })
  .strict()
  .meta({ id: 'ChatReaction' })
  .register(graphql, { name: 'ChatReaction' });

export const chatMessageView = z
  .object({
    id: idString,
    matchId: idString,
    type: z.string().describe('text, system or announcement'),
    actor: chatActorView,
    content: z.string().nullable().describe('null when deleted'),
    replyToId: idString.nullable(),
    senderSide: z.enum(['a', 'b']).register(graphql, { name: 'MatchSide' }).nullable().describe('The side of the match the writer plays for; null for others.'),
    visibility: z.enum(['public', 'teams', 'staff']).register(graphql, { name: 'ChatVisibility' }),
    reactions: z.array(chatReactionView).describe('Per emoji, in the order each was first used; empty when deleted.'),
    deleted: z.boolean(),
    revision: z.number().int().describe('Its ETag is "<revision>": the If-Match of a reaction write.'),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .strict()
  .describe('A message of a match chat. A deleted one keeps its place, without content or reactions.')
  .meta({ id: 'ChatMessage' });
