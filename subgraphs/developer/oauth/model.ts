// The storage side of the authorisation server: the model interface of @node-oauth/oauth2-server over
// the platform's tables. The library runs the protocol (grants, PKCE verification, rotation, error
// answers); this module decides what a client, a code and a token are here:
//
// - client secrets, codes, access and refresh tokens are kept only as hashes (scrypt for secrets,
//   SHA-256 for the random tokens); an unknown client is checked against a stand-in hash so that it
//   answers in the time a wrong secret does;
// - every authorisation a user gives an application is a grant; its codes and tokens hang off it, and
//   revoking it (the user, or a code or refresh token presented a second time) revokes them all;
// - codes are single-use: spent by a compare-and-set, so of two concurrent uses exactly one wins;
// - refresh tokens rotate: one is spent when its successor is issued, never by a refused request;
//   a spent one presented again by its client within the reuse interval (a retry racing its own
//   rotation) gets a fresh pair of its own, later it revokes the grant.
import type { AuthorizationCode, Client, Falsey, RefreshToken, Token, User } from '@node-oauth/oauth2-server';
import { InvalidGrantError, InvalidScopeError } from '@node-oauth/oauth2-server';
import { newId, randomSecret, sha256, verifySecretOrStandIn } from '../../../platform/api/crypto.ts';
import { WIRE } from '../../../platform/db/wire-models.ts';
import type { RowOf } from '../../../platform/db/wire-rows.ts';
import { KNOWN_SCOPES } from '../../../platform/domain/scopes.ts';
import { setting } from '../../../platform/process/config.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import type { Database } from '../../../platform/db/database.ts';
import type { SubgraphContext } from '../../../platform/domain/context.ts';

/** What the authorisation server needs of the database: Prisma, driver statements, transactions. */
export type OAuthStore = Pick<Database, 'prisma' | 'sql' | 'transaction'>;
export const storeOf = (ctx: SubgraphContext): OAuthStore => ({ prisma: ctx.db, sql: ctx.sql, transaction: ctx.transaction });

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/**
 * How long after its rotation a refresh token still works for a retry of its own client
 * (REFRESH_TOKEN_REUSE_SECONDS, default 10; 0: not at all), what Auth0 calls the reuse interval and
 * Okta the grace period.
 */
export const refreshTokenReuseSeconds = (env: NodeJS.ProcessEnv = process.env): number => setting('REFRESH_TOKEN_REUSE_SECONDS', env);
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

/** The application as the library sees it. */
export interface OAuthClient extends Client {
  id: string;
  name: string;
  grants: string[];
  redirectUris: string[];
  grantedScopes: string[];
}

/** Who a token is for: a user under a grant, or the application itself (client credentials). */
export interface OAuthUser extends User {
  userId: string | null;
  grantId: string | null;
}

export type GrantRevocationReason = 'user' | 'code_reused' | 'refresh_token_reused' | 'client';

const REVOKE_GRANT_SQL = [
  `UPDATE "OAuthGrant" SET "revokedAt" = ${NOW}, "revokedReason" = $2 WHERE id = $1 AND "revokedAt" IS NULL`,
  `UPDATE "AccessToken" SET "revokedAt" = ${NOW} WHERE "grantId" = $1 AND "revokedAt" IS NULL`,
  `UPDATE "RefreshToken" SET "revokedAt" = ${NOW} WHERE "grantId" = $1 AND "revokedAt" IS NULL`,
];

/** Revokes a grant and everything issued under it, in one transaction. */
export async function revokeGrant(database: OAuthStore, grantId: string, reason: GrantRevocationReason): Promise<void> {
  await database.transaction(REVOKE_GRANT_SQL.map((text, index) => ({ text, values: index === 0 ? [grantId, reason] : [grantId] })));
}

// The user's grants to one application and every token acting for the user in it (grant-less ones
// included), grants first so that a token being written under one waits or is refused (see below).
const REVOKE_USER_AUTHORIZATION_SQL = [
  `UPDATE "OAuthGrant" SET "revokedAt" = ${NOW}, "revokedReason" = 'user' WHERE "userId" = $1 AND "applicationId" = $2 AND "revokedAt" IS NULL`,
  `UPDATE "AccessToken" SET "revokedAt" = ${NOW} WHERE "userId" = $1 AND "applicationId" = $2 AND "revokedAt" IS NULL`,
  `UPDATE "RefreshToken" SET "revokedAt" = ${NOW}
   WHERE "grantId" IN (SELECT id FROM "OAuthGrant" WHERE "userId" = $1 AND "applicationId" = $2) AND "revokedAt" IS NULL`,
];

