// The SQL of overlay tokens: issuing one for an event, one issuance of an event at a time.
// Named prepared statements on the driver (ctx.sql) and statements of the event-write transaction
// (ctx.transaction); timestamps are stored in UTC without a zone and read as ISO 8601 text.

import { NOW } from '../../../platform/db/sql-fragments.ts';

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

