// Management of an organisation's API keys (v1) by the users who administer it, through an
// application installed on the organisation: create (the key is shown once), list, rotate (the new
// key shown once; the old one stops at once, or after a grace period the caller asks for; a key is
// rotated once), revoke.
import { randomBytes } from 'node:crypto';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { OrganisationApiKey } from '../../../platform/db/generated/client.ts';
import { installationFor } from '../../../platform/domain/authority.ts';
import { sha256, newId } from '../../../platform/api/crypto.ts';
import { ApiError, forbidden, notFound } from '../../../platform/api/errors.ts';
import { failWith, guardFailure } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { validate } from '../../../platform/api/validation.ts';
import { apiKeyCreateInput, apiKeyRotateInput } from '../inputs.ts';

// The key's row less its hash: GraphQL's DateTime writes the instants apiKeyView declares as strings.
export type ApiKeyView = Omit<OrganisationApiKey, 'keyHash'>;

export interface IssuedApiKey {
  apiKey: ApiKeyView;
  /** The key itself, shown only in this answer. */
  key: string;
}

const view = ({ keyHash: _hash, ...row }: OrganisationApiKey): ApiKeyView => row;

/** The caller is a user who administers the organisation, through an application installed on it. */
async function administer(ctx: SubgraphContext, organisationId: string): Promise<void> {
  const authority = await ctx.authority();
  if (!(await installationFor(ctx.loaders, authority.applicationId, 'organisation', organisationId))) {
    throw forbidden('The application has no active installation on this organisation.', 'missing_installation');
  }
  if (authority.actor.type !== 'user') {
    throw forbidden('API keys are managed by a user who administers the organisation (a token with a user actor).', 'user_actor_required');
  }
  const member = await ctx.db.organisationMember.findUnique({ where: { organisationId_userId: { organisationId, userId: authority.actor.userId } } });
  if (member?.role !== 'administrator') throw forbidden('Only an administrator of the organisation manages its API keys.', 'missing_permission');
}

/** okey_ and 32 random bytes; the first 12 characters are the visible prefix. */
function newKey(): { key: string; prefix: string; keyHash: string } {
  const key = `okey_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, 12), keyHash: sha256(key) };
}

async function keyOf(ctx: SubgraphContext, organisationId: string, keyId: string): Promise<OrganisationApiKey> {
  const row = await ctx.db.organisationApiKey.findUnique({ where: { id: keyId } });
  if (!row || row.organisationId !== organisationId) throw notFound('The API key');
  return row;
}

export async function createApiKey(ctx: SubgraphContext, organisationId: string, body: unknown): Promise<IssuedApiKey> {
  await administer(ctx, organisationId);
  const input = validate(apiKeyCreateInput, body);
  const { key, prefix, keyHash } = newKey();
  const row = await ctx.db.organisationApiKey.create({ data: { id: newId('key'), organisationId, name: input.name, prefix, keyHash } });
  return { apiKey: view(row), key };
}

export async function listApiKeys(ctx: SubgraphContext, organisationId: string, args: { cursor?: string | null; limit?: number | null }): Promise<Page<ApiKeyView>> {
  await administer(ctx, organisationId);
  return keysetPage({
    binding: `api-keys|${organisationId}`,
    args,
    order: ['createdAt', 'id'],
    where: { organisationId },
    find: (where, orderBy, take) => ctx.db.organisationApiKey.findMany({ where, orderBy, take }),
    map: view,
  });
}

// The key to rotate, locked: one that no longer works (revoked, past its grace period, or another
// organisation's) is `missing`; one still in the grace period of its rotation is `rotated` (its
// replacement exists), so that of concurrent rotations exactly one issues a replacement.
const ROTATE_GUARD_SQL = `
  SELECT CASE WHEN k.id IS NULL OR k."revokedAt" IS NOT NULL OR k."expiresAt" <= ${NOW} THEN ${failWith('missing', 'coalesce(length(k.id), 0)')}
              WHEN k."expiresAt" IS NOT NULL THEN ${failWith('rotated', 'length(k.id)')} END AS guard
  FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT id, "revokedAt", "expiresAt" FROM "OrganisationApiKey" WHERE id = $1 AND "organisationId" = $2 FOR UPDATE) k ON true`;
/** Key $1 stops at $2 (a grace period) or now (revoked, $2 null). */
const RETIRE_SQL = `UPDATE "OrganisationApiKey" SET "expiresAt" = $2::timestamp, "revokedAt" = CASE WHEN $2 IS NULL THEN ${NOW} END WHERE id = $1`;
/** The replacement $1 of key $5, with its name: prefix $3, hash $4. */
const REPLACE_SQL = `
  INSERT INTO "OrganisationApiKey" (id, "organisationId", name, prefix, "keyHash", "createdAt")
  SELECT $1, $2, name, $3, $4, ${NOW} FROM "OrganisationApiKey" WHERE id = $5`;

export async function rotateApiKey(ctx: SubgraphContext, organisationId: string, keyId: string, body: unknown): Promise<IssuedApiKey> {
  await administer(ctx, organisationId);
  const input = validate(apiKeyRotateInput, body ?? {});
  const { key, prefix, keyHash } = newKey();
  const id = newId('key');
  const graceSeconds = input.graceSeconds ?? 0;
  const until = graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000).toISOString().replace('Z', '') : null;
  try {
    await ctx.transaction([
      { text: ROTATE_GUARD_SQL, values: [keyId, organisationId] },
      { text: RETIRE_SQL, values: [keyId, until] },
      { text: REPLACE_SQL, values: [id, organisationId, prefix, keyHash, keyId] },
    ]);
  } catch (error) {
    const failed = guardFailure(error);
    if (failed?.check === 'missing') throw notFound('The API key');
    if (failed?.check === 'rotated') {
      throw new ApiError('conflict', 'This key was rotated already and works until its grace period ends: rotate its replacement instead.', [{ field: 'keyId', issue: 'key_rotated' }]);
    }
    throw error;
  }
  return { apiKey: view(await ctx.db.organisationApiKey.findUniqueOrThrow({ where: { id } })), key };
}

export async function revokeApiKey(ctx: SubgraphContext, organisationId: string, keyId: string): Promise<ApiKeyView> {
  await administer(ctx, organisationId);
  const row = await keyOf(ctx, organisationId, keyId);
  if (row.revokedAt) return view(row);
  return view(await ctx.db.organisationApiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
}
