// Reads of published esports data, one statement each, and their metering: a read that found what
// it was asked for records one esports_calls unit (meter.ts) and answers only once that unit is
// committed. A call that finds nothing (404), or never gets this far (400, 401, 403), or whose unit
// cannot be committed (5xx), costs nothing.
import type { SqlRunner } from '../../platform/db/database.ts';
import type { EsportsCaller } from './access.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { setting } from '../../platform/process/config.ts';
import { recordUnit } from './metering/meter.ts';

/** ESPORTS_METERING=off runs the same reads without the unit: for measuring metering's cost only. */
export const meteringEnabled = () => setting('ESPORTS_METERING');

const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function withFound(found: string, select: string) {
  return `WITH ${found} ${select}`;
}

const EVENT_COLUMNS = `e.id, e.name, ${iso('e."updatedAt"')} AS "updatedAt", e."shortName", e.region, e.phase, e.location,
  e."imageUrl", e."darkImageUrl", e.currency, ${iso('e."startsAt"')} AS "startsAt", ${iso('e."endsAt"')} AS "endsAt"`;

const STATEMENTS = {
  events: withFound(
    `found AS (SELECT true),
     page AS (
       SELECT ${EVENT_COLUMNS}, ${iso('e."createdAt"')} AS "sortAt" FROM "EsportsEvent" e
       WHERE $1::timestamp IS NULL OR (e."createdAt", e.id) > ($1::timestamp, $2::text)
       ORDER BY e."createdAt", e.id LIMIT $3)`,
    `SELECT true AS found, COALESCE((SELECT json_agg(page ORDER BY page."sortAt", page.id) FROM page), '[]') AS items`,
  ),
  stages: withFound(
    `found AS (SELECT id FROM "EsportsEvent" WHERE id = $1),
     page AS (
       SELECT s.id, s."eventId", s.name, s.status, s.format, ${iso('s."updatedAt"')} AS "updatedAt", s."translationKey",
              ${iso('s."startsAt"')} AS "startsAt", ${iso('s."endsAt"')} AS "endsAt", s.position
       FROM "EsportsStage" s
       WHERE s."eventId" = $1 AND ($2::int IS NULL OR (s.position, s.id) > ($2::int, $3::text))
       ORDER BY s.position, s.id LIMIT $4)`,
    `SELECT EXISTS (SELECT 1 FROM found) AS found, COALESCE((SELECT json_agg(page ORDER BY page.position, page.id) FROM page), '[]') AS items`,
  ),
  mapStatistics: withFound(
    `found AS (SELECT id FROM "EsportsEvent" WHERE id = $1),
     page AS (
       SELECT m."mapId" AS id, m.name, ${iso('m."updatedAt"')} AS "updatedAt", m."matchesPlayed", m."mapsPlayed", m."roundsPlayed",
              m."attackWins", m."defenseWins"
       FROM "EsportsMapStatistics" m
       WHERE m."eventId" = $1 AND ($2::text IS NULL OR m."mapId" > $2::text)
       ORDER BY m."mapId" LIMIT $3)`,
    `SELECT EXISTS (SELECT 1 FROM found) AS found, COALESCE((SELECT json_agg(page ORDER BY page.id) FROM page), '[]') AS items`,
  ),
  group: withFound(
    `found AS (
       SELECT g.id, g."eventId", g."stageId", g.name, ${iso('g."updatedAt"')} AS "updatedAt", g.position, g."standingCount", g."roundCount"
       FROM "EsportsGroup" g WHERE g.id = $3 AND g."stageId" = $2 AND g."eventId" = $1)`,
    `SELECT * FROM found`,
  ),
  match: withFound(
    `found AS (
       SELECT m.id, m."eventId", e.name AS "eventName", ${iso('m."scheduledAt"')} AS "scheduledAt", m.status, ${iso('m."updatedAt"')} AS "updatedAt",
              m."bestOf", m."teamAId", m."teamAName", m."teamALogo", m."teamAScore", m."teamBId", m."teamBName", m."teamBLogo", m."teamBScore",
              m."isFreeWin", m."watchUrl", m."youtubeUrl"
       FROM "EsportsMatch" m JOIN "EsportsEvent" e ON e.id = m."eventId" WHERE m.id = $1)`,
    `SELECT * FROM found`,
  ),
  matchStatistics: withFound(
    `found AS (
       SELECT s."matchId" AS id, s."matchesPlayed", s."mapsPlayed", s."roundsPlayed", s.kills, s.deaths, s."survivedRounds", s."openingKills",
              s."openingDeaths", s.headshots, s.plants, s.defuses, s.clutches, s."clutchOpportunities", s."impactRounds", s."doubleKills",
              s."tripleKills", s."quadKills", s.aces, s.kost, s.eps, ${iso('s."updatedAt"')} AS "updatedAt"
       FROM "EsportsMatchStatistics" s WHERE s."matchId" = $1)`,
    `SELECT * FROM found`,
  ),
};

type Statement = keyof typeof STATEMENTS;

/**
 * Runs a read and, when it found what was asked for, meters it: the call answers only after its
 * unit is committed. `found` decides success (a 404 costs nothing).
 */
export async function runEsportsRead<T>(
  sql: SqlRunner,
  caller: EsportsCaller,
  statement: Statement,
  params: unknown[],
  deadline: number,
  found: (rows: T[]) => boolean,
): Promise<T[]> {
  const rows = await sql<T>(STATEMENTS[statement], params);
  if (!found(rows)) return rows;
  // A request whose time is up fails here, before it could be metered.
  if (Date.now() > deadline) {
    throw new ApiError('service_unavailable', 'The request took too long and was not answered; it was not metered.', [{ issue: 'timeout' }]);
  }
  if (meteringEnabled()) await recordUnit(sql, caller.applicationId, caller.installationId);
  return rows;
}
