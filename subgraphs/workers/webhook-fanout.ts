// Fan-out: each change of the feed becomes one delivery per active endpoint subscribed to its type
// whose application is installed (actively) on the change's event or organisation; that
// installation is the delivery's. Changes tied to neither go, through the application's first active
// installation, by the audience the change catalogue gives their type: to every application
// (platform: public reference data such as maps), to those whose owner holds esports_data, or to the
// application a change is about (its owner transfers). The feed position is kept in
// ChangeFeedPosition and moved in the same transaction as the deliveries it produced, by compare and
// set, so any number of workers may run this: one wins each batch, the others read again.
import type { Database } from '../../platform/db/database.ts';
import { failWith, guardFailure } from '../../platform/db/guards.ts';
import { NOW } from '../../platform/db/sql-fragments.ts';
import { headPosition, readChanges, type FeedChange, type FeedPosition } from '../../platform/domain/change-feed.ts';
import { typesFor } from '../../platform/domain/change-catalogue.ts';
import { NOTIFY_DELIVERIES } from '../developer/webhooks/delivery-log.ts';

/** Catalogue names as an SQL list (the catalogue's own constants: no quoting needed beyond this); NULL for none, which matches nothing. */
const sqlList = (types: readonly string[]) => (types.length ? types.map((type) => `'${type}'`).join(', ') : 'NULL');

export const FANOUT_CONSUMER = 'webhooks';

const POSITION_SQL = `SELECT xid::text AS xid, sequence::text AS sequence FROM "ChangeFeedPosition" WHERE name = $1`;
const START_SQL = `INSERT INTO "ChangeFeedPosition" (name, xid, sequence, "updatedAt") VALUES ($1, $2::xid8, $3, ${NOW}) ON CONFLICT (name) DO NOTHING`;

const MOVE_SQL = `
  WITH moved AS (
    UPDATE "ChangeFeedPosition" SET xid = $4::xid8, sequence = $5, "updatedAt" = ${NOW}
    WHERE name = $1 AND xid = $2::xid8 AND sequence = $3
    RETURNING 1)
  SELECT CASE WHEN count(*) = 0 THEN ${failWith('moved', 'count(*)')} END AS guard FROM moved`;

const DELIVERIES_SQL = `
  INSERT INTO "WebhookDelivery" (id, "applicationId", "installationId", "endpointId", "eventId", "eventType", "changeId", payload, status, "nextAttemptAt", "createdAt", "updatedAt")
  SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), e."applicationId", r.id, e.id, c.id, c.type, c.id, c.payload::jsonb, 'pending', ${NOW}, ${NOW}, ${NOW}
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS c(id, type, org, event, payload, rtype, rid)
  JOIN "WebhookEndpoint" e ON e.status = 'active' AND c.type = ANY(e."subscribedEvents")
    -- A change to an application (its owner transfers) is the business of that application alone.
    AND (c.type NOT IN (${sqlList(typesFor('application'))}) OR e."applicationId" = c.rid)
  CROSS JOIN LATERAL (
    SELECT i.id FROM "Installation" i
    WHERE i."applicationId" = e."applicationId" AND i.status = 'active'
      AND ((i."targetType" = 'event' AND i."targetId" = c.event)
        OR (i."targetType" = 'organisation' AND i."targetId" = c.org)
        OR (c.org IS NULL AND c.event IS NULL AND c.type IN (${sqlList([...typesFor('platform'), ...typesFor('application')])}))
        OR (c.org IS NULL AND c.event IS NULL AND c.type IN (${sqlList(typesFor('esports_data'))}) AND EXISTS (
              SELECT 1 FROM "Application" a JOIN "Entitlement" en ON en."ownerType" = a."ownerType" AND en."ownerId" = a."ownerId"
              WHERE a.id = e."applicationId" AND en.name = 'esports_data' AND (en."expiresAt" IS NULL OR en."expiresAt" > ${NOW}))))
    ORDER BY (i."targetType" = 'event') DESC, i.id
    LIMIT 1) r
  ON CONFLICT ("endpointId", "changeId") DO NOTHING`;

/** The body of a delivery of this change. */
export function deliveryBody(change: FeedChange): Record<string, unknown> {
  const { eventId: _eventId, revision: _revision, ...details } = change.payload;
  return {
    type: change.type,
    timestamp: change.createdAt,
    data: {
      changeId: change.id,
      organisationId: change.organisationId,
      eventId: change.eventId,
      resourceType: change.resourceType,
      resourceId: change.resourceId,
      revision: change.revision,
      details,
    },
  };
}

/** Where fan-out stands; the first call starts it at the head of the feed (nothing older is delivered). */
async function position(db: Database): Promise<FeedPosition> {
  const [row] = await db.sql<FeedPosition>(POSITION_SQL, [FANOUT_CONSUMER]);
  if (row) return row;
  const head = await headPosition(db.sql);
  await db.sql(START_SQL, [FANOUT_CONSUMER, head.xid, head.sequence]);
  const [started] = await db.sql<FeedPosition>(POSITION_SQL, [FANOUT_CONSUMER]);
  return started;
}

/** Starts fan-out at the head of the feed if it has never run. */
export const startFanOut = (db: Database) => position(db).then(() => undefined);

/** Fans out what the feed holds after the stored position; answers how many changes it took. */
export async function fanOut(db: Database, batch = 500): Promise<number> {
  let taken = 0;
  for (;;) {
    const from = await position(db);
    const changes = await readChanges(db.sql, from, batch);
    if (!changes.length) return taken;
    const to = changes[changes.length - 1].position;
    const column = (pick: (change: FeedChange) => string | null) => changes.map(pick);
    try {
      await db.transaction([
        { text: MOVE_SQL, values: [FANOUT_CONSUMER, from.xid, from.sequence, to.xid, to.sequence] },
        {
          text: DELIVERIES_SQL,
          values: [
            column((c) => c.id),
            column((c) => c.type),
            column((c) => c.organisationId),
            column((c) => c.eventId),
            column((c) => JSON.stringify(deliveryBody(c))),
            column((c) => c.resourceType),
            column((c) => c.resourceId),
          ],
        },
        NOTIFY_DELIVERIES,
      ]);
      taken += changes.length;
    } catch (error) {
      // Another worker took this batch first: read on from where it left the position.
      if (guardFailure(error)?.check !== 'moved') throw error;
    }
    if (changes.length < batch) return taken;
  }
}
