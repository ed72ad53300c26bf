// AuthorityContext: what the calling access token may do, and for whom it acts.
import { builder, refs } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { authorityContextView } from '../views.ts';
import { authorityContext, type AuthorityContextResult } from '../authority-context.ts';
import { Application, Owner } from './application.ts';
import { Installation, TargetType } from './installation.ts';

type ApplicationActor = { type: 'application'; applicationId: string };
type UserActor = { type: 'user'; userId: string };

const ApplicationActorRef = builder.objectRef<ApplicationActor>('ApplicationActor').implement({
  description: 'The application acts on its own behalf (client credentials).',
  fields: (t) => ({ type: t.exposeString('type'), applicationId: t.exposeID('applicationId') }),
});
const UserActorRef = builder.objectRef<UserActor>('UserActor').implement({
  description: 'The application acts for a user who authorised it.',
  fields: (t) => ({
    type: t.exposeString('type'),
    userId: t.exposeID('userId'),
    user: t.field({ type: refs.User, resolve: (actor) => ({ id: actor.userId }) }),
  }),
});
const Actor = builder.unionType('Actor', {
  types: [ApplicationActorRef, UserActorRef],
  // By name rather than isTypeOf: compiled operations (graphql-jit) pass resolveType no schema to search.
  resolveType: (actor) => (actor.type === 'user' ? 'UserActor' : 'ApplicationActor'),
});

const AuthorityContext = builder.objectRef<AuthorityContextResult>('AuthorityContext').implement({
  fields: (t) => ({
    ...viewFields(builder)(t, authorityContextView, { actor: Actor, owner: Owner, installation: Installation }),
    application: t.field({
      type: Application,
      resolve: async (result, _args, ctx) => (await ctx.loaders.application.load(result.applicationId))!,
    }),
  }),
});

builder.queryFields((t) => ({
  authContext: t.field({
    type: AuthorityContext,
    description:
      'Scopes, permissions and entitlements of the calling access token; with targetType and targetId, the installation and permissions on that target.',
    args: { targetType: t.arg({ type: TargetType }), targetId: t.arg.id() },
    resolve: (_root, args, ctx) => authorityContext(ctx, args.targetType, args.targetId == null ? null : String(args.targetId)),
  }),
}));
