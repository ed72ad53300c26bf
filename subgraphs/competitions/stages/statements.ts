// The SQL of stages: creating one with its groups, seeding and starting it (the generated rounds and
// matches), chaining to the next stage, and its standings as stored and read.
// Named prepared statements on the driver (ctx.sql) and statements of the event-write transaction
// (ctx.transaction); timestamps are stored in UTC without a zone and read as ISO 8601 text.

import { WIRE } from '../../../platform/db/wire-models.ts';
import type { RowOf } from '../../../platform/db/wire-rows.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { pageStatements } from '../../../platform/db/page-statements.ts';
import type { z } from 'zod';
import type { ffaOpponentView } from '../views.ts';

/** The stage goes last: its position is computed here, under the event's lock. */
export const INSERT_STAGE_SQL = `
  INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position, status, "startsAt", "endsAt", settings, "createdAt")
  SELECT $1, $2, $3, $4, $5, COALESCE(MAX(position), 0) + 1, 'pending', $6::timestamp, $7::timestamp, $8::jsonb, ${NOW}
  FROM "Stage" WHERE "eventId" = $2`;

/** Groups $3 (ids) named $4 of stage $2 in event $1, positioned in order. */
export const INSERT_GROUPS_SQL = `
  INSERT INTO "Group" (id, "eventId", "stageId", name, position, "createdAt")
  SELECT g.id, $1, $2, g.name, g.n, ${NOW} FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS g(id, name, n)`;

/** A manual seeding of stage $1: its settings ($2, seeding manual) and order ($3). */
export const SEED_STAGE_SQL = `UPDATE "Stage" SET settings = $2::jsonb, seeding = $3::jsonb WHERE id = $1`;

/** The seeding shown on stage $1 before its start ($2 null: none). */
export const SET_STAGE_SEEDING_SQL = `UPDATE "Stage" SET seeding = $2::jsonb WHERE id = $1`;

/** The stage after stage $2 in event $1 (by position): the one a previous_stage seeding chains to. */
export const NEXT_STAGE_SQL = `
  SELECT n.id, n.status, n.settings, n.seeding FROM "Stage" s JOIN "Stage" n ON n."eventId" = s."eventId" AND (n.position, n.id) > (s.position, s.id)
  WHERE s."eventId" = $1 AND s.id = $2 ORDER BY n.position, n.id LIMIT 1`;

/** The stage before stage $2 in event $1 (by position). */
export const PREVIOUS_STAGE_SQL = `
  SELECT p.id, p.status, p.settings, p.seeding, p.format FROM "Stage" s JOIN "Stage" p ON p."eventId" = s."eventId" AND (p.position, p.id) < (s.position, s.id)
  WHERE s."eventId" = $1 AND s.id = $2 ORDER BY p.position DESC, p.id DESC LIMIT 1`;

/** Stage $1 starts with its frozen seeding $2. */
export const START_STAGE_SQL = `UPDATE "Stage" SET status = 'running', seeding = $2::jsonb, "startedAt" = ${NOW} WHERE id = $1`;

/** Generated rounds of stage $2 in event $1: ids $3, groups $4, numbers $5, names $6, brackets $7. */
export const INSERT_GENERATED_ROUNDS_SQL = `
  INSERT INTO "Round" (id, "eventId", "stageId", "groupId", number, name, bracket, "createdAt")
  SELECT r.id, $1, $2, r."groupId", r.number, r.name, r.bracket, ${NOW}
  FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[]) AS r(id, "groupId", number, name, bracket)`;

/**
 * Generated matches of stage $2 in event $1, best-of $3, one array per column from $4. Completed
 * ones (byes) are stamped completed now.
 */
