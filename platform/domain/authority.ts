// Who is calling: the access token behind `Authorization: Bearer …`, resolved once per request and
// shared by every subgraph that takes part in it.
import type { Db, SqlRunner } from '../db/database.ts';
import { sha256 } from '../api/crypto.ts';
import { ApiError, forbidden, invalidToken } from '../api/errors.ts';
import { ROLE_PERMISSIONS, TEAM_ROLE_PERMISSIONS, type TargetType } from './scopes.ts';
import type { InstallationRow, Loaders } from './loaders.ts';
import { WIRE } from '../db/wire-models.ts';
import type { RowOf } from '../db/wire-rows.ts';

export type Actor = { type: 'application'; applicationId: string } | { type: 'user'; userId: string };

export interface Authority {
  tokenId: string;
  applicationId: string;
  actor: Actor;
  owner: { type: string; id: string };
  scopes: string[];
  /** Entitlements of the application's owner, current when the request began. */
  entitlements: string[];
}

export type { InstallationRow };

/** The bearer token of an Authorization header, or null when it is absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

// The token's and its application's columns, from the datamodel (wire-rows.ts).
const TOKEN = WIRE.accessToken.pick('id', 'applicationId', 'actorType', 'userId', 'scopes');
const TOKEN_APPLICATION = WIRE.application.pick('ownerType', 'ownerId');

export type TokenRow = RowOf<typeof TOKEN> &
  RowOf<typeof TOKEN_APPLICATION> & {
    /** Neither revoked nor expired. */
    valid: boolean;
    /** The owner's entitlements that have not expired, by name. */
    entitlements: string[];
  };

// One statement on the hot path of every request: the token, its application's owner and the owner's
// entitlements. Timestamps are stored in UTC without a zone, so "now" is compared in UTC too.
const TOKEN_COLUMNS = `
  ${TOKEN.columns}, ${TOKEN_APPLICATION.columns},
  (t."revokedAt" IS NULL AND t."expiresAt" > (now() AT TIME ZONE 'UTC')) AS valid,
  ARRAY(SELECT e.name FROM "Entitlement" e
        WHERE e."ownerType" = a."ownerType" AND e."ownerId" = a."ownerId"
          AND (e."expiresAt" IS NULL OR e."expiresAt" > (now() AT TIME ZONE 'UTC'))
        ORDER BY e.name) AS entitlements`;
const TOKEN_FROM = `"AccessToken" t JOIN "Application" a ON a.id = t."applicationId"`;
const TOKEN_SQL = `SELECT ${TOKEN_COLUMNS} FROM ${TOKEN_FROM} WHERE t."tokenHash" = $1`;
// The same for many tokens at once, by hash: the realtime gateway's check of its sockets' tokens.
const TOKENS_SQL = `SELECT t."tokenHash" AS hash, ${TOKEN_COLUMNS} FROM ${TOKEN_FROM} WHERE t."tokenHash" = ANY($1::text[])`;

export async function resolveAuthority(sql: SqlRunner, authorization: string | undefined): Promise<Authority> {
  const token = bearerToken(authorization);
  if (!token) throw invalidToken('An access token is required: send Authorization: Bearer <token>.');
  const [row] = await sql<TokenRow>(TOKEN_SQL, [sha256(token)]);
  if (!row?.valid) throw invalidToken();
  return authorityOf(row);
}

/** The authority of each token (by sha256 hash) that is still valid; the others are left out. */
export async function resolveAuthorities(sql: SqlRunner, hashes: string[]): Promise<Map<string, Authority>> {
  const rows = await sql<TokenRow & { hash: string }>(TOKENS_SQL, [hashes]);
  return new Map(rows.filter((row) => row.valid).map((row) => [row.hash, authorityOf(row)]));
}

function authorityOf(row: TokenRow): Authority {
  return {
    tokenId: row.id,
    applicationId: row.applicationId,
    actor:
      row.actorType === 'user' && row.userId
        ? { type: 'user', userId: row.userId }
        : { type: 'application', applicationId: row.applicationId },
    owner: { type: row.ownerType, id: row.ownerId },
    scopes: row.scopes,
    entitlements: row.entitlements,
  };
}

