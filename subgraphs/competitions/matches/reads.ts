// Matches of an event as viewers and overlays read them: a page, or one match, is one statement
// with both sides' teams and the maps played, so a page costs the same at 100 matches as at 100,000.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { notFound, validationFailed } from '../../../platform/api/errors.ts';
import { timestampIssue } from '../../../platform/api/input-safety.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../../platform/api/pagination.ts';
import { readableEvent } from '../access.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import { MATCH_SQL, matchPageStatement, stageMatchPageStatement, type MatchRow } from './statements.ts';

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

export interface StageMatchArgs {
  eventId: string;
  stageId: string;
  cursor?: string | null;
  limit?: number | null;
  ifNoneMatch?: string | null;
}

/**
 * A stage's matches in bracket order (winners, losers, grand_final, third_place; then round number,
 * group position and position), as a conditional page: its ETag holds the event revision, which every
 * change to the stage's matches moves.
 */
export async function stageMatchPage(ctx: SubgraphContext, args: StageMatchArgs): Promise<ConditionalPage<MatchRow>> {
  const limit = pageLimit(args.limit);
  const event = await readableEvent(ctx, args.eventId);
  const binding = `stage-matches|${event.id}|${args.stageId}`;
  const after = decodeCursor(binding, args.cursor);
  if (
    after &&
    (after.length !== 6 || !after.slice(0, 4).every((value) => Number.isInteger(value)) || typeof after[4] !== 'string' || timestampIssue(new Date(after[4])) !== null || typeof after[5] !== 'string')
  ) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const etag = pageEtag('sm', event.revision, binding, args.cursor ?? '', limit);
  const stage = await ctx.loaders.stage.load(args.stageId);
  if (!stage || stage.eventId !== event.id) throw notFound('The stage');
  if (matchesIfNoneMatch(args.ifNoneMatch, etag)) return { etag, notModified: true };
  type Ordered = MatchRow & { orderRank: number; orderGroup: number };
  const rows = await ctx.sql<Ordered>(stageMatchPageStatement({ after: Boolean(after) }, limit + 1), [event.id, stage.id, ...(after ?? [])]);
  const page = pageOf(
    rows,
    limit,
    binding,
    (row) => [row.orderRank, row.roundNumber ?? 0, row.orderGroup, row.position ?? 0, row.createdAt, row.id],
    ({ orderRank: _rank, orderGroup: _group, ...row }) => row as MatchRow,
  );
  return { etag, notModified: false, ...page };
}
