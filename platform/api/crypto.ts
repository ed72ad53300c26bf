import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** An opaque, URL-safe random secret. */
export const randomSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Resource identifiers: a readable prefix and 20 random characters. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(15).toString('base64url')}`;

// Client secrets and passwords: scrypt with a per-secret salt, compared in constant time.
export function hashSecret(secret: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `scrypt$${salt}$${scryptSync(secret, salt, 32).toString('base64url')}`;
}

let standIn: string | undefined;

/**
 * Checks a secret against its stored hash; with none (an unknown client or user), against a stand-in
 * hash in the same time, and false: the answer's timing does not tell whether the name exists.
 */
export function verifySecretOrStandIn(secret: string, stored: string | null | undefined): boolean {
  const verified = verifySecret(secret, stored ?? (standIn ??= hashSecret(randomSecret(24))));
  return verified && stored != null;
}

export function verifySecret(secret: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(secret, salt, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
