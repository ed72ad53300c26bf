// The competitions subgraph's own SQL, run as named prepared statements on the driver: the hot read
// paths (ctx.sql), with the row types they return, and the statements of the event-write transaction
// (ctx.transaction). Everything else goes through Prisma's model API.
// Timestamps are stored in UTC without a zone and read as ISO 8601 text, so no driver time zone applies.

import type { Event, Match } from '../kernel/db/generated/client.ts';
import { failWith } from '../kernel/db/guards.ts';
import { WIRE } from '../kernel/db/wire-models.ts';
import type { RowOf, WireRow } from '../kernel/db/wire-rows.ts';
import { NOW } from '../kernel/db/sql-fragments.ts';
import { BRACKET_ORDER } from './tournament/types.ts';
import type { ChangeType } from '../kernel/change-catalogue.ts';
import { CHANGE_LOG_INSERT } from '../kernel/change-log.ts';

/**
 * Statement texts of a paged read, built once per combination of filters and page size. The row count
 * is written into the text: a prepared statement's generic plan guesses an unknown LIMIT at a tenth of
 * the table and would sort 100,000 rows where the index range reads 21 (measured: 5 against 800 requests/s).
 */
function pageStatements<F extends Record<string, boolean>>(build: (filters: F, rows: number) => string) {
  const texts = new Map<string, string>();
  return (filters: F, rows: number): string => {
    if (!Number.isInteger(rows) || rows < 1 || rows > 101) throw new Error(`page of ${rows} rows`);
    const key = `${Object.keys(filters).sort().map((name) => `${name}=${Number(filters[name])}`).join(',')}:${rows}`;
    let text = texts.get(key);
    if (!text) {
      text = build(filters, rows);
      texts.set(key, text);
    }
    return text;
  };
}

/** The collection version of an organisation's events: its latest change-log entry (a backward index scan). */
export const LATEST_CHANGE_SQL = `SELECT max(sequence)::text AS sequence FROM "ChangeLog" WHERE "organisationId" = $1`;

/** An Event as driver statements read it (EVENT_COLUMNS), every scalar column, timestamps as ISO text. */
export type EventRow = WireRow<Event>;
/** The Event model from its row, so that rows read here serve wherever Prisma's would. */
export const toEvent = WIRE.event.modelOf;
const EVENT_COLUMNS = WIRE.event.columns;

/**
 * A page of an organisation's events in creation order: $1 organisation, then the filters given and
 * the cursor's (createdAt, id).
 */
export const eventPageStatement = pageStatements<{ visibility: boolean; state: boolean; after: boolean }>((filters, rows) => {
  const conditions = ['e."organisationId" = $1'];
  let next = 2;
  if (filters.visibility) conditions.push(`e.visibility = $${next++}`);
  if (filters.state) conditions.push(`e.state = $${next++}`);
  if (filters.after) conditions.push(`(e."createdAt", e.id) > ($${next++}::timestamp, $${next++}::text)`);
  // Ordered by the table's columns (e."createdAt"), not by the ISO text selected under the same name.
  return `SELECT ${EVENT_COLUMNS} FROM "Event" e WHERE ${conditions.join(' AND ')} ORDER BY e."createdAt", e.id LIMIT ${rows}`;
});

/**
 * Events with the application's active installation that reaches each (one on the event itself
 * before one on its organisation), in one round trip: $1 event ids, $2 application.
 */
export const READABLE_EVENTS_SQL = `
  SELECT ${EVENT_COLUMNS},
         (SELECT i.id FROM "Installation" i
          WHERE i."applicationId" = $2 AND i.status = 'active'
            AND ((i."targetType" = 'event' AND i."targetId" = e.id) OR (i."targetType" = 'organisation' AND i."targetId" = e."organisationId"))
          ORDER BY i."targetType" = 'event' DESC LIMIT 1) AS "installationId"
  FROM "Event" e WHERE e.id = ANY($1::text[])`;

/** An event by id, every column (toEvent). */
export const EVENT_SQL = `SELECT ${EVENT_COLUMNS} FROM "Event" e WHERE e.id = $1`;

