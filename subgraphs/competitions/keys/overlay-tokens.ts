// Overlay tokens: the credential a broadcaster's browser source may carry in its URL (an
// organisation API key must never be). Issued by a user who manages the event's broadcast
// (broadcast:manage), for one event and at most 30 days; the token is answered once and stored as
// its sha256. It reads that event through v1 and the gateway and nothing else (api-key-reads.ts beside it);
// revoked, it stops at once and the gateway closes its sockets (facade/realtime/server.ts).
import { randomBytes } from 'node:crypto';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { KeyAuthority } from '../../../platform/domain/api-keys.ts';
import type { OverlayToken } from '../../../platform/db/generated/client.ts';
import { requireScope } from '../../../platform/domain/authority.ts';
import { newId, sha256 } from '../../../platform/api/crypto.ts';
import { ApiError, forbidden, notFound, validationFailed } from '../../../platform/api/errors.ts';
import { conflict } from '../events/write-rules.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { validate } from '../../../platform/api/validation.ts';
import { assertOrganiserAuthority } from '../events/event-write.ts';
import { overlayTokenCreateInput } from '../inputs.ts';
import { INSERT_OVERLAY_TOKEN_SQL, LOCK_EVENT_FOR_TOKEN_SQL } from './statements.ts';

export type OverlayTokenView = Omit<OverlayToken, 'tokenHash'>;

export interface IssuedOverlayToken {
  overlayToken: OverlayTokenView;
  /** The token itself, shown only in this answer. */
  token: string;
}

const view = ({ tokenHash: _hash, ...row }: OverlayToken): OverlayTokenView => row;

/** ovl_ and 32 random bytes; the first 12 characters are the visible prefix. */
function newToken(): { token: string; prefix: string; tokenHash: string } {
  const token = `ovl_${randomBytes(32).toString('base64url')}`;
  return { token, prefix: token.slice(0, 12), tokenHash: sha256(token) };
}

/**
 * The caller manages the broadcast of the organisation, or of its event `eventId`: a token with
 * broadcast:manage (403 missing_scope), of an application installed there, whose user holds it there.
 */
async function manage(ctx: SubgraphContext, organisationId: string, eventId?: string): Promise<void> {
  const authority = await ctx.authority();
  requireScope(authority, 'broadcast:manage');
  if (!(await ctx.loaders.organisation.load(organisationId))) throw notFound('The organisation');
  try {
    await assertOrganiserAuthority(ctx, authority, 'broadcast:manage', organisationId, eventId);
  } catch (error) {
    // One answer whether or not the event (or token) asked about is one of the organisation's: a
    // caller without access there learns nothing of what it holds.
    if (error instanceof ApiError && error.details?.some((detail) => detail.issue === 'missing_installation')) {
      throw forbidden('The application has no active installation on this organisation or its event.', 'missing_installation');
    }
    throw error;
  }
}

/** Tokens of one event that work at once: a screen has a handful of browser sources, never hundreds. */
export const ACTIVE_OVERLAY_TOKENS_PER_EVENT = 100;

export async function createOverlayToken(ctx: SubgraphContext, organisationId: string, body: unknown): Promise<IssuedOverlayToken> {
  requireScope(await ctx.authority(), 'broadcast:manage');
  const input = validate(overlayTokenCreateInput, body);
  const event = await ctx.db.event.findUnique({ where: { id: input.eventId }, select: { organisationId: true } });
  // An event of another organisation reads as one that does not exist.
  if (event?.organisationId !== organisationId) {
    await manage(ctx, organisationId);
    throw validationFailed('The event is not one of this organisation.', [{ field: 'eventId', issue: 'unknown event' }]);
  }
  await manage(ctx, organisationId, input.eventId);
  const { token, prefix, tokenHash } = newToken();
  // Counted and inserted under the event's lock: concurrent issuances cannot pass the limit together.
  const [, inserted] = await ctx.transaction([
    { text: LOCK_EVENT_FOR_TOKEN_SQL, values: [input.eventId] },
    { text: INSERT_OVERLAY_TOKEN_SQL, values: [newId('ovt'), organisationId, input.eventId, input.label, prefix, tokenHash, input.expiresIn, ACTIVE_OVERLAY_TOKENS_PER_EVENT] },
  ]);
  if (!inserted.length) {
    throw conflict(`The event has ${ACTIVE_OVERLAY_TOKENS_PER_EVENT} overlay tokens that work: revoke one it no longer needs first.`, 'overlay_token_limit');
  }
  const row = await ctx.db.overlayToken.findUniqueOrThrow({ where: { id: String(inserted[0].id) } });
  return { overlayToken: view(row), token };
}

export async function listOverlayTokens(ctx: SubgraphContext, organisationId: string, args: { cursor?: string | null; limit?: number | null }): Promise<Page<OverlayTokenView>> {
  await manage(ctx, organisationId);
  return keysetPage({
    binding: `overlay-tokens|${organisationId}`,
    args,
    order: ['createdAt', 'id'],
    where: { organisationId },
    find: (where, orderBy, take) => ctx.db.overlayToken.findMany({ where, orderBy, take }),
    map: view,
  });
}

export async function revokeOverlayToken(ctx: SubgraphContext, organisationId: string, tokenId: string): Promise<OverlayTokenView> {
  const row = await ctx.db.overlayToken.findUnique({ where: { id: tokenId } });
  if (!row || row.organisationId !== organisationId) {
    await manage(ctx, organisationId);
    throw notFound('The overlay token');
  }
  await manage(ctx, organisationId, row.eventId);
  if (row.revokedAt) return view(row);
  return view(await ctx.db.overlayToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
}

/**
 * The overlay token a v1 read was sent with: an overlay learns its event from it, so its URL needs
 * nothing but the token. An organisation API key has no such record.
 */
export async function sentOverlayToken(ctx: SubgraphContext, key: KeyAuthority): Promise<OverlayTokenView> {
  const row = key.eventId === undefined ? null : await ctx.db.overlayToken.findUnique({ where: { id: key.keyId } });
  if (!row) throw new ApiError('not_found', 'This route answers for an overlay token sent in x-overlay-token; an organisation API key has none.');
  return view(row);
}