export const INSERT_GENERATED_MATCHES_SQL = `
  INSERT INTO "Match" (id, "eventId", "stageId", "groupId", "roundId", "participantAId", "participantBId", "bestOf", status, "isFreeWin",
    position, "winnerToMatchId", "winnerToSlot", "loserToMatchId", "loserToSlot", "sourceA", "sourceB", opponents,
    "completedAt", "createdAt", "updatedAt")
  SELECT m.id, $1, $2, m."groupId", m."roundId", m.a, m.b, $3, m.status, m."isFreeWin",
    m.position, m."winnerTo", m."winnerSlot", m."loserTo", m."loserSlot", m."sourceA"::jsonb, m."sourceB"::jsonb, m.opponents::jsonb,
    CASE WHEN m.status = 'completed' THEN ${NOW} END, ${NOW}, ${NOW}
  FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::int[],
              $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
       AS m(id, "groupId", "roundId", a, b, status, "isFreeWin", position, "winnerTo", "winnerSlot", "loserTo", "loserSlot", "sourceA", "sourceB", opponents)`;

export const INSERT_STANDING_ADJUSTMENT_SQL = `
  INSERT INTO "StandingAdjustment" (id, "eventId", "stageId", "groupId", "participantId", points, reason, "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, ${NOW})`;

/** A standing entered by hand (a stage the platform did not start): the adjustment adds to it. */
export const ADD_STANDING_POINTS_SQL = `UPDATE "Standing" SET points = points + $2, "adjustmentPoints" = "adjustmentPoints" + $2 WHERE id = $1`;

/**
 * The stage `stage` (an SQL expression) beside a report of matches `reported` (an SQL text[]):
 * whether a match other than those is still to be played, the rounds of its group with the fewest so
 * far (swiss pairs them one at a time), and the other stages of its event not completed.
 */
const openStageMatches = (stage: string, reported: string) => `
  SELECT EXISTS (SELECT 1 FROM "Match" WHERE "stageId" = ${stage} AND status IN ('scheduled', 'live') AND NOT (id = ANY(${reported}))) AS open,
         (SELECT COALESCE(min(n), 0)::int FROM (SELECT count(*) AS n FROM "Round" WHERE "eventId" = s."eventId" AND "stageId" = ${stage} GROUP BY "groupId") g) AS rounds,
         (SELECT count(*)::int FROM "Stage" o WHERE o."eventId" = s."eventId" AND o.id <> ${stage} AND o.status <> 'completed') AS "otherStages"
  FROM "Stage" s WHERE s.id = ${stage}`;

/** openStageMatches of stage $1 beside a report of matches $2. */
export const OPEN_STAGE_MATCHES_SQL = openStageMatches('$1', '$2::text[]');

/** Stage $1 completes ($2 completed) or is reopened by a correction ($2 running). */
export const SET_STAGE_STATUS_SQL = `UPDATE "Stage" SET status = $2 WHERE id = $1 AND status <> 'pending'`;

/** A match of a stage as its standings read it: the result, and where it sits in a bracket. */
const STANDINGS_MATCH = WIRE.match.pick('id', 'groupId', 'status', 'participantAId', 'participantBId', 'scoreA', 'scoreB', 'forfeit', 'isFreeWin', 'opponents');
const STANDINGS_MATCH_PLACE = WIRE.match.pick('winnerToMatchId', 'loserToMatchId');
export type StandingsMatchRow = Omit<RowOf<typeof STANDINGS_MATCH>, 'opponents'> & {
  opponents: z.output<typeof ffaOpponentView>[] | null;
} & /** Absent where STANDINGS_MATCHES_SQL.resultsOnly read the row (formats without brackets or rounds). */ Partial<
    RowOf<typeof STANDINGS_MATCH_PLACE> & { bracket: string | null; roundNumber: number | null }
  >;

/**
 * The matches of stage $2 (of event $1) in groups $3 (null: every match of the stage), with their
 * round: all of them, or ($4) only the completed ones and matches $5 (those a report is changing).
 */