/**
 * A match as v1 and GraphQL show it: the Match model's columns as the driver reads them (its JSON
 * columns in their stored shapes), both sides' teams joined, the maps played as a JSON array, the
 * round's number and bracket.
 */
export type MatchRow = Omit<WireRow<Match>, 'sourceA' | 'sourceB' | 'opponents'> & {
  sourceA: MatchSourceView | null;
  sourceB: MatchSourceView | null;
  opponents: { participantId: string; place: number | null; points: number | null }[] | null;
  teamAId: string | null;
  teamAName: string | null;
  teamALogoUrl: string | null;
  teamBId: string | null;
  teamBName: string | null;
  teamBLogoUrl: string | null;
  maps: { position: number; mapId: string; mapName: string; scoreA: number | null; scoreB: number | null; winner: string | null }[];
  roundNumber: number | null;
  bracket: string | null;
};

/** A slot's source as stored: a seed of the stage, or the winner or loser of another match. */
export type MatchSourceView = { type: 'seed'; seed: number } | { type: 'winner' | 'loser'; matchId: string };

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

// ── Writes ───────────────────────────────────────────────────────────────────
// Statements of the event-write transaction (event-write.ts), run after the event is locked. Rows
// written here carry their timestamps in UTC like Prisma's.


/** The event as a write plans against it. */
export const EVENT_STATE_SQL = `SELECT id, "organisationId", state, revision FROM "Event" WHERE id = $1`;

/**
 * Locks the event ($1) and fails guard `not_found`, `revision` (it is not at If-Match's $2; null
 * checks nothing) or `stale` (not at $3, the revision the write was planned at) with its current revision.
 */
export const LOCK_EVENT_SQL = `
  SELECT CASE
           WHEN e.revision IS NULL THEN ${failWith('not_found', 'coalesce(e.revision, 0)')}
           WHEN e.revision <> $2 THEN ${failWith('revision', 'e.revision')}
           WHEN e.revision <> $3 THEN ${failWith('stale', 'e.revision')}
         END AS guard
  FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT revision FROM "Event" WHERE id = $1 FOR UPDATE) e ON true`;

/** Moves the events' revisions ($1) on by one (their change-log rows follow, kernel/change-log.ts). */
export const BUMP_REVISIONS_SQL = `UPDATE "Event" SET revision = revision + 1, "updatedAt" = ${NOW} WHERE id = ANY($1::text[])`;

export const PUBLISH_EVENT_SQL = `UPDATE "Event" SET state = 'scheduled' WHERE id = $1`;

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

export const SET_FIRST_STAGE_SQL = `UPDATE "Event" SET "firstStageId" = $2 WHERE id = $1 AND "firstStageId" IS NULL`;

export const REPLACE_MAP_POOL_SQL = [
  `DELETE FROM "EventMapPool" WHERE "eventId" = $1`,
  `INSERT INTO "EventMapPool" ("eventId", "mapId", position) SELECT $1, m.id, m.n FROM unnest($2::text[]) WITH ORDINALITY AS m(id, n)`,
] as const;

export const REPLACE_VETO_CONFIGURATIONS_SQL = [
  `DELETE FROM "VetoConfiguration" WHERE "eventId" = $1`,
  `INSERT INTO "VetoConfiguration" ("eventId", "bestOf", steps) SELECT $1, v."bestOf", v.steps::jsonb FROM unnest($2::int[], $3::text[]) AS v("bestOf", steps)`,
] as const;

export const INSERT_INVITATION_SQL = `
  INSERT INTO "Invitation" (id, "eventId", "teamId", "stageId", "groupId", message, status, "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, 'pending', ${NOW})`;

export const INSERT_STANDING_ADJUSTMENT_SQL = `
  INSERT INTO "StandingAdjustment" (id, "eventId", "stageId", "groupId", "participantId", points, reason, "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, ${NOW})`;

/** A standing entered by hand (a stage the platform did not start): the adjustment adds to it. */
export const ADD_STANDING_POINTS_SQL = `UPDATE "Standing" SET points = points + $2, "adjustmentPoints" = "adjustmentPoints" + $2 WHERE id = $1`;

