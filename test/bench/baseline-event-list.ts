// Hand-written Koa + pg GET /api/v2/organisations/{organisationId}/events (first page, no filters):
// the same four statements as the platform (token, installation, latest change, page) and the same
// body and ETag, byte for byte.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import { authenticate, beginRequest, cursorOf } from './baseline-auth.ts';

const INSTALLATION_SQL = `SELECT id FROM "Installation" WHERE "applicationId" = $1 AND "targetType" = 'organisation' AND "targetId" = $2 AND status = 'active'`;
const LATEST_SQL = `SELECT max(sequence)::text AS sequence FROM "ChangeLog" WHERE "organisationId" = $1`;
const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const PAGE_SQL = `
  SELECT id, "organisationId", name, slug, type, visibility, state, platform, currency, region, "bannerUrl", description,
         "firstStageId", ${iso('"completedAt"')} AS "completedAt", revision, ${iso('"createdAt"')} AS "createdAt"
  FROM "Event" e WHERE e."organisationId" = $1 ORDER BY e."createdAt", e.id LIMIT 21`;

export function eventListHandler(pool: pg.Pool) {
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const token = await authenticate(pool, ctx);
    if (!token) return fail(401, 'invalid_token', 'invalid token');
    const organisationId = ctx.path.split('/')[4];
    const limit = 20;
    const [[installation], [latest]] = await Promise.all([
      pool.query({ name: 'baseline_event_installation', text: INSTALLATION_SQL, values: [token.applicationId, organisationId] }).then((r) => r.rows),
      pool.query({ name: 'baseline_event_latest', text: LATEST_SQL, values: [organisationId] }).then((r) => r.rows),
    ]);
    if (!installation) return fail(403, 'forbidden', 'missing installation');
    const binding = `events|${organisationId}||`;
    ctx.set('ETag', `"ev${latest?.sequence ?? 0}-${createHash('sha256').update(`${binding}||${limit}`).digest('base64url').slice(0, 12)}"`);
    const rows = (await pool.query({ name: 'baseline_event_page', text: PAGE_SQL, values: [organisationId] })).rows;
    const hasMore = rows.length > limit;
    const items = hasMore ? rows.slice(0, limit) : rows;
    const last = items[items.length - 1];
    ctx.body = {
      data: items.map(({ createdAt: _createdAt, ...event }) => event),
      meta: { nextCursor: hasMore ? cursorOf(binding, [last.createdAt, last.id]) : null, hasMore },
    };
  };
}