export const STANDINGS_MATCHES_SQL = {
  /** Elimination and swiss stages: where each match sits (bracket, round) counts. */
  withRounds: `
  SELECT ${STANDINGS_MATCH.columns}, r.bracket, r.number AS "roundNumber", ${STANDINGS_MATCH_PLACE.columns}
  FROM "Match" m LEFT JOIN "Round" r ON r.id = m."roundId"
  WHERE m."eventId" = $1 AND m."stageId" = $2 AND ($3::text[] IS NULL OR m."groupId" = ANY($3::text[]))
    AND (NOT $4::boolean OR m.status = 'completed' OR m.id = ANY($5::text[]))`,
  /** The other formats: the results alone (the fewer columns, the less a report of a big league reads). */
  resultsOnly: `
  SELECT ${STANDINGS_MATCH.columns}
  FROM "Match" m
  WHERE m."eventId" = $1 AND m."stageId" = $2 AND ($3::text[] IS NULL OR m."groupId" = ANY($3::text[]))
    AND (NOT $4::boolean OR m.status = 'completed' OR m.id = ANY($5::text[]))`,
};

/** A stored standing's columns in the order the reads list them (STORED_STANDINGS_SQL, REPORT_INPUTS_SQL's arrays). */
const STORED_STANDING_COLUMNS = [
  'id', 'groupId', 'participantId', 'rank', 'seed', 'played', 'wins', 'draws', 'losses', 'points',
  'scoreFor', 'scoreAgainst', 'scoreDifference', 'adjustmentPoints', 'tiebreakers', 'qualified',
] as const;
const STORED_STANDING = WIRE.standing.pick(...STORED_STANDING_COLUMNS);

/** A standing as stored: its seed is null on standings entered by hand. */
export type StoredStandingRow = Omit<RowOf<typeof STORED_STANDING>, 'tiebreakers'> & {
  /** The stage's tiebreakers in order (jsonb keeps no key order). */
  tiebreakers: { name: string; value: number }[];
};
const quoted = (column: string) => `"${column}"`;

/** A stored standing from its values in STORED_STANDING_COLUMNS order, the tiebreakers as JSON text (REPORT_INPUTS_SQL). */
export function storedStandingOf(values: readonly unknown[]): StoredStandingRow {
  const row: Record<string, unknown> = {};
  STORED_STANDING_COLUMNS.forEach((column, i) => (row[column] = column === 'tiebreakers' ? JSON.parse(values[i] as string) : values[i]));
  return row as StoredStandingRow;
}

export const STORED_STANDINGS_SQL = `
  SELECT ${STORED_STANDING.columns}
  FROM "Standing" s WHERE s."eventId" = $1 AND s."stageId" = $2 AND ($3::text[] IS NULL OR s."groupId" = ANY($3::text[]))`;

/**
 * What the report of match $1 of event $2 moves its standings by, read beside the plan's read of the
 * match (progress.ts, prefetchReportInputs) and so before the match is known to be the event's:
 * nothing of another event is read. When it is a generated duel of a running round robin or league:
 * the stage's stored standings, openStageMatches beside it, and the completed matches its
 * participants played in the stage; no row otherwise. Rows come as JSON arrays of values, the
 * tiebreakers as text: PostgreSQL writes those several times faster than objects and nested jsonb,
 * and this read is most of what a report adds to a plain one (progress.ts).
 */
export const REPORT_INPUTS_SQL = `
  WITH r AS (
    SELECT m.id, m."eventId", m."stageId", m."participantAId" AS a, m."participantBId" AS b
    FROM "Match" m JOIN "Stage" s ON s.id = m."stageId"
    WHERE m.id = $1 AND m."eventId" = $2 AND m.position IS NOT NULL AND m.opponents IS NULL AND s.status = 'running' AND s.format IN ('round_robin', 'league'))
  SELECT
    (SELECT COALESCE(json_agg(json_build_array(${STORED_STANDING_COLUMNS.map((column) => (column === 'tiebreakers' ? 'tiebreakers::text' : quoted(column))).join(', ')})), '[]')
     FROM "Standing" WHERE "eventId" = r."eventId" AND "stageId" = r."stageId") AS stored,
    (SELECT COALESCE(json_agg(json_build_array("participantAId", "participantBId", "scoreA", "scoreB", forfeit, "isFreeWin")), '[]')
     FROM "Match" WHERE ("participantAId" IN (r.a, r.b) OR "participantBId" IN (r.a, r.b)) AND "stageId" = r."stageId" AND status = 'completed' AND id <> r.id) AS "theirMatches",
    o.open, o.rounds, o."otherStages"
  FROM r, LATERAL (${openStageMatches('r."stageId"', 'ARRAY[r.id]')}) o`;

