// The SQL of matches: the hot reads of an event's matches (one statement a page, opponents and maps
// with it), player statistics, and the statements a match report writes (result, progression,
// maps, broadcast, the playday's live match).
// Named prepared statements on the driver (ctx.sql) and statements of the event-write transaction
// (ctx.transaction); timestamps are stored in UTC without a zone and read as ISO 8601 text.

import type { z } from 'zod';
import type { Match } from '../../../platform/db/generated/client.ts';
import { WIRE } from '../../../platform/db/wire-models.ts';
import type { RowOf, WireRow } from '../../../platform/db/wire-rows.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { BRACKET_ORDER } from '../tournament/types.ts';
import type { ffaOpponentView, matchMapView, slotSourceView } from '../views.ts';
import { pageStatements } from '../../../platform/db/page-statements.ts';

/**
 * A match as v1 and GraphQL show it: the Match model's columns as the driver reads them (its JSON
 * columns in their stored shapes), both sides' teams joined, the maps played as a JSON array, the
 * round's number and bracket.
 */
export type MatchRow = Omit<WireRow<Match>, 'sourceA' | 'sourceB' | 'opponents'> & {
  // The JSON columns and the maps in the shapes the view answers them (views.ts), declared there.
  sourceA: MatchSourceView | null;
  sourceB: MatchSourceView | null;
  opponents: z.output<typeof ffaOpponentView>[] | null;
  // The teams and the round are joined in; the view nests the teams into opponentA and opponentB,
  // with a result and a forfeit computed per side (schema/match.ts), so these stay the row's.
  teamAId: string | null;
  teamAName: string | null;
  teamALogoUrl: string | null;
  teamBId: string | null;
  teamBName: string | null;
  teamBLogoUrl: string | null;
  maps: z.output<typeof matchMapView>[];
  roundNumber: number | null;
  bracket: string | null;
};

/** A slot's source as stored: a seed of the stage, or the winner or loser of another match. */
export type MatchSourceView = z.output<typeof slotSourceView>;

/**
 * The SELECT of a match as MatchRow reads it, with `columns` selected after MatchRow's and `joins`
 * after its own (aliases other than m, pa, ta, pb, tb, r). The round number and bracket are the
 * match's round's. MatchRow's own part is every column of the Match model (WIRE.match: DateTime
 * ones as ISO text).
 */
function matchSelect({ columns = [], joins = [] }: { columns?: string[]; joins?: string[] } = {}): string {
  return `
  SELECT ${WIRE.match.columns},
         pa."teamId" AS "teamAId", ta.name AS "teamAName", ta."logoUrl" AS "teamALogoUrl",
         pb."teamId" AS "teamBId", tb.name AS "teamBName", tb."logoUrl" AS "teamBLogoUrl",
         COALESCE((SELECT json_agg(json_build_object('position', mm.position, 'mapId', mm."mapId", 'mapName', COALESCE(mp.name, mm."mapId"),
                                                     'scoreA', mm."scoreA", 'scoreB', mm."scoreB", 'winner', mm.winner) ORDER BY mm.position)
                   FROM "MatchMap" mm LEFT JOIN "Map" mp ON mp.id = mm."mapId" WHERE mm."matchId" = m.id), '[]'::json) AS maps,
         r.number AS "roundNumber", r.bracket${columns.map((column) => `,\n         ${column}`).join('')}
  FROM "Match" m
  LEFT JOIN "Participant" pa ON pa.id = m."participantAId" LEFT JOIN "Team" ta ON ta.id = pa."teamId"
  LEFT JOIN "Participant" pb ON pb.id = m."participantBId" LEFT JOIN "Team" tb ON tb.id = pb."teamId"
  LEFT JOIN "Round" r ON r.id = m."roundId"${joins.map((join) => `\n  ${join}`).join('')}`;
}
const MATCH_SELECT = matchSelect();

/** One match of event $1: $2 its id. */
export const MATCH_SQL = `${MATCH_SELECT} WHERE m."eventId" = $1 AND m.id = $2`;

/**
 * A page of event $1's matches in creation order: then the filters given and the cursor's
 * (createdAt, id). One statement, whatever the page holds: opponents and maps come with it.
 */
export const matchPageStatement = pageStatements<{ stage: boolean; group: boolean; round: boolean; status: boolean; after: boolean }>((filters, rows) => {
  const conditions = ['m."eventId" = $1'];
  let next = 2;
  if (filters.stage) conditions.push(`m."stageId" = $${next++}`);
  if (filters.group) conditions.push(`m."groupId" = $${next++}`);
  if (filters.round) conditions.push(`m."roundId" = $${next++}`);
  if (filters.status) conditions.push(`m.status = $${next++}`);
  if (filters.after) conditions.push(`(m."createdAt", m.id) > ($${next++}::timestamp, $${next++}::text)`);
  return `${MATCH_SELECT} WHERE ${conditions.join(' AND ')} ORDER BY m."createdAt", m.id LIMIT ${rows}`;
});

