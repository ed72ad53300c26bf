// Appending to the change log: the one module that writes its rows and wakes the feed's followers,
// for every subgraph. A writer whose rows are known in Node appends them with appendChanges; one
// whose rows only SQL can tell (a row that exists only if a reaction was added, a slug chosen under a
// lock) writes `${CHANGE_LOG_INSERT} SELECT …` with the columns in CHANGE_LOG_INSERT's order and puts
// NOTIFY_CHANGES after it. Either way the statements go into the writer's own transaction, so a
// change is in the log exactly when what it describes committed. test/database-rules.test.ts fails on a
// change-log insert or a change-feed NOTIFY written anywhere else.
import { randomUUID } from 'node:crypto';
import type { SqlStatement } from '../db/database.ts';
import { NOW } from '../db/sql-fragments.ts';
import { CHANGE_FEED_CHANNEL, type FeedChange } from './change-feed.ts';
import type { ChangeDetails, ChangeType } from './change-catalogue.ts';

/**
 * A change about to be appended: a feed change's own facts (organisation and event null for changes
 * tied to neither, revision null but for event changes; the payload is its type's `details`, typed by
 * its schema in the catalogue, plus eventId and revision for event changes), and optionally a chosen
 * id (an import names its change after itself; otherwise a new chg_ id).
 */
export type NewChange<T extends ChangeType = ChangeType> = {
  [K in T]: Pick<FeedChange, 'organisationId' | 'eventId' | 'resourceType' | 'resourceId' | 'revision'> & {
    type: K;
    id?: string;
    payload: ChangeDetails<K> & { eventId?: string; revision?: number };
  };
}[T];

/**
 * The head of an insert into the change log, for a `SELECT` of, in this order: id, type,
 * organisationId, eventId, resourceType, resourceId, revision (int or NULL), payload (jsonb), createdAt
 * (${NOW}).
 */
export const CHANGE_LOG_INSERT = `INSERT INTO "ChangeLog" (id, type, "organisationId", "eventId", "resourceType", "resourceId", revision, payload, "createdAt")`;

/** Sent in a writing transaction: followers wake when it commits (a notification inside one is sent once). */
export const NOTIFY_CHANGES: SqlStatement = { text: `SELECT pg_notify('${CHANGE_FEED_CHANNEL}', '')`, values: [] };

const APPEND_SQL = `
  ${CHANGE_LOG_INSERT}
  SELECT c.id, c.type, c.organisation, c.event, c."resourceType", c."resourceId", c.revision, c.payload::jsonb, ${NOW}
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[])
       WITH ORDINALITY AS c(id, type, organisation, event, "resourceType", "resourceId", revision, payload, n)
  ORDER BY c.n`;

export const newChangeId = () => `chg_${randomUUID().replace(/-/g, '')}`;

/** The statements that append `changes`, in order, and wake the feed's followers at commit; none for none. */
export function appendChanges(changes: readonly NewChange[]): SqlStatement[] {
  if (!changes.length) return [];
  const column = <T>(pick: (change: NewChange) => T) => changes.map(pick);
  return [
    {
      text: APPEND_SQL,
      values: [
        column((change) => change.id ?? newChangeId()),
        column((change) => change.type),
        column((change) => change.organisationId),
        column((change) => change.eventId),
        column((change) => change.resourceType),
        column((change) => change.resourceId),
        column((change) => change.revision),
        column((change) => JSON.stringify(change.payload)),
      ],
    },
    NOTIFY_CHANGES,
  ];
}