/** Revokes everything a user authorised an application to do, in one transaction. */
export async function revokeUserGrants(database: OAuthStore, userId: string, applicationId: string): Promise<void> {
  await database.transaction(REVOKE_USER_AUTHORIZATION_SQL.map((text) => ({ text, values: [userId, applicationId] })));
}

// The application's columns an OAuth client is made of, from the datamodel (wire-rows.ts).
const CLIENT = WIRE.application.pick('id', 'name', 'clientSecretHash', 'grantedScopes', 'redirectUris');
const CLIENT_SQL = `SELECT ${CLIENT.columns} FROM "Application" a WHERE a.id = $1`;
type ClientRow = RowOf<typeof CLIENT>;

const toClient = (row: ClientRow): OAuthClient => ({
  id: row.id,
  name: row.name,
  grants: [...GRANT_TYPES],
  redirectUris: row.redirectUris,
  grantedScopes: row.grantedScopes,
  accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS,
  refreshTokenLifetime: REFRESH_TOKEN_TTL_SECONDS,
});

/** The application behind a client id, without authenticating it (the authorisation pages). */
export async function findClient(database: OAuthStore, clientId: string): Promise<OAuthClient | null> {
  const [row] = await database.sql<ClientRow>(CLIENT_SQL, [clientId]);
  return row ? toClient(row) : null;
}

/** The client, authenticated by its secret; null for an unknown client or a wrong secret, in the same time. */
export async function authenticateClient(database: OAuthStore, clientId: string, clientSecret: string): Promise<OAuthClient | null> {
  const [row] = await database.sql<ClientRow>(CLIENT_SQL, [clientId]);
  const verified = verifySecretOrStandIn(clientSecret, row?.clientSecretHash);
  return verified ? toClient(row) : null;
}

/** Scopes in a sentence: "a", "a and b", "a, b and c". */
const listed = (scopes: string[]) => (scopes.length > 1 ? `${scopes.slice(0, -1).join(', ')} and ${scopes.at(-1)}` : scopes[0]);

/** Requested scopes (none: every granted scope) checked against what the application was granted. */
export function grantedScopes(client: Pick<OAuthClient, 'grantedScopes'>, requested: string[] | undefined): string[] {
  const scopes = requested ?? client.grantedScopes;
  // Known: every scope the metadata lists (KNOWN_SCOPES), provider scopes included.
  const unknown = scopes.filter((scope) => !KNOWN_SCOPES.includes(scope) && !client.grantedScopes.includes(scope));
  if (unknown.length) {
    throw new InvalidScopeError(`${listed(unknown)} ${unknown.length > 1 ? 'are not scopes' : 'is not a scope'} of this platform; its scopes are ${KNOWN_SCOPES.join(', ')}.`);
  }
  const notGranted = scopes.filter((scope) => !client.grantedScopes.includes(scope));
  if (notGranted.length) {
    const held = client.grantedScopes.length ? `it may ask for ${client.grantedScopes.join(', ')}, or leave scope out for all of them` : 'it holds no scope';
    throw new InvalidScopeError(`The application was not granted ${notGranted.length > 1 ? 'the scopes' : 'the scope'} ${listed(notGranted)}: ${held}.`);
  }
  return [...new Set(scopes)].sort();
}

// The code's and its grant's columns, from the datamodel (wire-rows.ts), beside what is computed.
const CODE = WIRE.authorizationCode.pick('id', 'grantId', 'redirectUri', 'scopes', 'codeChallenge', 'expiresAt');
const GRANT = WIRE.oauthGrant.pick('applicationId', 'userId');
type CodeRow = RowOf<typeof CODE> & RowOf<typeof GRANT> & { spent: boolean; grantRevoked: boolean };
const CODE_SQL = `
  SELECT ${CODE.columns}, c."consumedAt" IS NOT NULL AS spent, ${GRANT.columns}, g."revokedAt" IS NOT NULL AS "grantRevoked"
  FROM "AuthorizationCode" c JOIN "OAuthGrant" g ON g.id = c."grantId"
  WHERE c."codeHash" = $1`;
const SPEND_CODE_SQL = `UPDATE "AuthorizationCode" SET "consumedAt" = ${NOW} WHERE "codeHash" = $1 AND "consumedAt" IS NULL RETURNING id`;

