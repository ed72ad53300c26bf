// Organisation API keys (v1): sent in the x-api-key header, never in a URL; stored as a sha256 hash
// with a visible prefix. A key shows its organisation's data and nothing else; a revoked key stops
// working at once.
import type { SqlRunner } from '../db/database.ts';
import { sha256 } from '../api/crypto.ts';
import { ApiError, invalidToken } from '../api/errors.ts';

export interface KeyAuthority {
  keyId: string;
  organisationId: string;
  /** An overlay token's one event: the credential reads that event and nothing else. */
  eventId?: string;
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

// Overlay tokens (x-overlay-token): an organisation's credential for one event's v1 reads and
// gateway subscriptions, which a browser source may carry in its URL. They always expire.
const OVERLAY_USABLE = `"revokedAt" IS NULL AND "expiresAt" > (now() AT TIME ZONE 'UTC')`;
const OVERLAY_SQL = `SELECT id AS "keyId", "organisationId", "eventId" FROM "OverlayToken" WHERE "tokenHash" = $1 AND ${OVERLAY_USABLE}`;
const OVERLAYS_SQL = `SELECT "tokenHash" AS hash FROM "OverlayToken" WHERE "tokenHash" = ANY($1::text[]) AND ${OVERLAY_USABLE}`;
const TOUCH_OVERLAY_SQL = `
  UPDATE "OverlayToken" SET "lastUsedAt" = (now() AT TIME ZONE 'UTC')
  WHERE id = $1 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute')`;

export async function resolveOverlayToken(sql: SqlRunner, token: string | undefined): Promise<KeyAuthority> {
  if (!token) throw invalidToken('An overlay token is required: send it in the x-overlay-token header.');
  if (token.length > 200) throw invalidToken('The overlay token is unknown, revoked or expired.');
  const [row] = await sql<Required<KeyAuthority>>(OVERLAY_SQL, [sha256(token)]);
  if (!row) throw invalidToken('The overlay token is unknown, revoked or expired.');
  touch(sql, TOUCH_OVERLAY_SQL, row.keyId);
  return row;
}

/** The credential of a v1 read or gateway socket: the API key when one is sent, else the overlay token. */
export function resolveKeyCredential(sql: SqlRunner, credentials: { apiKey?: string; overlayToken?: string }): Promise<KeyAuthority> {
  return credentials.apiKey || !credentials.overlayToken ? resolveApiKey(sql, credentials.apiKey) : resolveOverlayToken(sql, credentials.overlayToken);
}

/** The hashes (sha256) of those overlay tokens that still work: not revoked, not expired. */
export async function usableOverlayTokens(sql: SqlRunner, hashes: string[]): Promise<Set<string>> {
  return new Set((await sql<{ hash: string }>(OVERLAYS_SQL, [hashes])).map((row) => row.hash));
}

/** The hashes (sha256) of those keys that still work: not revoked, not expired. */
export async function usableApiKeys(sql: SqlRunner, hashes: string[]): Promise<Set<string>> {
  return new Set((await sql<{ hash: string }>(KEYS_SQL, [hashes])).map((row) => row.hash));
}

/** Records that a key is in use (its lastUsedAt, to the minute): a write at most once a minute per key. */
export function touchApiKey(sql: SqlRunner, keyId: string): void {
  touch(sql, TOUCH_SQL, keyId);
}

/** Records that an overlay token is in use, as touchApiKey does for a key. */
export function touchOverlayToken(sql: SqlRunner, tokenId: string): void {
  touch(sql, TOUCH_OVERLAY_SQL, tokenId);
}

function touch(sql: SqlRunner, statement: string, id: string): void {
  const now = Date.now();
  if ((touched.get(id) ?? 0) >= now - 60_000) return;
  touched.set(id, now);
  if (touched.size > 10_000) touched.clear();
  void sql(statement, [id]).catch(() => undefined);
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
