// Matches of an event as viewers and overlays read them: a page, or one match, is one statement
// with both sides' teams and the maps played, so a page costs the same at 100 matches as at 100,000.
import type { SubgraphContext } from '../shared/context.ts';
import { validationFailed } from '../shared/errors.ts';
import { timestampIssue } from '../shared/input-safety.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../shared/pagination.ts';
import { MATCH_SQL, matchPageStatement, type MatchRow } from './statements.ts';

export type { MatchRow };

export interface MatchFilters {
  cursor?: string | null;
  limit?: number | null;
  stageId?: string | null;
  groupId?: string | null;
  roundId?: string | null;
  status?: string | null;
}

export async function matchPage(ctx: SubgraphContext, eventId: string, args: MatchFilters): Promise<Page<MatchRow>> {
  const limit = pageLimit(args.limit);
  const binding = `matches|${eventId}|${args.stageId ?? ''}|${args.groupId ?? ''}|${args.roundId ?? ''}|${args.status ?? ''}`;
  const after = decodeCursor(binding, args.cursor);
  if (after && (after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string' || timestampIssue(new Date(after[0])) !== null)) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const params: unknown[] = [eventId];
  for (const value of [args.stageId, args.groupId, args.roundId, args.status]) if (value) params.push(value);
  if (after) params.push(after[0], after[1]);
  const filters = { stage: Boolean(args.stageId), group: Boolean(args.groupId), round: Boolean(args.roundId), status: Boolean(args.status), after: Boolean(after) };
  const rows = await ctx.sql<MatchRow>(matchPageStatement(filters, limit + 1), params);
  return pageOf(rows, limit, binding, (row) => [row.createdAt, row.id], (row) => row);
}

/** A match of the event, or null. */
export async function eventMatch(ctx: SubgraphContext, eventId: string, matchId: string): Promise<MatchRow | null> {
  const [row] = await ctx.sql<MatchRow>(MATCH_SQL, [eventId, matchId]);
  return row ?? null;
}
