// GET /api/v2/organisations/{organisationId}/events: creation order, keyset pages, filters, and a
// strong ETag from the organisation's latest change, so a 304 costs no page query.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { installationFor } from '../../../platform/domain/authority.ts';
import { forbidden, validationFailed } from '../../../platform/api/errors.ts';
import { timestampIssue } from '../../../platform/api/input-safety.ts';
import { decodeCursor, pageLimit, pageOf } from '../../../platform/api/pagination.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import { EVENT_STATES, EVENT_VISIBILITIES } from '../../../platform/domain/competition-vocabulary.ts';
import type { Event } from '../../../platform/db/generated/client.ts';
import { LATEST_CHANGE_SQL, eventPageStatement, toEvent, type EventRow } from './statements.ts';

// The collection version is the organisation's latest change-log entry: every write to one of its
// events appends one in the write's transaction, and no row is shared by writers.

export interface EventListArgs {
  organisationId: string;
  cursor?: string | null;
  limit?: number | null;
  visibility?: string | null;
  state?: string | null;
  ifNoneMatch?: string | null;
}


function checkFilter(field: string, value: string | null | undefined, allowed: readonly string[]) {
  if (value != null && !allowed.includes(value)) {
    throw validationFailed(`${field} must be one of ${allowed.join(', ')}.`, [{ field, issue: `must be one of ${allowed.join(', ')}` }]);
  }
}

export async function listOrganisationEvents(ctx: SubgraphContext, args: EventListArgs): Promise<ConditionalPage<Event>> {
  const authority = await ctx.authority();
  // No installation also answers an unknown organisation: nothing tells the two apart.
  return organisationEventsPage(ctx, args, async () => {
    if (!(await installationFor(ctx.loaders, authority.applicationId, 'organisation', args.organisationId))) {
      throw forbidden('The application has no active installation on this organisation.', 'missing_installation');
    }
  });
}

/**
 * A page of an organisation's events once `admit` (run beside the ETag's read) has let the caller
 * see the organisation: v2 checks the application's installation, v1 the organisation's API key.
 */
export async function organisationEventsPage(ctx: SubgraphContext, args: EventListArgs, admit: () => Promise<void>): Promise<ConditionalPage<Event>> {
  checkFilter('visibility', args.visibility, EVENT_VISIBILITIES);
  checkFilter('state', args.state, EVENT_STATES);
  const limit = pageLimit(args.limit);
  const binding = `events|${args.organisationId}|${args.visibility ?? ''}|${args.state ?? ''}`;
  const after = decodeCursor(binding, args.cursor);
  if (after && (typeof after[0] !== 'string' || typeof after[1] !== 'string' || timestampIssue(new Date(after[0])) !== null)) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const [, [latest]] = await Promise.all([admit(), ctx.sql<{ sequence: string | null }>(LATEST_CHANGE_SQL, [args.organisationId])]);
  const etag = pageEtag('ev', latest?.sequence ?? 0, binding, args.cursor ?? '', limit);
  if (matchesIfNoneMatch(args.ifNoneMatch, etag)) return { etag, notModified: true };
  const filters = { visibility: Boolean(args.visibility), state: Boolean(args.state), after: Boolean(after) };
  const params: unknown[] = [args.organisationId];
  if (args.visibility) params.push(args.visibility);
  if (args.state) params.push(args.state);
  if (after) params.push(after[0], after[1]);
  const rows = await ctx.sql<EventRow>(eventPageStatement(filters, limit + 1), params);
  const page = pageOf(rows, limit, binding, (row) => [row.createdAt, row.id], toEvent);
  return { etag, notModified: false, ...page };
}
