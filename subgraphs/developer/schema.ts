// The developer subgraph: applications, installations, tokens and the authority they carry.
import { createBuilder } from '../shared/builder.ts';
import { entityReferences } from '../shared/entities.ts';
import { notFound } from '../shared/errors.ts';
import type { InstallationRow } from '../shared/authority.ts';
import { TARGET_TYPES } from '../shared/scopes.ts';
import { authorityContext, type AuthorityContextResult } from './authority-context.ts';
import { issueClientCredentialsToken, type IssuedToken } from './tokens.ts';
import { applicationInstallations } from './installations.ts';
import type { Page } from '../shared/pagination.ts';

export const builder = createBuilder();
const refs = entityReferences(builder, ['Organisation', 'User', 'Team', 'Event']);

const Owner = builder.objectRef<{ type: string; id: string }>('Owner').implement({
  description: 'Who owns an application: an organisation, a team or a user.',
  fields: (t) => ({
    type: t.exposeString('type'),
    id: t.exposeID('id'),
    organisation: t.field({
      type: refs.Organisation,
      nullable: true,
      resolve: (owner) => (owner.type === 'organisation' ? { id: owner.id } : null),
    }),
  }),
});

const Application = builder.prismaObject('Application', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    owner: t.field({ type: Owner, resolve: (app) => ({ type: app.ownerType, id: app.ownerId }) }),
    grantedScopes: t.exposeStringList('grantedScopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    installations: t.field({
      type: InstallationPage,
      description: 'The application\'s installations in target order (type, then id); only the application itself may read them.',
      args: {
        cursor: t.arg.string(),
        limit: t.arg.int({ description: '1–100, default 20' }),
        status: t.arg.string({ description: 'active or revoked' }),
        targetType: t.arg.string({ description: 'user, team, organisation or event' }),
      },
      resolve: (app, args, ctx) => applicationInstallations(ctx, app.id, args),
    }),
  }),
});
builder.asEntity(Application, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.application.load(ref.id),
});

const TargetType = builder.enumType('AuthorityTargetType', {
  description: 'What an installation or an authority query is about.',
  values: TARGET_TYPES,
});

const Installation = builder.objectRef<InstallationRow>('Installation').implement({
  description: 'An installation of an application on a user, team, organisation or event.',
  fields: (t) => ({
    id: t.exposeID('id'),
    applicationId: t.exposeID('applicationId'),
    targetType: t.exposeString('targetType'),
    targetId: t.exposeID('targetId'),
    status: t.exposeString('status'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    organisation: t.field({
      type: refs.Organisation,
      nullable: true,
      resolve: (row) => (row.targetType === 'organisation' ? { id: row.targetId } : null),
    }),
    user: t.field({ type: refs.User, nullable: true, resolve: (row) => (row.targetType === 'user' ? { id: row.targetId } : null) }),
    team: t.field({ type: refs.Team, nullable: true, resolve: (row) => (row.targetType === 'team' ? { id: row.targetId } : null) }),
    event: t.field({ type: refs.Event, nullable: true, resolve: (row) => (row.targetType === 'event' ? { id: row.targetId } : null) }),
  }),
});

const InstallationPageMeta = builder.objectRef<Page<InstallationRow>['meta']>('InstallationPageMeta').implement({
  fields: (t) => ({ nextCursor: t.exposeString('nextCursor', { nullable: true }), hasMore: t.exposeBoolean('hasMore') }),
});

const InstallationPage = builder.objectRef<Page<InstallationRow>>('InstallationPage').implement({
  fields: (t) => ({
    data: t.field({ type: [Installation], resolve: (page) => page.data }),
    meta: t.field({ type: InstallationPageMeta, resolve: (page) => page.meta }),
  }),
});

type ApplicationActor = { type: 'application'; applicationId: string };
type UserActor = { type: 'user'; userId: string };

const ApplicationActorRef = builder.objectRef<ApplicationActor>('ApplicationActor').implement({
  description: 'The application acts on its own behalf (client credentials).',
  isTypeOf: (actor) => (actor as ApplicationActor).type === 'application',
  fields: (t) => ({ type: t.exposeString('type'), applicationId: t.exposeID('applicationId') }),
});
const UserActorRef = builder.objectRef<UserActor>('UserActor').implement({
  description: 'The application acts for a user who authorised it.',
  isTypeOf: (actor) => (actor as UserActor).type === 'user',
  fields: (t) => ({
    type: t.exposeString('type'),
    userId: t.exposeID('userId'),
    user: t.field({ type: refs.User, resolve: (actor) => ({ id: actor.userId }) }),
  }),
});
const Actor = builder.unionType('Actor', { types: [ApplicationActorRef, UserActorRef] });

const AuthorityContext = builder.objectRef<AuthorityContextResult>('AuthorityContext').implement({
  fields: (t) => ({
    requestId: t.exposeString('requestId'),
    applicationId: t.exposeID('applicationId'),
    application: t.field({
      type: Application,
      resolve: async (result, _args, ctx) => (await ctx.loaders.application.load(result.applicationId))!,
    }),
    actor: t.field({ type: Actor, resolve: (result) => result.actor }),
    owner: t.field({ type: Owner, resolve: (result) => result.owner }),
    installation: t.field({ type: Installation, nullable: true, resolve: (result) => result.installation }),
    scopes: t.exposeStringList('scopes'),
    permissions: t.exposeStringList('permissions'),
    entitlements: t.exposeStringList('entitlements'),
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
  application: t.field({
    type: Application,
    description: 'The calling application itself; any other application is not_found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const authority = await ctx.authority();
      const app = authority.applicationId === String(args.id) ? await ctx.loaders.application.load(authority.applicationId) : null;
      if (!app) throw notFound('The application');
      return app;
    },
  }),
}));

const IssuedTokenRef = builder.objectRef<IssuedToken>('IssuedAccessToken').implement({
  description: 'An access token (RFC 6749 §5.1). The token itself is shown once.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken'),
    tokenType: t.exposeString('tokenType'),
    expiresIn: t.exposeInt('expiresIn'),
    scope: t.exposeString('scope'),
  }),
});

const TokenRequestInput = builder.inputType('AccessTokenRequest', {
  fields: (t) => ({
    grantType: t.string({ required: true, description: 'client_credentials' }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true }),
    scope: t.string({ description: 'Space-separated scopes; all granted scopes when omitted.' }),
  }),
});

builder.mutationType({});
builder.mutationFields((t) => ({
  issueAccessToken: t.field({
    type: IssuedTokenRef,
    description: 'Issues an access token (the GraphQL face of POST /oauth/token). Needs no bearer token.',
    args: { input: t.arg({ type: TokenRequestInput, required: true }) },
    resolve: (_root, { input }, ctx) => issueClientCredentialsToken(ctx.db, input),
  }),
}));

export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
