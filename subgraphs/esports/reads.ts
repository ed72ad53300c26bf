// Reads of published esports data. Each is ONE statement that reads and, when the read succeeds,
// meters the call: a data-modifying CTE adds one esports_calls unit for (application, installation,
// UTC day) exactly when the data was found. The unit and the success are decided together; a call
// that finds nothing (404), or never gets this far (400, 401, 403), costs nothing. One round trip,
// so metering adds almost nothing to a read (docs/benchmarks.md).
import type { SqlRunner } from '../shared/db/database.ts';
import type { EsportsCaller } from './access.ts';
import { ApiError } from '../shared/errors.ts';

/** ESPORTS_METERING=off runs the same reads without the unit: for measuring metering's cost only. */
export const meteringEnabled = () => process.env.ESPORTS_METERING !== 'off';

const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function metered(found: string, select: string, condition = 'EXISTS (SELECT 1 FROM found)'): { on: string; off: string } {
  const meter = `,
    meter AS (
      INSERT INTO "UsageRecord" ("applicationId", "installationId", metric, day, units)
      SELECT $1, $2, 'esports_calls', (now() AT TIME ZONE 'UTC')::date, 1
      WHERE ${condition}
      ON CONFLICT ("applicationId", "installationId", metric, day) DO UPDATE SET units = "UsageRecord".units + 1
    )`;
  return { on: `WITH ${found}${meter} ${select}`, off: `WITH ${found}, meter AS (SELECT $1::text, $2::text) ${select}` };
}

const EVENT_COLUMNS = `e.id, e.name, ${iso('e."updatedAt"')} AS "updatedAt", e."shortName", e.region, e.phase, e.location,
  e."imageUrl", e."darkImageUrl", e.currency, ${iso('e."startsAt"')} AS "startsAt", ${iso('e."endsAt"')} AS "endsAt"`;

const STATEMENTS = {
  events: metered(
    `found AS (SELECT true),
     page AS (
       SELECT ${EVENT_COLUMNS}, ${iso('e."createdAt"')} AS "sortAt" FROM "EsportsEvent" e
       WHERE $3::timestamp IS NULL OR (e."createdAt", e.id) > ($3::timestamp, $4::text)
       ORDER BY e."createdAt", e.id LIMIT $5)`,
    `SELECT true AS found, COALESCE((SELECT json_agg(page ORDER BY page."sortAt", page.id) FROM page), '[]') AS items`,
  ),
  stages: metered(
    `found AS (SELECT id FROM "EsportsEvent" WHERE id = $3),
     page AS (
       SELECT s.id, s."eventId", s.name, s.status, s.format, ${iso('s."updatedAt"')} AS "updatedAt", s."translationKey",
              ${iso('s."startsAt"')} AS "startsAt", ${iso('s."endsAt"')} AS "endsAt", s.position
       FROM "EsportsStage" s
       WHERE s."eventId" = $3 AND ($4::int IS NULL OR (s.position, s.id) > ($4::int, $5::text))
       ORDER BY s.position, s.id LIMIT $6)`,
    `SELECT EXISTS (SELECT 1 FROM found) AS found, COALESCE((SELECT json_agg(page ORDER BY page.position, page.id) FROM page), '[]') AS items`,
  ),
  mapStatistics: metered(
    `found AS (SELECT id FROM "EsportsEvent" WHERE id = $3),
     page AS (
       SELECT m."mapId" AS id, m.name, ${iso('m."updatedAt"')} AS "updatedAt", m."matchesPlayed", m."mapsPlayed", m."roundsPlayed",
              m."attackWins", m."defenseWins"
       FROM "EsportsMapStatistics" m
       WHERE m."eventId" = $3 AND ($4::text IS NULL OR m."mapId" > $4::text)
       ORDER BY m."mapId" LIMIT $5)`,
    `SELECT EXISTS (SELECT 1 FROM found) AS found, COALESCE((SELECT json_agg(page ORDER BY page.id) FROM page), '[]') AS items`,
  ),
  group: metered(
    `found AS (
       SELECT g.id, g."eventId", g."stageId", g.name, ${iso('g."updatedAt"')} AS "updatedAt", g.position, g."standingCount", g."roundCount"
       FROM "EsportsGroup" g WHERE g.id = $5 AND g."stageId" = $4 AND g."eventId" = $3)`,
    `SELECT * FROM found`,
  ),
  match: metered(
    `found AS (
       SELECT m.id, m."eventId", e.name AS "eventName", ${iso('m."scheduledAt"')} AS "scheduledAt", m.status, ${iso('m."updatedAt"')} AS "updatedAt",
              m."bestOf", m."teamAId", m."teamAName", m."teamALogo", m."teamAScore", m."teamBId", m."teamBName", m."teamBLogo", m."teamBScore",
              m."isFreeWin", m."watchUrl", m."youtubeUrl"
       FROM "EsportsMatch" m JOIN "EsportsEvent" e ON e.id = m."eventId" WHERE m.id = $3)`,
    `SELECT * FROM found`,
  ),
  matchStatistics: metered(
    `found AS (
       SELECT s."matchId" AS id, s."matchesPlayed", s."mapsPlayed", s."roundsPlayed", s.kills, s.deaths, s."survivedRounds", s."openingKills",
              s."openingDeaths", s.headshots, s.plants, s.defuses, s.clutches, s."clutchOpportunities", s."impactRounds", s."doubleKills",
              s."tripleKills", s."quadKills", s.aces, s.kost, s.eps, ${iso('s."updatedAt"')} AS "updatedAt"
       FROM "EsportsMatchStatistics" s WHERE s."matchId" = $3)`,
    `SELECT * FROM found`,
  ),
};

type Statement = keyof typeof STATEMENTS;

export function runEsportsRead<T>(sql: SqlRunner, caller: EsportsCaller, statement: Statement, params: unknown[], deadline: number): Promise<T[]> {
  // A request whose time is up fails here, before it could be metered.
  if (Date.now() > deadline) {
    throw new ApiError('service_unavailable', 'The request took too long and was not answered; it was not metered.', [{ issue: 'timeout' }]);
  }
  const text = meteringEnabled() ? STATEMENTS[statement].on : STATEMENTS[statement].off;
  return sql<T>(text, [caller.applicationId, caller.installationId, ...params]);
}
