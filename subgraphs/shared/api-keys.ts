// Organisation API keys (v1): sent in the x-api-key header, never in a URL; stored as a sha256 hash
// with a visible prefix. A key shows its organisation's data and nothing else; a revoked key stops
// working at once.
import type { SqlRunner } from './db/database.ts';
import { sha256 } from './crypto.ts';
import { ApiError, invalidToken } from './errors.ts';

export interface KeyAuthority {
  keyId: string;
  organisationId: string;
}

const USABLE = `"revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > (now() AT TIME ZONE 'UTC'))`;
const KEY_SQL = `SELECT id AS "keyId", "organisationId" FROM "OrganisationApiKey" WHERE "keyHash" = $1 AND ${USABLE}`;
// The same for many keys at once, by hash: the realtime gateway's check of its sockets' keys.
const KEYS_SQL = `SELECT "keyHash" AS hash FROM "OrganisationApiKey" WHERE "keyHash" = ANY($1::text[]) AND ${USABLE}`;

// Written at most once a minute per key, after the answer: reads stay reads.
const TOUCH_SQL = `
  UPDATE "OrganisationApiKey" SET "lastUsedAt" = (now() AT TIME ZONE 'UTC')
  WHERE id = $1 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute')`;
const touched = new Map<string, number>();

export async function resolveApiKey(sql: SqlRunner, key: string | undefined): Promise<KeyAuthority> {
  if (!key) throw invalidToken('An organisation API key is required: send it in the x-api-key header.');
  if (key.length > 200) throw invalidToken('The API key is unknown or revoked.');
  const [row] = await sql<KeyAuthority>(KEY_SQL, [sha256(key)]);
  if (!row) throw invalidToken('The API key is unknown or revoked.');
  touchApiKey(sql, row.keyId);
  return row;
}

/** The hashes (sha256) of those keys that still work: not revoked, not expired. */
export async function usableApiKeys(sql: SqlRunner, hashes: string[]): Promise<Set<string>> {
  return new Set((await sql<{ hash: string }>(KEYS_SQL, [hashes])).map((row) => row.hash));
}

/** Records that a key is in use (its lastUsedAt, to the minute): a write at most once a minute per key. */
export function touchApiKey(sql: SqlRunner, keyId: string): void {
  const now = Date.now();
  if ((touched.get(keyId) ?? 0) >= now - 60_000) return;
  touched.set(keyId, now);
  if (touched.size > 10_000) touched.clear();
  void sql(TOUCH_SQL, [keyId]).catch(() => undefined);
}

/** Query parameters that would put a key in a URL (logs, browser history, referrers). */
export const KEY_QUERY_PARAMETERS = ['apiKey', 'api_key', 'apikey', 'key', 'x-api-key', 'token', 'access_token'];

export function refuseKeyInUrl(query: Record<string, unknown>): void {
  const found = Object.keys(query).find((name) => KEY_QUERY_PARAMETERS.includes(name));
  if (found) {
    throw new ApiError('validation_failed', 'Send the organisation API key in the x-api-key header, never in a URL (rotate a key that was).', [
      { field: found, issue: 'key_in_url' },
    ]);
  }
}