// A refresh token is usable while it is not spent, or spent within the reuse interval ($2 seconds).
const REUSABLE = `(r."consumedAt" IS NULL OR r."consumedAt" > ${NOW} - $2::int * interval '1 second')`;
const REFRESH = WIRE.refreshToken.pick('id', 'grantId', 'scopes', 'expiresAt');
type RefreshRow = RowOf<typeof REFRESH> & RowOf<typeof GRANT> & { usable: boolean; revoked: boolean };
const REFRESH_SQL = `
  SELECT ${REFRESH.columns}, ${REUSABLE} AS usable, (r."revokedAt" IS NOT NULL OR g."revokedAt" IS NOT NULL) AS revoked, ${GRANT.columns}
  FROM "RefreshToken" r JOIN "OAuthGrant" g ON g.id = r."grantId"
  WHERE r."tokenHash" = $1`;
// Spent when its successor is issued; the first spending's time is kept, so retries do not stretch
// the interval.
const SPEND_REFRESH_SQL = `
  UPDATE "RefreshToken" r SET "consumedAt" = COALESCE(r."consumedAt", ${NOW})
  WHERE r."tokenHash" = $1 AND r."revokedAt" IS NULL AND ${REUSABLE} RETURNING id`;

// Tokens of a grant are written only while the grant stands, holding its row: a revocation racing
// them (the same code used twice at once) either waits for them and then revokes them too, or
// commits first and they are not written.
const INSERT_GRANT_ACCESS_TOKEN_SQL = `
  INSERT INTO "AccessToken" (id, "tokenHash", "applicationId", "actorType", "userId", scopes, "expiresAt", "grantId")
  SELECT $1, $2, g."applicationId", 'user', g."userId", $3::text[], $4::timestamp, g.id FROM "OAuthGrant" g
  WHERE g.id = $5 AND g."revokedAt" IS NULL FOR UPDATE
  RETURNING id`;
const INSERT_REFRESH_TOKEN_SQL = `
  INSERT INTO "RefreshToken" (id, "tokenHash", "grantId", scopes, "expiresAt")
  SELECT $1, $2, g.id, $3::text[], $4::timestamp FROM "OAuthGrant" g WHERE g.id = $5 AND g."revokedAt" IS NULL FOR UPDATE
  RETURNING id`;

/**
 * The model @node-oauth/oauth2-server runs its grants on, for one request. `authenticated` is the
 * client the request has authenticated already (the token endpoint does that first): its secret is
 * not derived a second time.
 */
