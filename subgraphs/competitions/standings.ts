// A stage's standings as viewers and overlays read them: stored by the writes that move them
// (stage-standings.ts), so a page is one indexed read, conditional on the event revision.
import type { SubgraphContext } from '../shared/context.ts';
import { notFound, validationFailed } from '../shared/errors.ts';
import { decodeCursor, pageLimit, pageOf } from '../shared/pagination.ts';
import { readableEvent } from './access.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from './organisation-events.ts';
import { stageStandingPageStatement, type StandingReadRow } from './statements.ts';

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
  const after = decodeCursor(binding, args.cursor);
  if (after && (after.length !== 4 || !after.slice(0, 3).every((value) => Number.isInteger(value)) || typeof after[3] !== 'string')) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  const etag = pageEtag('ss', event.revision, binding, args.cursor ?? '', limit);
  const stage = await ctx.loaders.stage.load(args.stageId);
  if (!stage || stage.eventId !== event.id) throw notFound('The stage');
  if (args.groupId) {
    const group = await ctx.db.group.findUnique({ where: { id: args.groupId }, select: { stageId: true } });
    if (!group || group.stageId !== stage.id) throw notFound('The group');
  }
  if (matchesIfNoneMatch(args.ifNoneMatch, etag)) return { etag, notModified: true };
  const params: unknown[] = [event.id, stage.id, ...(args.groupId ? [args.groupId] : []), ...(after ?? [])];
  const rows = await ctx.sql<StandingReadRow & { orderGroup: number }>(stageStandingPageStatement({ group: Boolean(args.groupId), after: Boolean(after) }, limit + 1), params);
  const page = pageOf(
    rows,
    limit,
    binding,
    (row) => [row.orderGroup, row.rank, row.seed ?? 0, row.participantId],
    ({ orderGroup: _group, ...row }) => row,
  );
  return { etag, notModified: false, ...page };
}