/** Each participant's adjustment points in stage $2 of event $1. */
export const STAGE_ADJUSTMENTS_SQL = `
  SELECT "participantId", SUM(points)::int AS points FROM "StandingAdjustment" WHERE "eventId" = $1 AND "stageId" = $2 GROUP BY "participantId"`;

/**
 * Standings of stage $2 (event $1) written in one statement: rows with a stored id are updated, new
 * ids inserted. The rows come as one JSON array ($3, StoredStandingRow objects): serialised natively
 * rather than as fifteen array parameters escaped element by element.
 */
export const UPSERT_STANDINGS_SQL = `
  INSERT INTO "Standing" (id, "eventId", "stageId", "groupId", "participantId", rank, seed, played, wins, draws, losses, points,
    "scoreFor", "scoreAgainst", "scoreDifference", "adjustmentPoints", tiebreakers, qualified)
  SELECT u.id, $1, $2, u."groupId", u."participantId", u.rank, u.seed, u.played, u.wins, u.draws, u.losses, u.points,
    u."scoreFor", u."scoreAgainst", u."scoreFor" - u."scoreAgainst", u."adjustmentPoints", u.tiebreakers, u.qualified
  FROM json_to_recordset($3::json) AS u(id text, "groupId" text, "participantId" text, rank int, seed int, played int, wins int, draws int, losses int,
    points int, "scoreFor" int, "scoreAgainst" int, "adjustmentPoints" int, tiebreakers jsonb, qualified boolean)
  ON CONFLICT (id) DO UPDATE SET rank = excluded.rank, seed = excluded.seed, played = excluded.played, wins = excluded.wins, draws = excluded.draws,
    losses = excluded.losses, points = excluded.points, "scoreFor" = excluded."scoreFor", "scoreAgainst" = excluded."scoreAgainst",
    "scoreDifference" = excluded."scoreDifference", "adjustmentPoints" = excluded."adjustmentPoints", tiebreakers = excluded.tiebreakers, qualified = excluded.qualified`;

export const DELETE_STANDINGS_SQL = `DELETE FROM "Standing" WHERE id = ANY($1::text[])`;

/** A stored standing as reads answer it, with its participant's team. */
export type StandingReadRow = StoredStandingRow &
  RowOf<typeof STANDING_READ> & {
    teamName: string;
    teamLogoUrl: string | null;
  };
const STANDING_READ = WIRE.standing.pick('eventId', 'stageId');

/** The keyset order of standings: stage (by position), group position, rank, seed (ties), participant. */
const STANDING_ORDER_KEY = `st.position, s."stageId", COALESCE(g.position, 0), s.rank, COALESCE(s.seed, 0), s."participantId"`;

/**
 * A page of event $1's standings, of one stage and one group when those filters are on (their values
 * next, in that order), in rank order: one indexed read.
 */
export const standingPageStatement = pageStatements<{ stage: boolean; group: boolean; after: boolean }>((filters, rows) => {
  let at = 2;
  const stage = filters.stage ? ` AND s."stageId" = $${at++}` : '';
  const group = filters.group ? ` AND s."groupId" = $${at++}` : '';
  const after = filters.after ? ` AND (${STANDING_ORDER_KEY}) > ($${at}::int, $${at + 1}::text, $${at + 2}::int, $${at + 3}::int, $${at + 4}::int, $${at + 5}::text)` : '';
  return `
  SELECT ${STORED_STANDING.columns}, ${STANDING_READ.columns}, COALESCE(g.position, 0) AS "orderGroup",
         st.position AS "orderStage", t.name AS "teamName", t."logoUrl" AS "teamLogoUrl"
  FROM "Standing" s JOIN "Stage" st ON st.id = s."stageId" LEFT JOIN "Group" g ON g.id = s."groupId"
  JOIN "Participant" p ON p.id = s."participantId" JOIN "Team" t ON t.id = p."teamId"
  WHERE s."eventId" = $1${stage}${group}${after}
  ORDER BY ${STANDING_ORDER_KEY} LIMIT ${rows}`;
});
