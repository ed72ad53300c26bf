// OAuth 2.0 token issuance (RFC 6749). Tokens are opaque random strings; only their hash is stored.
import type { Db } from '../shared/db/database.ts';
import { hashSecret, newId, randomSecret, sha256, verifySecret } from '../shared/crypto.ts';
import { oauthError } from '../shared/errors.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const SUPPORTED_GRANT_TYPES = ['client_credentials'] as const;

let standIn: string | undefined;
const standInHash = () => (standIn ??= hashSecret(randomSecret(24)));

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  scope?: string | null;
}

export interface IssuedToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  scope: string;
}

export async function issueClientCredentialsToken(db: Db, request: TokenRequest): Promise<IssuedToken> {
  if (!SUPPORTED_GRANT_TYPES.includes(request.grantType as (typeof SUPPORTED_GRANT_TYPES)[number])) {
    throw oauthError('unsupported_grant_type', `grant_type must be one of: ${SUPPORTED_GRANT_TYPES.join(', ')}.`);
  }
  const app = await db.application.findUnique({
    where: { id: request.clientId },
    select: { id: true, clientSecretHash: true, grantedScopes: true },
  });
  // The same answer, in the same time, for an unknown client and a wrong secret: an unknown client
  // is checked against a stand-in hash, so the key derivation runs either way.
  const verified = verifySecret(request.clientSecret, app?.clientSecretHash ?? standInHash());
  if (!app || !verified) {
    throw oauthError('invalid_client', 'Client authentication failed.');
  }
  const requested = request.scope == null ? app.grantedScopes : request.scope.split(' ').filter((s) => s !== '');
  const notGranted = requested.filter((scope) => !app.grantedScopes.includes(scope));
  if (notGranted.length) {
    throw oauthError('invalid_scope', `The application was not granted: ${notGranted.join(', ')}.`);
  }
  const scopes = [...new Set(requested)].sort();
  const accessToken = `esp_at_${randomSecret(32)}`;
  await db.accessToken.create({
    data: {
      id: newId('tok'),
      tokenHash: sha256(accessToken),
      applicationId: app.id,
      actorType: 'application',
      scopes,
      expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    },
  });
  return { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, scope: scopes.join(' ') };
}
