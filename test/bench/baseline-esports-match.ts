// Hand-written Koa + pg GET /api/v2/esports/matches/{matchId} with the same checks as the platform
// (token, installation of the caller, esports_data entitlement) and the same metered read statement.
import type { Context } from 'koa';
import type pg from 'pg';
import { authenticate, beginRequest } from './baseline-auth.ts';

const MATCH_SQL = `
  WITH found AS (
    SELECT m.id, m."eventId", e.name AS "eventName", to_char(m."scheduledAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "scheduledAt", m.status,
           to_char(m."updatedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt", m."bestOf", m."teamAId", m."teamAName", m."teamALogo", m."teamAScore",
           m."teamBId", m."teamBName", m."teamBLogo", m."teamBScore", m."isFreeWin", m."watchUrl", m."youtubeUrl"
    FROM "EsportsMatch" m JOIN "EsportsEvent" e ON e.id = m."eventId" WHERE m.id = $3),
  meter AS (
    INSERT INTO "UsageRecord" ("applicationId", "installationId", metric, day, shard, units)
    SELECT $1, $2, 'esports_calls', (now() AT TIME ZONE 'UTC')::date, floor(random() * 16)::int, 1 WHERE EXISTS (SELECT 1 FROM found)
    ON CONFLICT ("applicationId", "installationId", metric, day, shard) DO UPDATE SET units = "UsageRecord".units + 1)
  SELECT * FROM found`;

export function esportsMatchHandler(pool: pg.Pool) {
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const token = await authenticate(pool, ctx);
    if (!token) return fail(401, 'invalid_token', 'invalid token');
    const installationId = ctx.get('svc-installation-id');
    if (!installationId) return fail(400, 'validation_failed', 'svc-installation-id required');
    const [installation] = (await pool.query({ name: 'baseline_esports_installation', text: `SELECT "applicationId", status FROM "Installation" WHERE id = $1`, values: [installationId] })).rows;
    if (!installation || installation.applicationId !== token.applicationId || installation.status !== 'active') return fail(403, 'forbidden', 'missing installation');
    if (!token.entitlements.includes('esports_data')) return fail(403, 'forbidden', 'missing entitlement');
    const [row] = (await pool.query({ name: 'baseline_esports_match', text: MATCH_SQL, values: [token.applicationId, installationId, ctx.path.split('/')[5]] })).rows;
    if (!row) return fail(404, 'not_found', 'no match');
    const { teamAId, teamAName, teamALogo, teamAScore, teamBId, teamBName, teamBLogo, teamBScore, ...rest } = row;
    ctx.body = {
      data: {
        ...rest,
        teamA: { id: teamAId, name: teamAName, logoUrl: teamALogo, score: teamAScore },
        teamB: { id: teamBId, name: teamBName, logoUrl: teamBLogo, score: teamBScore },
      },
    };
  };
}
