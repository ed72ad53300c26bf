// The applications a user has authorised (GitHub's "Authorized OAuth Apps"): listed and revoked by
// the user, through a token that acts for that user. An application is authorised while the user's
// grant to it stands or while it holds a live token acting for the user.
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { iso, NOW } from '../../../platform/db/sql-fragments.ts';
import { forbidden, notFound } from '../../../platform/api/errors.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../../platform/api/pagination.ts';
import { revokeUserGrants, storeOf } from './model.ts';
import type { userAuthorizationView } from '../views.ts';

/** An authorisation as answered: the view's type (views.ts), declared once. */
export type UserAuthorization = z.output<typeof userAuthorizationView>;

// Grants and grant-less user tokens (the demo world's) per application: scopes united, first
// authorised, last token issued.
const AUTHORIZATIONS_SQL = (from: 'first' | 'after' | 'only', limit: number) => `
  WITH live AS (
    SELECT g."applicationId", g.scopes, g."createdAt" AS "authorizedAt",
           (SELECT max(t."createdAt") FROM "AccessToken" t WHERE t."grantId" = g.id) AS "usedAt"
    FROM "OAuthGrant" g WHERE g."userId" = $1 AND g."revokedAt" IS NULL
    UNION ALL
    SELECT t."applicationId", t.scopes, t."createdAt", t."createdAt"
    FROM "AccessToken" t WHERE t."userId" = $1 AND t."grantId" IS NULL AND t."revokedAt" IS NULL AND t."expiresAt" > ${NOW}
  )
  SELECT l."applicationId", a.name AS "applicationName",
         ARRAY(SELECT DISTINCT s FROM live l2, unnest(l2.scopes) s WHERE l2."applicationId" = l."applicationId" ORDER BY s) AS scopes,
         ${iso('min(l."authorizedAt")')} AS "authorizedAt", ${iso('max(l."usedAt")')} AS "lastUsedAt"
  FROM live l JOIN "Application" a ON a.id = l."applicationId"
  ${from === 'after' ? 'WHERE l."applicationId" > $2' : from === 'only' ? 'WHERE l."applicationId" = $2' : ''}
  GROUP BY l."applicationId", a.name ORDER BY l."applicationId" LIMIT ${limit + 1}`;

async function userOf(ctx: SubgraphContext): Promise<string> {
  const authority = await ctx.authority();
  if (authority.actor.type !== 'user') {
    throw forbidden('Only a token acting for a user can manage that user\'s authorisations.', 'user_actor_required');
  }
  return authority.actor.userId;
}

export async function listUserAuthorizations(ctx: SubgraphContext, args: { cursor?: string | null; limit?: number | null }): Promise<Page<UserAuthorization>> {
  const userId = await userOf(ctx);
  const limit = pageLimit(args.limit);
  const binding = `authorizations|${userId}`;
  const after = decodeCursor(binding, args.cursor);
  const rows = await ctx.sql<UserAuthorization>(AUTHORIZATIONS_SQL(after ? 'after' : 'first', limit), after ? [userId, after[0]] : [userId]);
  return pageOf(rows, limit, binding, (row) => [row.applicationId], (row) => row);
}

/** Revokes every grant and token of the application acting for the user; answers what was authorised. */
export async function revokeUserAuthorization(ctx: SubgraphContext, applicationId: string): Promise<UserAuthorization & { revokedAt: string }> {
  const userId = await userOf(ctx);
  const [current] = await ctx.sql<UserAuthorization>(AUTHORIZATIONS_SQL('only', 1), [userId, applicationId]);
  if (!current) throw notFound(`An authorisation of application ${applicationId}`);
  await revokeUserGrants(storeOf(ctx), userId, applicationId);
  return { ...current, revokedAt: new Date().toISOString() };
}
