// The six esports reads: access check, one metered statement, and the shapes of the interface.
import type { SubgraphContext } from '../../platform/domain/context.ts';
import { notFound, validationFailed } from '../../platform/api/errors.ts';
import { timestampIssue } from '../../platform/api/input-safety.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../platform/api/pagination.ts';
import { esportsCaller } from './access.ts';
import { runEsportsRead } from './reads.ts';
import type { z } from 'zod';
import type { esportsEventView, esportsGroupView, esportsMapStatisticsView, esportsMatchStatisticsView, esportsMatchView, esportsStageView } from './views.ts';

// The shapes the reads answer are the views' (views.ts): the statements in reads.ts select exactly
// those columns, so a field is declared once, in the view.
export type EsportsEvent = z.output<typeof esportsEventView>;
export type EsportsStage = z.output<typeof esportsStageView>;
export type EsportsGroup = z.output<typeof esportsGroupView>;
export type EsportsMatch = z.output<typeof esportsMatchView>;
export type EsportsMatchStatistics = z.output<typeof esportsMatchStatisticsView>;
export type EsportsMapStatistics = z.output<typeof esportsMapStatisticsView>;

interface ListArgs {
  cursor?: string | null;
  limit?: number | null;
}

type ListRow<T> = { found: boolean; items: T[] };

type KeyPart = 'string' | 'int' | 'timestamp';
const keyPartFits: Record<KeyPart, (part: unknown) => boolean> = {
  string: (part) => typeof part === 'string',
  int: (part) => Number.isInteger(part),
  timestamp: (part) => typeof part === 'string' && timestampIssue(new Date(part)) === null,
};

function cursorKey(binding: string, cursor: string | null | undefined, types: KeyPart[]): unknown[] {
  const key = decodeCursor(binding, cursor);
  if (!key) return types.map(() => null);
  if (key.length !== types.length || key.some((part, i) => !keyPartFits[types[i]](part))) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  return key;
}

async function list<T>(
  ctx: SubgraphContext,
  statement: 'events' | 'stages' | 'mapStatistics',
  binding: string,
  parent: string[],
  args: ListArgs,
  key: { types: KeyPart[]; of: (item: T & { sortAt?: string }) => unknown[] },
  what: string,
): Promise<Page<T>> {
  // Arguments first: a malformed request is refused before it can cost anything.
  const limit = pageLimit(args.limit);
  const after = cursorKey(binding, args.cursor, key.types);
  const caller = await esportsCaller(ctx);
  const [row] = await runEsportsRead<ListRow<T & { sortAt?: string }>>(ctx.sql, caller, statement, [...parent, ...after, limit + 1], ctx.scope.deadline, (rows) => rows[0].found);
  if (!row.found) throw notFound(what);
  return pageOf(row.items, limit, binding, key.of, ({ sortAt: _sortAt, ...item }) => item as T);
}

export const esportsEvents = (ctx: SubgraphContext, args: ListArgs) =>
  list<EsportsEvent>(ctx, 'events', 'esports-events', [], args, { types: ['timestamp', 'string'], of: (e) => [e.sortAt, e.id] }, 'The esports event');

export const esportsStages = (ctx: SubgraphContext, eventId: string, args: ListArgs) =>
  list<EsportsStage>(ctx, 'stages', `esports-stages|${eventId}`, [eventId], args, { types: ['int', 'string'], of: (s) => [s.position, s.id] }, 'The esports event');

export const esportsMapStatistics = (ctx: SubgraphContext, eventId: string, args: ListArgs) =>
  list<EsportsMapStatistics>(ctx, 'mapStatistics', `esports-maps|${eventId}`, [eventId], args, { types: ['string'], of: (m) => [m.id] }, 'The esports event');

export async function esportsGroup(ctx: SubgraphContext, eventId: string, stageId: string, groupId: string): Promise<EsportsGroup> {
  const caller = await esportsCaller(ctx);
  const [group] = await runEsportsRead<EsportsGroup>(ctx.sql, caller, 'group', [eventId, stageId, groupId], ctx.scope.deadline, (rows) => rows.length > 0);
  // A group that exists but in another stage (or event) is not_found here.
  if (!group) throw notFound('The esports group (in this event and stage)');
  return group;
}

interface MatchRow extends Omit<EsportsMatch, 'teamA' | 'teamB'> {
  teamAId: string; teamAName: string; teamALogo: string | null; teamAScore: number | null;
  teamBId: string; teamBName: string; teamBLogo: string | null; teamBScore: number | null;
}

export async function esportsMatch(ctx: SubgraphContext, matchId: string): Promise<EsportsMatch> {
  const caller = await esportsCaller(ctx);
  const [row] = await runEsportsRead<MatchRow>(ctx.sql, caller, 'match', [matchId], ctx.scope.deadline, (rows) => rows.length > 0);
  if (!row) throw notFound('The esports match');
  const { teamAId, teamAName, teamALogo, teamAScore, teamBId, teamBName, teamBLogo, teamBScore, ...match } = row;
  return {
    ...match,
    teamA: { id: teamAId, name: teamAName, logoUrl: teamALogo, score: teamAScore },
    teamB: { id: teamBId, name: teamBName, logoUrl: teamBLogo, score: teamBScore },
  };
}

export async function esportsMatchStatistics(ctx: SubgraphContext, matchId: string): Promise<EsportsMatchStatistics> {
  const caller = await esportsCaller(ctx);
  const [row] = await runEsportsRead<EsportsMatchStatistics>(ctx.sql, caller, 'matchStatistics', [matchId], ctx.scope.deadline, (rows) => rows.length > 0);
  if (!row) throw notFound('Statistics of the esports match');
  return row;
}
