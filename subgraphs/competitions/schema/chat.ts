// Match chat for applications: messages with their reactions, and the application's own reaction.
// Rules live in ../chat/messages.ts.
import { builder } from '../builder.ts';
import './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { chatMessageView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { getMessage, listMessages, react, type ChatActor, type ChatMessageView } from '../chat/messages.ts';
import { pageType } from './page.ts';

type Variant<T extends ChatActor['type']> = Extract<ChatActor, { type: T }>;

const ChatUserActor = builder.objectRef<Variant<'user'>>('ChatUserActor').implement({
  description: 'A participant wrote it.',
  fields: (t) => ({ type: t.exposeString('type'), userId: t.exposeID('userId') }),
});
const ChatApplicationActor = builder.objectRef<Variant<'application'>>('ChatApplicationActor').implement({
  description: 'An application posted it.',
  fields: (t) => ({ type: t.exposeString('type'), applicationId: t.exposeID('applicationId') }),
});
const ChatSystemActor = builder.objectRef<Variant<'system'>>('ChatSystemActor').implement({
  description: 'The platform posted it (match started, score reported, …).',
  fields: (t) => ({ type: t.exposeString('type') }),
});
const ChatModeratorActor = builder.objectRef<Variant<'moderator'>>('ChatModeratorActor').implement({
  description: "An event admin wrote it as the match's moderator.",
  fields: (t) => ({ type: t.exposeString('type'), userId: t.exposeID('userId') }),
});
const TYPE_NAMES = { user: 'ChatUserActor', application: 'ChatApplicationActor', system: 'ChatSystemActor', moderator: 'ChatModeratorActor' } as const;
const ChatActorUnion = builder.unionType('ChatActor', {
  types: [ChatUserActor, ChatApplicationActor, ChatSystemActor, ChatModeratorActor],
  // By name rather than isTypeOf: compiled operations (graphql-jit) pass resolveType no schema to search.
  resolveType: (actor) => TYPE_NAMES[actor.type],
});

export const ChatMessage = builder.objectRef<ChatMessageView>('ChatMessage').implement({
  description: chatMessageView.description,
  fields: (t) => viewFields(builder)(t, chatMessageView, { actor: ChatActorUnion }),
});

const ChatMessagePage = pageType('ChatMessagePage', ChatMessage);

builder.queryFields((t) => ({
  chatMessages: t.field({
    type: ChatMessagePage,
    description: "A match's chat, oldest first. The application needs an active installation on the match's event or organisation.",
    args: { matchId: t.arg.id({ required: true }), cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) => listMessages(ctx, String(args.matchId), args),
  }),
  chatMessage: t.field({
    type: ChatMessage,
    description: 'One message of a match chat; a deleted one is not_found.',
    args: { matchId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getMessage(ctx, String(args.matchId), String(args.id)),
  }),
}));

builder.mutationFields((t) => {
  const args = {
    matchId: t.arg.id({ required: true }),
    messageId: t.arg.id({ required: true }),
    emoji: t.arg.string({ required: true, description: 'One emoji.' }),
    ifMatch: t.arg.string({ description: 'Required: the message revision, "3".' }),
  };
  return {
    addChatReaction: t.field({
      type: ChatMessage,
      description: "Adds the calling application's reaction; when it is there already nothing changes.",
      args,
      resolve: (_root, a, ctx) => react(ctx, 'add', String(a.matchId), String(a.messageId), a.emoji, a.ifMatch),
    }),
    removeChatReaction: t.field({
      type: ChatMessage,
      description: "Removes the calling application's reaction; when it is not there nothing changes.",
      args,
      resolve: (_root, a, ctx) => react(ctx, 'remove', String(a.matchId), String(a.messageId), a.emoji, a.ifMatch),
    }),
  };
});
