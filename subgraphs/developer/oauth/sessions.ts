// Users signed in to the authorisation pages: a password checked against its scrypt hash (an unknown
// user against a stand-in, in the same time), then a random session token of which only the hash is
// kept. The session only lets its user answer consent pages; it is no API credential.
import { newId, randomSecret, sha256, verifySecretOrStandIn } from '../../../platform/api/crypto.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import type { OAuthStore } from './model.ts';

export const SESSION_TTL_SECONDS = 12 * 3600;

export interface SessionUser {
  id: string;
  displayName: string;
}

const LOGIN_SQL = `SELECT id, "displayName", "passwordHash" FROM "User" WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1`;
const SESSION_SQL = `
  SELECT u.id, u."displayName" FROM "UserSession" s JOIN "User" u ON u.id = s."userId"
  WHERE s."tokenHash" = $1 AND s."expiresAt" > ${NOW}`;

/** A new session for the user with this username (or e-mail) and password; null when they do not match. */
export async function signIn(database: OAuthStore, login: string, password: string): Promise<{ token: string; user: SessionUser } | null> {
  const [row] = await database.sql<SessionUser & { passwordHash: string }>(LOGIN_SQL, [login]);
  if (!verifySecretOrStandIn(password, row?.passwordHash)) return null;
  const token = randomSecret(32);
  await database.prisma.userSession.create({
    data: { id: newId('ses'), tokenHash: sha256(token), userId: row.id, expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000) },
  });
  return { token, user: { id: row.id, displayName: row.displayName } };
}

export async function sessionUser(database: OAuthStore, token: string | undefined): Promise<SessionUser | null> {
  if (!token) return null;
  const [row] = await database.sql<SessionUser>(SESSION_SQL, [sha256(token)]);
  return row ?? null;
}

export async function signOut(database: OAuthStore, token: string | undefined): Promise<void> {
  if (token) await database.prisma.userSession.deleteMany({ where: { tokenHash: sha256(token) } });
}
