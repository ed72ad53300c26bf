// OAuth: the GraphQL faces of POST /oauth/token, /oauth/revoke and /oauth/introspect, and the
// applications a user has authorised.
import { builder } from '../builder.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { issueToken, type IssuedToken } from '../oauth/tokens.ts';
import { introspectToken, revokeToken, type Introspection } from '../oauth/revocation.ts';
import { storeOf } from '../oauth/model.ts';
import { listUserAuthorizations, revokeUserAuthorization, type UserAuthorization } from '../oauth/user-authorizations.ts';
import { pageType } from './page.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { userAuthorizationView } from '../views.ts';

const IssuedTokenRef = builder.objectRef<IssuedToken>('IssuedAccessToken').implement({
  description: 'An access token (RFC 6749 §5.1). The token itself is shown once.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken'),
    tokenType: t.exposeString('tokenType'),
    expiresIn: t.exposeInt('expiresIn'),
    scope: t.exposeString('scope'),
    refreshToken: t.exposeString('refreshToken', {
      nullable: true,
      description: 'With authorization_code and refresh_token: the next refresh token (each is spent on use).',
    }),
  }),
});

const TokenRequestInput = builder.inputType('AccessTokenRequest', {
  fields: (t) => ({
    grantType: t.string({ required: true, description: 'authorization_code, refresh_token or client_credentials' }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true }),
    scope: t.string({ description: 'Space-separated scopes; all granted scopes when omitted (client_credentials), or narrower ones (refresh_token).' }),
    code: t.string({ description: 'authorization_code: the code from the redirect.' }),
    redirectUri: t.string({ description: 'authorization_code: the redirect_uri of the authorization request.' }),
    codeVerifier: t.string({ description: 'authorization_code: the PKCE verifier whose S256 challenge the authorization request carried.' }),
    refreshToken: t.string({ description: 'refresh_token: the refresh token to spend.' }),
  }),
});

const ClientTokenInput = builder.inputType('ClientTokenRequest', {
  fields: (t) => ({
    token: t.string({ required: true }),
    tokenTypeHint: t.string({ description: 'access_token or refresh_token: which kind to look for first.' }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true }),
  }),
});

const IntrospectionRef = builder.objectRef<Introspection>('TokenIntrospection').implement({
  description: 'RFC 7662: whether a token of the calling client is active, and what it carries.',
  fields: (t) => ({
    active: t.exposeBoolean('active'),
    scope: t.exposeString('scope', { nullable: true }),
    clientId: t.exposeString('clientId', { nullable: true }),
    tokenType: t.exposeString('tokenType', { nullable: true }),
    // Seconds since the epoch: past 2038 (a demo token expires in 2100) they do not fit an Int.
    exp: t.exposeFloat('exp', { nullable: true }),
    iat: t.exposeFloat('iat', { nullable: true }),
    sub: t.exposeString('sub', { nullable: true, description: 'The user the token acts for, or the application itself.' }),
  }),
});

const RevocationRef = builder.objectRef<{ revoked: boolean }>('TokenRevocation').implement({
  fields: (t) => ({
    revoked: t.exposeBoolean('revoked', { description: 'False for a token unknown to this client; RFC 7009 answers both alike.' }),
  }),
});

export const UserAuthorizationRef = builder.objectRef<UserAuthorization & { revokedAt?: string }>('UserAuthorization').implement({
  description: userAuthorizationView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, userAuthorizationView),
    revokedAt: t.exposeString('revokedAt', { nullable: true }),
  }),
});

const UserAuthorizationPage = pageType('UserAuthorizationPage', UserAuthorizationRef);

builder.mutationType({});
builder.mutationFields((t) => ({
  issueAccessToken: t.field({
    type: IssuedTokenRef,
    description: 'Issues an access token (the GraphQL face of POST /oauth/token). Needs no bearer token.',
    args: { input: t.arg({ type: TokenRequestInput, required: true }) },
    resolve: (_root, { input }, ctx) => issueToken(storeOf(ctx), input),
  }),
  revokeAccessToken: t.field({
    type: RevocationRef,
    description: 'Revokes a token of the calling client (RFC 7009; the GraphQL face of POST /oauth/revoke). A refresh token revokes its whole grant.',
    args: { input: t.arg({ type: ClientTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) => revokeToken(storeOf(ctx), input),
  }),
  revokeMyAuthorization: t.field({
    type: UserAuthorizationRef,
    description: 'Revokes what the caller (a user) authorised an application to do: its grants and every token acting for the user.',
    args: { applicationId: t.arg.id({ required: true }) },
    resolve: (_root, { applicationId }, ctx) => revokeUserAuthorization(ctx, String(applicationId)),
  }),
}));

builder.queryFields((t) => ({
  introspectAccessToken: t.field({
    type: IntrospectionRef,
    description: 'RFC 7662 for a token of the calling client (the GraphQL face of POST /oauth/introspect).',
    args: { input: t.arg({ type: ClientTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) => introspectToken(storeOf(ctx), input),
  }),
  myAuthorizations: t.field({
    type: UserAuthorizationPage,
    description: 'The applications the caller (a user) has authorised, by application id.',
    args: { cursor: t.arg.string(), limit: t.arg.int() },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) => listUserAuthorizations(ctx, args),
  }),
}));
