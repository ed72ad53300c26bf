// What every hand-written baseline handler starts with: a request id, the error body, and the token
// read (the token by hash with its application's owner and the owner's entitlements, one statement).
import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import type { TokenRow } from '../../platform/domain/authority.ts';

export const TOKEN_SQL = `
  SELECT t."applicationId", t."actorType", t."userId", t.scopes, t."expiresAt", t."revokedAt", a."ownerType", a."ownerId",
         ARRAY(SELECT e.name FROM "Entitlement" e WHERE e."ownerType" = a."ownerType" AND e."ownerId" = a."ownerId"
               AND (e."expiresAt" IS NULL OR e."expiresAt" > now()) ORDER BY e.name) AS entitlements
  FROM "AccessToken" t JOIN "Application" a ON a.id = t."applicationId" WHERE t."tokenHash" = $1`;

export type BaselineToken = Omit<TokenRow, 'id' | 'valid'>;

export function beginRequest(ctx: Context) {
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  ctx.set('x-request-id', requestId);
  const fail = (status: number, code: string, message: string) => {
    ctx.status = status;
    if (status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="api", error="invalid_token"');
    ctx.body = { error: { code, message, requestId } };
  };
  return { requestId, fail };
}

/** The caller's token, or null when it is missing, unknown, expired or revoked. */
export async function authenticate(pool: pg.Pool, ctx: Context): Promise<BaselineToken | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  if (!match) return null;
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const [token] = (await pool.query({ name: 'baseline_token', text: TOKEN_SQL, values: [hash] })).rows;
  if (!token || token.revokedAt || new Date(token.expiresAt).getTime() <= Date.now()) return null;
  return token;
}

/** A page cursor as the platform writes it (a hash of the list's binding and the last item's key). */
export const cursorOf = (binding: string, key: unknown[]) =>
  Buffer.from(JSON.stringify({ b: createHash('sha256').update(binding).digest('base64url').slice(0, 10), k: key })).toString('base64url');