export const UPDATE_PARTICIPANT_SQL = {
  status: `UPDATE "Participant" SET status = $2, "updatedAt" = ${NOW} WHERE id = $1`,
  selected_groups: `UPDATE "Participant" SET "selectedGroupIds" = $2::text[], "updatedAt" = ${NOW} WHERE id = $1`,
  signup_answers: `UPDATE "Participant" SET "signupAnswers" = $2::jsonb, "updatedAt" = ${NOW} WHERE id = $1`,
} as const;

export const DELETE_PARTICIPANT_SQL = `DELETE FROM "Participant" WHERE id = $1`;

export const LINEUP_SQL = {
  remove: `DELETE FROM "LineupMember" WHERE "participantId" = $1 AND "userId" = $2`,
  setRole: `UPDATE "LineupMember" SET role = $3 WHERE "participantId" = $1 AND "userId" = $2`,
  put: `INSERT INTO "LineupMember" ("participantId", "userId", role, "createdAt") VALUES ($1, $2, $3, ${NOW})
        ON CONFLICT ("participantId", "userId") DO UPDATE SET role = EXCLUDED.role`,
} as const;

export const REPLACE_PLAYDAY_STAFF_SQL = [
  `DELETE FROM "PlaydayStaff" WHERE "playdayId" = $1`,
  `INSERT INTO "PlaydayStaff" ("playdayId", "userId", role) SELECT $1, s."userId", s.role FROM unnest($2::text[], $3::text[]) AS s("userId", role)`,
] as const;

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

// ── Organiser writes (organiser-writes.ts) ───────────────────────────────────

/**
 * Locks the organisation ($1): event creations and slug changes in one organisation take their turn,
 * so that each sees the slugs the others committed. NO KEY: the foreign-key checks of rows that
 * reference the organisation (members, API keys, the new event itself) do not wait for it.
 */
export const LOCK_ORGANISATION_SQL = `SELECT id FROM "Organisation" WHERE id = $1 FOR NO KEY UPDATE`;

/** Fails guard `slug_taken` when another event ($3 is not another) of organisation $1 has slug $2. */
export const SLUG_FREE_SQL = `
  SELECT CASE WHEN count(*) > 0 THEN ${failWith('slug_taken', 'count(*)')} END AS guard
  FROM "Event" WHERE "organisationId" = $1 AND slug = $2 AND id <> $3`;

/**
 * A draft event ($1) of organisation $2 at revision 1, and its event.created change-log row ($15).
 * The slug is $3 as sent ($4 false), or the first free one of $3, $3-2, $3-3, … ($4 true; $5 is a
 * last resort); it is chosen under the organisation's lock. It writes its change-log row itself rather
 * than through appendChanges: the row's payload holds the slug chosen here, in SQL.
 */
export const INSERT_EVENT_SQL = `
  WITH candidates AS (
    SELECT $3::text AS slug, 1 AS n
    UNION ALL
    SELECT rtrim(left($3::text, 79 - length(g::text)), '-') || '-' || g, g FROM generate_series(2, 999) g WHERE $4::boolean
    UNION ALL
    SELECT rtrim(left($3::text, 59), '-') || '-' || $5::text, 1000 WHERE $4::boolean
  ), chosen AS (
    SELECT c.slug FROM candidates c
    WHERE NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."organisationId" = $2 AND e.slug = c.slug)
    ORDER BY c.n LIMIT 1
  ), created AS (
    INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, region, game, timezone,
                         "startsAt", "endsAt", revision, "createdAt", "updatedAt")
    SELECT $1, $2, $6, chosen.slug, $7, $8, $9, $10, $11, NULL, $12, $13, $14::timestamp, $16::timestamp, 1, ${NOW}, ${NOW} FROM chosen
    RETURNING id, "organisationId", name, slug, visibility, state
  )
  ${CHANGE_LOG_INSERT}
  SELECT $15, '${'event.created' satisfies ChangeType}', c."organisationId", c.id, 'event', c.id, 1,
         jsonb_build_object('eventId', c.id, 'revision', 1, 'name', c.name, 'slug', c.slug, 'state', c.state, 'visibility', c.visibility), ${NOW}
  FROM created c`;

