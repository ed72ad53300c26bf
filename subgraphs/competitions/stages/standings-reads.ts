// A stage's standings as viewers and overlays read them: stored by the writes that move them
// (standings.ts), so a page is one indexed read, conditional on the event revision.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { notFound, validationFailed } from '../../../platform/api/errors.ts';
import { decodeCursor, pageLimit, pageOf } from '../../../platform/api/pagination.ts';
import { readableEvent } from '../access.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import { standingPageStatement, type StandingReadRow } from './statements.ts';
import type { Page } from '../../../platform/api/pagination.ts';

export interface StageStandingArgs {
  eventId: string;
  stageId: string;
  groupId?: string | null;
  cursor?: string | null;
  limit?: number | null;
  ifNoneMatch?: string | null;
}

/** The stored tiebreakers ([{name, value}]) as read: {name: value} in the stage's order. */
export const tiebreakerObject = (tiebreakers: unknown): Record<string, number> =>
  Object.fromEntries(((tiebreakers ?? []) as { name: string; value: number }[]).map(({ name, value }) => [name, value]));

/** A stage's (group's) standings in rank order: groups by position, then rank, ties by seed. */
export async function stageStandingPage(ctx: SubgraphContext, args: StageStandingArgs): Promise<ConditionalPage<StandingReadRow>> {
  const limit = pageLimit(args.limit);
  const event = await readableEvent(ctx, args.eventId);
  const binding = `stage-standings|${event.id}|${args.stageId}|${args.groupId ?? ''}`;
  const after = afterOf(binding, args.cursor);
  const etag = pageEtag('ss', event.revision, binding, args.cursor ?? '', limit);
  const stage = await ctx.loaders.stage.load(args.stageId);
  if (!stage || stage.eventId !== event.id) throw notFound('The stage');
  if (args.groupId) {
    const group = await ctx.db.group.findUnique({ where: { id: args.groupId }, select: { stageId: true } });
    if (!group || group.stageId !== stage.id) throw notFound('The group');
  }
  if (matchesIfNoneMatch(args.ifNoneMatch, etag)) return { etag, notModified: true };
  const page = await readPage(ctx, event.id, { stageId: stage.id, groupId: args.groupId ?? null }, after, limit, binding);
  return { etag, notModified: false, ...page };
}

/** An event's standings (of one stage, of one group) in the same order, as a plain page. */
export async function eventStandingPage(ctx: SubgraphContext, eventId: string, args: { stageId?: string | null; groupId?: string | null; cursor?: string | null; limit?: number | null }): Promise<Page<StandingReadRow>> {
  const binding = `standings|${eventId}|${args.stageId ?? ''}|${args.groupId ?? ''}`;
  return readPage(ctx, eventId, { stageId: args.stageId ?? null, groupId: args.groupId ?? null }, afterOf(binding, args.cursor), pageLimit(args.limit), binding);
}

function afterOf(binding: string, cursor: string | null | undefined): unknown[] | null {
  const after = decodeCursor(binding, cursor);
  if (after && (after.length !== 6 || !Number.isInteger(after[0]) || typeof after[1] !== 'string' || !after.slice(2, 5).every((value) => Number.isInteger(value)) || typeof after[5] !== 'string')) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  return after;
}

async function readPage(ctx: SubgraphContext, eventId: string, filter: { stageId: string | null; groupId: string | null }, after: unknown[] | null, limit: number, binding: string): Promise<Page<StandingReadRow>> {
  const params: unknown[] = [eventId, ...(filter.stageId ? [filter.stageId] : []), ...(filter.groupId ? [filter.groupId] : []), ...(after ?? [])];
  const rows = await ctx.sql<StandingReadRow & { orderGroup: number; orderStage: number }>(standingPageStatement({ stage: Boolean(filter.stageId), group: Boolean(filter.groupId), after: Boolean(after) }, limit + 1), params);
  return pageOf(
    rows,
    limit,
    binding,
    (row) => [row.orderStage, row.stageId, row.orderGroup, row.rank, row.seed ?? 0, row.participantId],
    ({ orderGroup: _group, orderStage: _stage, ...row }) => row,
  );
}
