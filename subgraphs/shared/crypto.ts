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

export function verifySecret(secret: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(secret, salt, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
