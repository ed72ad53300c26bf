// Stages chain: a stage whose settings say `seeding: "previous_stage"` takes the qualifiers of the
// stage before it (by position), in snake order across that stage's groups. The order is shown on the
// next stage as soon as the previous one completes (written in the transaction of the result that
// completed it, with a stage.seeded change) and frozen when the next stage starts. A correction or an
// adjustment that would change the qualifiers of a stage whose next stage has already started is
// refused (409 next_stage_started). docs/tournaments.md ("Stages that chain") describes the rules.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { Db, SqlStatement } from '../../../platform/db/database.ts';
import type { Change } from '../events/event-write.ts';
import { ELIGIBLE_STATUSES, storedSettings, type GroupKey, type StageSeeding } from './settings.ts';
import { NEXT_STAGE_SQL, PREVIOUS_STAGE_SQL, SET_STAGE_SEEDING_SQL, STORED_STANDINGS_SQL, type StoredStandingRow } from './statements.ts';
import { conflict, sameJson } from '../events/write-rules.ts';

/** A standing as the qualification reads it. */
export type RankedRow = Pick<StoredStandingRow, 'groupId' | 'participantId' | 'rank' | 'seed'>;

/** Computed standings (per group) as the qualification reads them. */
export const rankedRows = (standings: ReadonlyMap<GroupKey, readonly { participantId: string; rank: number; seed: number }[]>): RankedRow[] =>
  [...standings].flatMap(([groupId, list]) => list.map((row) => ({ groupId, participantId: row.participantId, rank: row.rank, seed: row.seed })));

/**
 * The qualifiers of a completed stage, seed 1 first: the first `qualifiers` of each group (all when not
 * set), taken rank by rank in snake order across the groups (winners A, B, C; runners-up C, B, A; …).
 * Within a group, rows go in rank order, tied rows by seed, as the standings list them.
 */
export function qualifierOrder(rows: readonly RankedRow[], groupOrder: readonly GroupKey[], qualifiers: number | null | undefined): string[] {
  const byGroup = new Map<GroupKey, RankedRow[]>(groupOrder.map((group) => [group, []]));
  for (const row of rows) byGroup.get(row.groupId)?.push(row);
  const ranked = groupOrder.map((group) =>
    byGroup
      .get(group)!
      .sort((x, y) => x.rank - y.rank || (x.seed ?? 0) - (y.seed ?? 0) || (x.participantId < y.participantId ? -1 : 1))
      .slice(0, qualifiers ?? undefined),
  );
  const order: string[] = [];
  const depth = Math.max(0, ...ranked.map((group) => group.length));
  for (let place = 0; place < depth; place++) {
    const groups = place % 2 === 0 ? ranked : [...ranked].reverse();
    for (const group of groups) if (group[place]) order.push(group[place].participantId);
  }
  return order;
}

/**
 * The groups of a stage in their order: a started stage's from its seeding ([null] without groups); a
 * stage whose standings were entered by hand, the groups its rows name.
 */
function groupOrderOf(seeding: StageSeeding | null, rows: readonly RankedRow[]): GroupKey[] {
  if (seeding) return seeding.groups?.length ? seeding.groups.map((group) => group.groupId) : [null];
  return [...new Set(rows.map((row) => row.groupId))].sort((x, y) => (x ?? '').localeCompare(y ?? ''));
}

interface NextStage {
  id: string;
  status: string;
  settings: unknown;
  seeding: unknown;
}

export interface ChainingStage {
  id: string;
  settings: unknown;
  seeding: unknown;
}

/**
 * What a write that leaves `stage` completed (or not: `completed` false, after a correction reopened it)
 * does to the next stage seeded from it. `rows`: the stage's standings after the write, every group.
 */
export async function chainNextStage(ctx: SubgraphContext, eventId: string, stage: ChainingStage, completed: boolean, rows: readonly RankedRow[]): Promise<{ statements: SqlStatement[]; changes: Change[] }> {
  const none = { statements: [], changes: [] };
  const [next] = await ctx.sql<NextStage>(NEXT_STAGE_SQL, [eventId, stage.id]);
  if (!next || storedSettings(next).seeding !== 'previous_stage') return none;
  const order = completed ? qualifierOrder(rows, groupOrderOf(stage.seeding as StageSeeding | null, rows), storedSettings(stage).qualifiers) : null;
  if (next.status !== 'pending') {
    // Frozen at its start from this stage's qualifiers: they may not change under it. Compared as
    // they stood then (withdrawn ones included), so that a status changed since refuses nothing.
    const frozen = next.seeding as (StageSeeding & { qualifierIds?: string[] }) | null;
    if (!order || !sameJson(order, frozen?.qualifierIds ?? frozen?.participantIds ?? [])) {
      throw conflict(`Stage ${next.id} was seeded from this stage's qualifiers and has started: this change would change who qualified or in which order.`, 'next_stage_started');
    }
    return none;
  }
  // Shown as the start would freeze it now: qualifiers who withdrew are left out.
  const shown = order ? await eligible(ctx.db, order) : null;
  const preview: StageSeeding | null = shown ? { method: 'previous_stage', randomSeed: null, participantIds: shown, groups: null } : null;
  if (sameJson(next.seeding ?? null, preview)) return none;
  return {
    statements: [{ text: SET_STAGE_SEEDING_SQL, values: [next.id, preview ? JSON.stringify(preview) : null] }],
    changes: [{ type: 'stage.seeded', resourceType: 'stage', resourceId: next.id, payload: { stageId: next.id, participantIds: shown ?? [], groups: null, previousStageId: stage.id } }],
  };
}

/** The stage's rows as stored, every group. */
export const storedRows = (ctx: SubgraphContext, eventId: string, stageId: string) => ctx.sql<StoredStandingRow>(STORED_STANDINGS_SQL, [eventId, stageId, null]);

/** The participants of `ids` that may still play (withdrawn and disqualified ones left out), in order. */
export async function eligible(db: Db, ids: readonly string[]): Promise<string[]> {
  const rows = await db.participant.findMany({ where: { id: { in: [...ids] }, status: { in: ELIGIBLE_STATUSES } }, select: { id: true } });
  const kept = new Set(rows.map((row) => row.id));
  return ids.filter((id) => kept.has(id));
}

/**
 * The seeding of a stage seeded `previous_stage` at its start: the previous stage's qualifiers in
 * order (`qualifierIds`) and those of them who may still play; 409 while there are none.
 */
export async function previousStageOrder(ctx: SubgraphContext, eventId: string, stageId: string): Promise<{ qualifierIds: string[]; participantIds: string[] }> {
  const [previous] = await ctx.sql<NextStage & { format: string }>(PREVIOUS_STAGE_SQL, [eventId, stageId]);
  if (!previous) throw conflict('The stage is seeded from the previous stage but is the first stage of the event: set seeding to registration, random or manual.', 'no_previous_stage');
  if (previous.status !== 'completed') {
    throw conflict(`The previous stage (${previous.id}) is ${previous.status}: a stage seeded from it starts once it is completed.`, 'previous_stage_not_completed');
  }
  const rows = await storedRows(ctx, eventId, previous.id);
  const order = qualifierOrder(rows, groupOrderOf(previous.seeding as StageSeeding | null, rows), storedSettings(previous).qualifiers);
  return { qualifierIds: order, participantIds: await eligible(ctx.db, order) };
}