/** Every column an event update may change, $2…$13, of event $1. */
export const UPDATE_EVENT_SQL = `
  UPDATE "Event" SET name = $2, slug = $3, description = $4, game = $5, timezone = $6, "startsAt" = $7::timestamp, "endsAt" = $8::timestamp,
    visibility = $9, "logoUrl" = $10, "bannerUrl" = $11, "primaryColor" = $12, "secondaryColor" = $13
  WHERE id = $1`;

/**
 * Registers team $3 in event $2 as participant $1 (status registered, selected groups $4), with the
 * team's members as its lineup (their team roles, the first ten by seniority).
 */
export const INSERT_PARTICIPANT_SQL = [
  `INSERT INTO "Participant" (id, "eventId", "teamId", status, "selectedGroupIds", "signupAnswers", "createdAt", "updatedAt")
   VALUES ($1, $2, $3, 'registered', $4::text[], '{}'::jsonb, ${NOW}, ${NOW})`,
  `INSERT INTO "LineupMember" ("participantId", "userId", role, "createdAt")
   SELECT $1, m."userId", m.role, ${NOW} FROM "TeamMember" m WHERE m."teamId" = $2 ORDER BY m."createdAt", m."userId" LIMIT 10`,
] as const;

/** Answers invitation $1: $2 accepted or declined. */
export const ANSWER_INVITATION_SQL = `UPDATE "Invitation" SET status = $2 WHERE id = $1 AND status = 'pending'`;

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

/** Event $1's state becomes $2 (live, or completed with its completion time, which live clears). */
export const SET_EVENT_STATE_SQL = `
  UPDATE "Event" SET state = $2, "completedAt" = CASE WHEN $2 = 'completed' THEN ${NOW} END, "updatedAt" = ${NOW}
  WHERE id = $1`;

// ── standings (stage-standings.ts) ───────────────────────────────────────────
/** A match of a stage as its standings read it: the result, and where it sits in a bracket. */
const STANDINGS_MATCH = WIRE.match.pick('id', 'groupId', 'status', 'participantAId', 'participantBId', 'scoreA', 'scoreB', 'forfeit', 'isFreeWin', 'opponents');
const STANDINGS_MATCH_PLACE = WIRE.match.pick('winnerToMatchId', 'loserToMatchId');
export type StandingsMatchRow = Omit<RowOf<typeof STANDINGS_MATCH>, 'opponents'> & {
  opponents: MatchRow['opponents'];
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
 * match (stage-progress.ts, prefetchReportInputs) and so before the match is known to be the event's:
 * nothing of another event is read. When it is a generated duel of a running round robin or league:
 * the stage's stored standings, openStageMatches beside it, and the completed matches its
 * participants played in the stage; no row otherwise. Rows come as JSON arrays of values, the
 * tiebreakers as text: PostgreSQL writes those several times faster than objects and nested jsonb,
 * and this read is most of what a report adds to a plain one (stage-progress.ts).
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

// ── overlay tokens (overlay-tokens.ts) ───────────────────────────────────────
/** Locks event $1 while a token is issued for it: issuances of one event count one after the other. */
export const LOCK_EVENT_FOR_TOKEN_SQL = `SELECT id FROM "Event" WHERE id = $1 FOR UPDATE`;

/**
 * Issues token $1 (organisation $2, event $3, label $4, prefix $5, hash $6, valid $7 seconds) unless
 * event $3 already holds $8 tokens that work: answers its id, or nothing.
 */
export const INSERT_OVERLAY_TOKEN_SQL = `
  INSERT INTO "OverlayToken" (id, "organisationId", "eventId", label, prefix, "tokenHash", "createdAt", "expiresAt")
  SELECT $1, $2, $3, $4, $5, $6, ${NOW}, ${NOW} + make_interval(secs => $7::int)
  WHERE (SELECT count(*) FROM "OverlayToken" WHERE "eventId" = $3 AND "revokedAt" IS NULL AND "expiresAt" > ${NOW}) < $8::int
  RETURNING id`;
