// The SQL of events: the hot reads of an organisation's events and of one event, and the statements
// of the event-write transaction (event-write.ts) that change an event and what it holds directly:
// its state, its map pool and veto, invitations, participants, lineups, playday staff.
// Named prepared statements on the driver (ctx.sql) and statements of the event-write transaction
// (ctx.transaction); timestamps are stored in UTC without a zone and read as ISO 8601 text.

import type { Event } from '../../../platform/db/generated/client.ts';
import { failWith } from '../../../platform/db/guards.ts';
import { WIRE } from '../../../platform/db/wire-models.ts';
import type { WireRow } from '../../../platform/db/wire-rows.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import type { ChangeType } from '../../../platform/domain/change-catalogue.ts';
import { CHANGE_LOG_INSERT } from '../../../platform/domain/change-log.ts';
import { pageStatements } from '../../../platform/db/page-statements.ts';

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

/** Moves the events' revisions ($1) on by one (their change-log rows follow, platform/domain/change-log.ts). */
export const BUMP_REVISIONS_SQL = `UPDATE "Event" SET revision = revision + 1, "updatedAt" = ${NOW} WHERE id = ANY($1::text[])`;

export const PUBLISH_EVENT_SQL = `UPDATE "Event" SET state = 'scheduled' WHERE id = $1`;

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

/** Event $1's state becomes $2 (live, or completed with its completion time, which live clears). */
export const SET_EVENT_STATE_SQL = `
  UPDATE "Event" SET state = $2, "completedAt" = CASE WHEN $2 = 'completed' THEN ${NOW} END, "updatedAt" = ${NOW}
  WHERE id = $1`;