/** Rank of a match's bracket in a stage's bracket order (tournament BRACKET_ORDER, from 1); 0 outside brackets. */
export const BRACKET_RANK = `CASE r.bracket ${BRACKET_ORDER.map((bracket, index) => `WHEN '${bracket}' THEN ${index + 1}`).join(' ')} ELSE 0 END`;
const STAGE_ORDER_KEY = `${BRACKET_RANK}, COALESCE(r.number, 0), COALESCE(g.position, 0), COALESCE(m.position, 0), m."createdAt", m.id`;

/**
 * A page of stage $2's matches (event $1) in bracket order: bracket (winners, losers, grand_final,
 * third_place), round number, group position, position, then creation for matches not generated;
 * after the cursor's key ($3 … $8).
 */
export const stageMatchPageStatement = pageStatements<{ after: boolean }>((filters, rows) => {
  const select = matchSelect({
    columns: [`${BRACKET_RANK} AS "orderRank"`, 'COALESCE(g.position, 0) AS "orderGroup"'],
    joins: ['LEFT JOIN "Group" g ON g.id = m."groupId"'],
  });
  const after = filters.after ? ` AND (${STAGE_ORDER_KEY}) > ($3::int, $4::int, $5::int, $6::int, $7::timestamp, $8::text)` : '';
  return `${select} WHERE m."eventId" = $1 AND m."stageId" = $2${after} ORDER BY ${STAGE_ORDER_KEY} LIMIT ${rows}`;
});

/** A player's totals over the matches in scope, what the derived rates need, and the rating (the sort key). */
export interface PlayerStatisticsRow {
  userId: string | null;
  profileId: string;
  displayName: string;
  matchesPlayed: number;
  matchesWon: number;
  roundsPlayed: number;
  roundsWon: number;
  kills: number;
  deaths: number;
  assists: number;
  headshots: number;
  openingKills: number;
  openingDeaths: number;
  plants: number;
  defuserDisables: number;
  clutchSituations: number;
  clutchWins: number;
  kastRounds: number;
  survivedRounds: number;
  damage: number;
  rating: number;
}

/**
 * A page of player statistics of event $1, best rating first: then the stage and group filters given
 * and the cursor's (rating, profileId). The rating is ratingOf's formula (player-statistics.ts).
 */
export const playerStatisticsStatement = pageStatements<{ stage: boolean; group: boolean; after: boolean }>((filters, rows) => {
  const conditions = ['s."eventId" = $1'];
  let next = 2;
  if (filters.stage) conditions.push(`s."stageId" = $${next++}`);
  if (filters.group) conditions.push(`s."groupId" = $${next++}`);
  const after = filters.after ? `WHERE (t.rating < $${next} OR (t.rating = $${next} AND t."profileId" > $${next + 1}::text))` : '';
  return `
    WITH totals AS (
      SELECT s."profileId",
             (array_agg(s."userId" ORDER BY s."matchId" DESC))[1] AS "userId",
             (array_agg(s."displayName" ORDER BY s."matchId" DESC))[1] AS "displayName",
             COUNT(DISTINCT s."matchId")::int AS "matchesPlayed",
             COUNT(DISTINCT s."matchId") FILTER (WHERE s.won)::int AS "matchesWon",
             SUM(s."roundsPlayed")::int AS "roundsPlayed", SUM(s."roundsWon")::int AS "roundsWon",
             SUM(s.kills)::int AS kills, SUM(s.deaths)::int AS deaths, SUM(s.assists)::int AS assists,
             SUM(s.headshots)::int AS headshots, SUM(s."openingKills")::int AS "openingKills",
             SUM(s."openingDeaths")::int AS "openingDeaths", SUM(s.plants)::int AS plants,
             SUM(s."defuserDisables")::int AS "defuserDisables", SUM(s."clutchSituations")::int AS "clutchSituations",
             SUM(s."clutchWins")::int AS "clutchWins", SUM(s."kastRounds")::int AS "kastRounds",
             SUM(s."survivedRounds")::int AS "survivedRounds", SUM(s.damage)::int AS damage
      FROM "PlayerMatchStat" s
      WHERE ${conditions.join(' AND ')}
      GROUP BY s."profileId"
    ), rated AS (
      SELECT totals.*,
             CASE WHEN "roundsPlayed" = 0 THEN 0::float8 ELSE
               0.0073 * (100.0 * "kastRounds" / "roundsPlayed") + 0.3591 * (kills::float8 / "roundsPlayed")
               - 0.5329 * (deaths::float8 / "roundsPlayed")
               + 0.2372 * (2.13 * (kills::float8 / "roundsPlayed") + 0.42 * (assists::float8 / "roundsPlayed") - 0.41)
               + 0.0032 * (damage::float8 / "roundsPlayed") + 0.1587
             END::float8 AS rating
      FROM totals
    )
    SELECT * FROM rated t ${after}
    ORDER BY t.rating DESC, t."profileId" ASC
    LIMIT ${rows}`;
});

