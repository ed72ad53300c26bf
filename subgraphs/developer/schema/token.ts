// Access tokens: the GraphQL face of POST /oauth/token.
import { builder } from '../builder.ts';
import { issueClientCredentialsToken, type IssuedToken } from '../tokens.ts';

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