export function requireScope(authority: Authority, scope: string): void {
  if (!authority.scopes.includes(scope)) {
    throw forbidden(`This operation needs the scope ${scope}, which the access token does not carry.`, 'missing_scope');
  }
}

/**
 * The active installation through which the application reaches a target: one on the target itself,
 * or, for an event, one on the event's organisation.
 */
export async function installationFor(
  loaders: Loaders,
  applicationId: string,
  targetType: TargetType,
  targetId: string,
  /** The event's organisation, when the caller knows it already (saves loading the event). */
  eventOrganisationId?: string,
): Promise<InstallationRow | null> {
  // The most specific installation wins: one on the event itself before one on its organisation.
  const [own, organisationId] = await Promise.all([
    loaders.activeInstallation.load({ applicationId, targetType, targetId }),
    targetType === 'event' ? (eventOrganisationId ?? loaders.event.load(targetId).then((event) => event?.organisationId)) : undefined,
  ]);
  if (own || !organisationId) return own;
  return loaders.activeInstallation.load({ applicationId, targetType: 'organisation', targetId: organisationId });
}

/**
 * What the actor may do on a target. An application acts through an active installation and may do
 * there what it was granted; a user acts through their own roles.
 */
export async function permissionsOn(
  db: Db,
  loaders: Loaders,
  authority: Authority,
  targetType: TargetType,
  targetId: string,
  installation: InstallationRow | null,
): Promise<string[]> {
  const permissions = new Set<string>();
  if (authority.actor.type === 'application') {
    if (!installation) return [];
    const app = await loaders.application.load(authority.applicationId);
    const read = { user: 'user:read', team: 'team:read', organisation: 'organisation:read', event: 'event:read' }[targetType];
    permissions.add(read);
    if (targetType === 'organisation' || targetType === 'event') {
      permissions.add('event:read');
      for (const scope of app?.grantedScopes ?? []) permissions.add(scope);
    }
  } else {
    const userId = authority.actor.userId;
    if (targetType === 'user') {
      if (userId === targetId) ['user:read', 'user:manage'].forEach((p) => permissions.add(p));
    } else if (targetType === 'team') {
      const member = await db.teamMember.findUnique({ where: { teamId_userId: { teamId: targetId, userId } } });
      for (const p of member ? (TEAM_ROLE_PERMISSIONS[member.role] ?? []) : []) permissions.add(p);
    } else {
      const organisationId =
        targetType === 'organisation'
          ? targetId
          : (await loaders.event.load(targetId))?.organisationId;
      if (organisationId) {
        const member = await db.organisationMember.findUnique({
          where: { organisationId_userId: { organisationId, userId } },
        });
        for (const p of member ? (ROLE_PERMISSIONS[member.role] ?? []) : []) permissions.add(p);
      }
    }
  }
  return [...permissions].sort();
}

// The installation a caller names with svc-installation-id (chat, esports data).
/** The longest svc-installation-id read (HTTP has already stripped spaces around it; nothing else is trimmed). */
export const INSTALLATION_ID_MAX_LENGTH = 128;
const NAMED_INSTALLATION = WIRE.installation.pick('applicationId', 'status', 'targetType', 'targetId');
const NAMED_INSTALLATION_SQL = `SELECT ${NAMED_INSTALLATION.columns} FROM "Installation" i WHERE i.id = $1`;

/**
 * The installation that svc-installation-id names (`named`, as sent): a 400 when it is too long, a 403
 * missing_installation unless it is an active installation of the calling application.
 */
export async function namedInstallation(sql: SqlRunner, applicationId: string, named: string): Promise<RowOf<typeof NAMED_INSTALLATION>> {
  if (named.length > INSTALLATION_ID_MAX_LENGTH) throw new ApiError('validation_failed', 'svc-installation-id is too long.', [{ field: 'svc-installation-id', issue: `at most ${INSTALLATION_ID_MAX_LENGTH} characters` }]);
  const [installation] = await sql<RowOf<typeof NAMED_INSTALLATION>>(NAMED_INSTALLATION_SQL, [named]);
  if (!installation || installation.applicationId !== applicationId || installation.status !== 'active') {
    throw forbidden('svc-installation-id is not an active installation of this application.', 'missing_installation');
  }
  return installation;
}
