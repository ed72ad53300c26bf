// Revocation (RFC 7009) and introspection (RFC 7662) for authenticated clients. A client sees and
// revokes only tokens issued to it: another client's token, an unknown one and a malformed one all
// look alike (revoked: nothing happens, 200; introspected: {"active": false}).
import { iso, NOW } from '../../../platform/db/sql-fragments.ts';
import { sha256 } from '../../../platform/api/crypto.ts';
import { oauthError } from '../../../platform/api/errors.ts';
import { authenticateClient, revokeGrant, type OAuthStore } from './model.ts';

export interface ClientTokenRequest {
  token: string;
  tokenTypeHint?: string | null;
  clientId: string;
  clientSecret: string;
}

export const TOKEN_TYPE_HINTS = ['access_token', 'refresh_token'] as const;

interface FoundToken {
  kind: 'access_token' | 'refresh_token';
  id: string;
  grantId: string | null;
  userId: string | null;
  scopes: string[];
  active: boolean;
  issuedAt: string;
  expiresAt: string;
}

// The same hash is looked up as both kinds; token_type_hint only says which to try first (RFC 7009 §2.1).
const ACCESS_SQL = `
  SELECT 'access_token' AS kind, t.id, t."grantId", t."userId", t.scopes, ${iso('t."createdAt"')} AS "issuedAt", ${iso('t."expiresAt"')} AS "expiresAt",
         (t."revokedAt" IS NULL AND t."expiresAt" > ${NOW}) AS active
  FROM "AccessToken" t WHERE t."tokenHash" = $1 AND t."applicationId" = $2`;
const REFRESH_SQL = `
  SELECT 'refresh_token' AS kind, r.id, r."grantId", g."userId", r.scopes, ${iso('r."createdAt"')} AS "issuedAt", ${iso('r."expiresAt"')} AS "expiresAt",
         (r."revokedAt" IS NULL AND r."consumedAt" IS NULL AND g."revokedAt" IS NULL AND r."expiresAt" > ${NOW}) AS active
  FROM "RefreshToken" r JOIN "OAuthGrant" g ON g.id = r."grantId" WHERE r."tokenHash" = $1 AND g."applicationId" = $2`;

async function clientToken(database: OAuthStore, request: ClientTokenRequest): Promise<FoundToken | null> {
  const client = await authenticateClient(database, request.clientId, request.clientSecret);
  if (!client) throw oauthError('invalid_client', 'Client authentication failed.');
  const hash = sha256(request.token);
  const order = request.tokenTypeHint === 'refresh_token' ? [REFRESH_SQL, ACCESS_SQL] : [ACCESS_SQL, REFRESH_SQL];
  for (const statement of order) {
    const [row] = await database.sql<FoundToken>(statement, [hash, client.id]);
    if (row) return row;
  }
  return null;
}

/**
 * Revokes the token if it is the client's. An access token stops working at once; a refresh token
 * revokes its grant, and with it every access token issued under the same authorisation (§2.1).
 */
export async function revokeToken(database: OAuthStore, request: ClientTokenRequest): Promise<{ revoked: boolean }> {
  const found = await clientToken(database, request);
  if (!found) return { revoked: false };
  if (found.kind === 'refresh_token' && found.grantId) {
    await revokeGrant(database, found.grantId, 'client');
  } else {
    await database.sql(`UPDATE "AccessToken" SET "revokedAt" = ${NOW} WHERE id = $1 AND "revokedAt" IS NULL`, [found.id]);
  }
  return { revoked: true };
}

export interface Introspection {
  active: boolean;
  scope?: string;
  clientId?: string;
  tokenType?: string;
  exp?: number;
  iat?: number;
  sub?: string;
}

const epoch = (text: string) => Math.floor(Date.parse(text) / 1000);

export async function introspectToken(database: OAuthStore, request: ClientTokenRequest): Promise<Introspection> {
  const found = await clientToken(database, request);
  if (!found?.active) return { active: false };
  return {
    active: true,
    scope: [...found.scopes].sort().join(' '),
    clientId: request.clientId,
    tokenType: found.kind === 'access_token' ? 'Bearer' : 'refresh_token',
    exp: epoch(found.expiresAt),
    iat: epoch(found.issuedAt),
    sub: found.userId ?? request.clientId,
  };
}
