// Management of an organisation's API keys (v1) by the users who administer it, through an
// application installed on the organisation: create (the key is shown once), list, rotate (the new
// key shown once; the old one stops at once, or after a grace period the caller asks for), revoke.
import { randomBytes } from 'node:crypto';
import type { SubgraphContext } from '../shared/context.ts';
import type { OrganisationApiKey } from '../shared/db/generated/client.ts';
import { installationFor } from '../shared/authority.ts';
import { sha256, newId } from '../shared/crypto.ts';
import { forbidden, notFound } from '../shared/errors.ts';
import { keysetPage, type Page } from '../shared/pagination.ts';
import { validate } from '../shared/validation.ts';
import { apiKeyCreateInput, apiKeyRotateInput } from './inputs.ts';

export interface ApiKeyView {
  id: string;
  organisationId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

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

export async function rotateApiKey(ctx: SubgraphContext, organisationId: string, keyId: string, body: unknown): Promise<IssuedApiKey> {
  await administer(ctx, organisationId);
  const input = validate(apiKeyRotateInput, body ?? {});
  const old = await keyOf(ctx, organisationId, keyId);
  if (old.revokedAt) throw notFound('The API key');
  const { key, prefix, keyHash } = newKey();
  const now = new Date();
  const graceSeconds = input.graceSeconds ?? 0;
  const [row] = await ctx.db.$transaction([
    ctx.db.organisationApiKey.create({ data: { id: newId('key'), organisationId, name: old.name, prefix, keyHash } }),
    ctx.db.organisationApiKey.update({
      where: { id: old.id },
      data: graceSeconds > 0 ? { expiresAt: new Date(now.getTime() + graceSeconds * 1000) } : { revokedAt: now },
    }),
  ]);
  return { apiKey: view(row), key };
}

export async function revokeApiKey(ctx: SubgraphContext, organisationId: string, keyId: string): Promise<ApiKeyView> {
  await administer(ctx, organisationId);
  const row = await keyOf(ctx, organisationId, keyId);
  if (row.revokedAt) return view(row);
  return view(await ctx.db.organisationApiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
}