export function oauthModel(database: OAuthStore, authenticated?: OAuthClient) {
  const reuseSeconds = refreshTokenReuseSeconds();
  /** The refresh token this request rotates, spent only when its successor is written. */
  let rotating: string | null = null;
  return {
    generateAccessToken: async () => `esp_at_${randomSecret(32)}`,
    generateRefreshToken: async () => `esp_rt_${randomSecret(32)}`,
    generateAuthorizationCode: async () => `esp_ac_${randomSecret(32)}`,

    // The token endpoint always authenticates the client (every application is confidential); the
    // authorisation endpoint looks it up by id (secret null).
    async getClient(clientId: string, clientSecret: string | null | undefined): Promise<OAuthClient | Falsey> {
      if (clientSecret === null) return findClient(database, clientId);
      if (typeof clientSecret !== 'string') return null;
      if (authenticated && authenticated.id === clientId) return authenticated;
      return authenticateClient(database, clientId, clientSecret);
    },

    async validateScope(_user: User, client: Client, scope: string[] | undefined): Promise<string[] | Falsey> {
      return grantedScopes(client as OAuthClient, scope);
    },

    async getUserFromClient(): Promise<OAuthUser> {
      return { userId: null, grantId: null };
    },

    async saveAuthorizationCode(
      code: Pick<AuthorizationCode, 'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'>,
      client: Client,
      user: User,
    ): Promise<AuthorizationCode> {
      const userId = (user as OAuthUser).userId!;
      const grantId = newId('grt');
      await database.prisma.oAuthGrant.create({
        data: {
          id: grantId,
          applicationId: client.id,
          userId,
          scopes: code.scope ?? [],
          authorizationCodes: {
            create: {
              id: newId('acd'),
              codeHash: sha256(code.authorizationCode),
              redirectUri: code.redirectUri,
              scopes: code.scope ?? [],
              codeChallenge: code.codeChallenge!,
              expiresAt: code.expiresAt,
            },
          },
        },
      });
      return { ...code, client, user: { userId, grantId } };
    },

    // A code presented after it was spent revokes what it issued (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3).
    async getAuthorizationCode(authorizationCode: string): Promise<AuthorizationCode | Falsey> {
      const [row] = await database.sql<CodeRow>(CODE_SQL, [sha256(authorizationCode)]);
      if (!row || row.grantRevoked) return null;
      if (row.spent) {
        await revokeGrant(database, row.grantId, 'code_reused');
        return null;
      }
      return {
        authorizationCode,
        expiresAt: new Date(row.expiresAt),
        redirectUri: row.redirectUri,
        scope: row.scopes,
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: 'S256',
        client: { id: row.applicationId, grants: [...GRANT_TYPES] },
        user: { userId: row.userId, grantId: row.grantId } satisfies OAuthUser,
      };
    },

    // Spent by a compare-and-set: of two concurrent exchanges exactly one wins, and the other counts
    // as a second use.
    async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
      const spent = await database.sql(SPEND_CODE_SQL, [sha256(code.authorizationCode)]);
      if (spent.length) return true;
      await revokeGrant(database, (code.user as OAuthUser).grantId!, 'code_reused');
      return false;
    },

    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const { userId, grantId } = user as OAuthUser;
      // Everything about the request has been accepted (its scope too): now the presented refresh
      // token is spent. Only a reuse past the interval, or a revocation, can have come in between.
      if (rotating && (await database.sql(SPEND_REFRESH_SQL, [rotating, reuseSeconds])).length === 0) {
        throw new InvalidGrantError('Invalid grant: refresh token is invalid');
      }
      const scopes = token.scope ?? [];
      const accessHash = sha256(token.accessToken);
      if (!grantId) {
        // Client credentials: the application itself, no refresh token.
        await database.prisma.accessToken.create({
          data: { id: newId('tok'), tokenHash: accessHash, applicationId: client.id, actorType: 'application', scopes, expiresAt: token.accessTokenExpiresAt! },
        });
        return { ...token, refreshToken: undefined, refreshTokenExpiresAt: undefined, client, user };
      }
      const statements = [{ text: INSERT_GRANT_ACCESS_TOKEN_SQL, values: [newId('tok'), accessHash, scopes, token.accessTokenExpiresAt!.toISOString(), grantId] }];
      if (token.refreshToken) {
        statements.push({ text: INSERT_REFRESH_TOKEN_SQL, values: [newId('rtk'), sha256(token.refreshToken), scopes, token.refreshTokenExpiresAt!.toISOString(), grantId] });
      }
      const written = await database.transaction(statements);
      if (written.some((rows) => rows.length === 0)) throw new GrantRevokedError();
      return { ...token, client, user: { userId, grantId } };
    },

    // A spent refresh token presented again after the reuse interval revokes the whole grant (OAuth
    // 2.1 §4.3.1); within it, it is a retry of the rotation and goes on (its client is checked next,
    // by the library).
    async getRefreshToken(refreshToken: string): Promise<RefreshToken | Falsey> {
      const [row] = await database.sql<RefreshRow>(REFRESH_SQL, [sha256(refreshToken), reuseSeconds]);
      if (!row || row.revoked) return null;
      if (!row.usable) {
        await revokeGrant(database, row.grantId, 'refresh_token_reused');
        return null;
      }
      return {
        refreshToken,
        refreshTokenExpiresAt: new Date(row.expiresAt),
        scope: row.scopes,
        client: { id: row.applicationId, grants: [...GRANT_TYPES] },
        user: { userId: row.userId, grantId: row.grantId } satisfies OAuthUser,
      };
    },

    // Rotation: the library asks for the presented token to be spent before it judges the requested
    // scope; it is spent by saveToken instead, so that a refused request (a scope wider than the
    // grant) leaves it as it was.
    async revokeToken(token: RefreshToken | Token): Promise<boolean> {
      if (!token.refreshToken) return false;
      rotating = sha256(token.refreshToken);
      return true;
    },

    // Bearer tokens are verified by the platform's own authority (platform/domain/authority.ts).
    async getAccessToken(): Promise<Token | Falsey> {
      return null;
    },
  };
}

/** A grant revoked while its tokens were being issued (a code used twice at once). */
export class GrantRevokedError extends Error {
  constructor() {
    super('The authorisation was revoked.');
  }
}