/**
 * A match report ($1 match): status, schedule, scores, free win and stream as planned; $8 and $9 say
 * what happens to startedAt and completedAt ('now' keeps an earlier time, 'clear', 'keep').
 */
export const REPORT_MATCH_SQL = `
  UPDATE "Match" SET status = $2, "scheduledAt" = $3::timestamp, "scoreA" = $4, "scoreB" = $5, "isFreeWin" = $6, "streamUrl" = $7,
    "startedAt" = CASE $8::text WHEN 'now' THEN COALESCE("startedAt", ${NOW}) WHEN 'clear' THEN NULL ELSE "startedAt" END,
    "completedAt" = CASE $9::text WHEN 'now' THEN ${NOW} WHEN 'clear' THEN NULL ELSE "completedAt" END,
    forfeit = $10, opponents = COALESCE($11::jsonb, opponents),
    "updatedAt" = ${NOW}
  WHERE id = $1`;

/** A generated match as progression reads it (tournament/progression.ts). */
const BRACKET_MATCH = WIRE.match.pick(
  'id', 'status', 'isFreeWin', 'participantAId', 'participantBId', 'scoreA', 'scoreB', 'forfeit', 'winnerToMatchId', 'winnerToSlot', 'loserToMatchId', 'loserToSlot',
);
export type BracketMatchRow = RowOf<typeof BRACKET_MATCH> & { bracket: string | null; roundNumber: number | null };

/**
 * Match $1 and every match downstream of it (through winnerTo and loserTo), in one statement: what a
 * report of $1 may move a participant into or out of. UNION: a match reached twice is read once.
 */
export const DOWNSTREAM_MATCHES_SQL = `
  WITH RECURSIVE downstream(id) AS (
    SELECT $1::text
    UNION
    SELECT next.id FROM downstream d JOIN "Match" m ON m.id = d.id
    CROSS JOIN LATERAL (VALUES (m."winnerToMatchId"), (m."loserToMatchId")) AS next(id)
    WHERE next.id IS NOT NULL
  )
  SELECT ${BRACKET_MATCH.columns}, r.bracket, r.number AS "roundNumber"
  FROM downstream d JOIN "Match" m ON m.id = d.id LEFT JOIN "Round" r ON r.id = m."roundId"`;

/**
 * The matches a report moved participants into or out of, one statement for all: their slots, status,
 * scores and forfeit as progression left them. Back to scheduled clears the timing; a bye completed on
 * its participant's arrival is stamped completed.
 */
export const UPDATE_PROGRESSED_MATCHES_SQL = `
  UPDATE "Match" m SET "participantAId" = u.a, "participantBId" = u.b, status = u.status, "scoreA" = u."scoreA", "scoreB" = u."scoreB", forfeit = u.forfeit,
    "startedAt" = CASE WHEN u.status = 'scheduled' THEN NULL ELSE m."startedAt" END,
    "completedAt" = CASE WHEN u.status = 'completed' THEN COALESCE(m."completedAt", ${NOW}) WHEN u.status = 'scheduled' THEN NULL ELSE m."completedAt" END,
    "updatedAt" = ${NOW}
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[]) AS u(id, a, b, status, "scoreA", "scoreB", forfeit)
  WHERE m.id = u.id`;

/** The maps of matches a correction took a participant from: their results are void. */
export const DELETE_MATCHES_MAPS_SQL = `DELETE FROM "MatchMap" WHERE "matchId" = ANY($1::text[])`;

export const REPLACE_MATCH_MAPS_SQL = [
  `DELETE FROM "MatchMap" WHERE "matchId" = $1`,
  `INSERT INTO "MatchMap" ("matchId", position, "mapId", "scoreA", "scoreB", winner)
   SELECT $1, m.n, m.id, m.a, m.b, m.w FROM unnest($2::text[], $3::int[], $4::int[], $5::text[]) WITH ORDINALITY AS m(id, a, b, w, n)`,
] as const;

export const REPLACE_BROADCAST_SQL = `
  INSERT INTO "BroadcastConfig" ("eventId", "streamUrl", "youtubeUrl", "overlayTheme", "primaryColor", "delaySeconds", "showScores", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, ${NOW})
  ON CONFLICT ("eventId") DO UPDATE SET "streamUrl" = EXCLUDED."streamUrl", "youtubeUrl" = EXCLUDED."youtubeUrl", "overlayTheme" = EXCLUDED."overlayTheme",
    "primaryColor" = EXCLUDED."primaryColor", "delaySeconds" = EXCLUDED."delaySeconds", "showScores" = EXCLUDED."showScores", "updatedAt" = EXCLUDED."updatedAt"`;

export const UPDATE_PLAYDAY_SQL = `UPDATE "Playday" SET "liveMatchId" = $2, "overlayScoreA" = $3, "overlayScoreB" = $4 WHERE id = $1`;
