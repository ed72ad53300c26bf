// GET /api/v2/events/{eventId}/statistics/players: per-player totals over the matches in scope (the
// event, a stage or a group), with the derived rates documented in docs/competitions.md.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { ApiError, validationFailed } from '../../../platform/api/errors.ts';
import { decodeCursor, pageLimit, pageOf, type Page } from '../../../platform/api/pagination.ts';
import { readableEvent } from '../access.ts';
import { matchesIfNoneMatch, pageEtag, type ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import { playerStatisticsStatement, type PlayerStatisticsRow } from './statements.ts';

/**
 * Pages already computed, by ETag. The ETag holds the event revision, and every change to an event's
 * results is a write to the event that moves its revision, so a cached page is never stale: a new
 * revision is simply a new key. Per process, bounded, oldest first out.
 */
const pageCache = new Map<string, Page<PlayerStatistics>>();
const PAGE_CACHE_SIZE = 500;

function remember(etag: string, page: Page<PlayerStatistics>) {
  if (pageCache.size >= PAGE_CACHE_SIZE) pageCache.delete(pageCache.keys().next().value!);
  pageCache.set(etag, page);
}

/** While an event is in play, a scope may hold at most this many matches. */
export const LIVE_SCOPE_LIMIT = 200;
const IN_PLAY_STATES = ['live'];

/** The sums of a player's statistics, and the rates derived from them, in the order the API lists them. */

export interface PlayerStatistics extends Omit<PlayerStatisticsRow, 'matchesWon' | 'kastRounds' | 'survivedRounds' | 'damage'> {
  kdr: number;
  kpr: number;
  kostPercent: number;
  winRate: number;
  headshotPercent: number;
  survivalPercent: number;
  plantPercent: number;
  defusePercent: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** The derived rates; rating is computed in SQL (the sort key) with the same formula as ratingOf. */
export function toStatistics({ matchesWon, kastRounds, survivedRounds, damage, rating, ...totals }: PlayerStatisticsRow): PlayerStatistics {
  const row = { ...totals, matchesWon, kastRounds, survivedRounds, damage, rating };
  return {
    ...totals,
    kdr: round2(row.deaths === 0 ? row.kills : row.kills / row.deaths),
    kpr: round2(ratio(row.kills, row.roundsPlayed)),
    kostPercent: round2(100 * ratio(row.kastRounds, row.roundsPlayed)),
    winRate: round2(100 * ratio(row.matchesWon, row.matchesPlayed)),
    headshotPercent: round2(100 * ratio(row.headshots, row.kills)),
    survivalPercent: round2(100 * ratio(row.survivedRounds, row.roundsPlayed)),
    plantPercent: round2(100 * ratio(row.plants, row.roundsPlayed)),
    defusePercent: round2(100 * ratio(row.defuserDisables, row.roundsPlayed)),
    rating: round2(row.rating),
  };
}

/**
 * Rating (an HLTV 2.0-style estimate): 0.0073·KAST% + 0.3591·KPR − 0.5329·DPR + 0.2372·Impact +
 * 0.0032·ADR + 0.1587, with Impact = 2.13·KPR + 0.42·APR − 0.41; 0 without rounds played.
 */
export function ratingOf(t: { roundsPlayed: number; kills: number; deaths: number; assists: number; kastRounds: number; damage: number }): number {
  if (t.roundsPlayed === 0) return 0;
  const kpr = t.kills / t.roundsPlayed;
  const dpr = t.deaths / t.roundsPlayed;
  const apr = t.assists / t.roundsPlayed;
  const kast = (100 * t.kastRounds) / t.roundsPlayed;
  const adr = t.damage / t.roundsPlayed;
  const impact = 2.13 * kpr + 0.42 * apr - 0.41;
  return 0.0073 * kast + 0.3591 * kpr - 0.5329 * dpr + 0.2372 * impact + 0.0032 * adr + 0.1587;
}

export interface PlayerStatisticsArgs {
  eventId: string;
  stageId?: string | null;
  groupId?: string | null;
  cursor?: string | null;
  limit?: number | null;
  ifNoneMatch?: string | null;
}

export async function eventPlayerStatistics(ctx: SubgraphContext, args: PlayerStatisticsArgs): Promise<ConditionalPage<PlayerStatistics>> {
  const limit = pageLimit(args.limit);
  const event = await readableEvent(ctx, args.eventId);
  const binding = `players|${args.eventId}|${args.stageId ?? ''}|${args.groupId ?? ''}`;
  const after = decodeCursor(binding, args.cursor);
  if (after && (typeof after[0] !== 'number' || typeof after[1] !== 'string')) {
    throw validationFailed('cursor is not valid.', [{ field: 'cursor', issue: 'invalid' }]);
  }
  // An ETag (or a cached page) exists only for arguments that passed the checks below at this
  // revision, so a request naming it needs no checks; * does, as it names no page in particular.
  const etag = pageEtag('ps', event.revision, event.id, binding, args.cursor ?? '', limit);
  if (matchesIfNoneMatch(args.ifNoneMatch, etag, false)) return { etag, notModified: true };
  const cached = pageCache.get(etag);
  if (cached) return { etag, notModified: false, ...cached };

  if (args.stageId) {
    const stage = await ctx.loaders.stage.load(args.stageId);
    if (!stage || stage.eventId !== event.id) throw validationFailed('stageId is not a stage of this event.', [{ field: 'stageId', issue: 'not a stage of this event' }]);
  }
  if (args.groupId) {
    const group = await ctx.db.group.findUnique({ where: { id: args.groupId }, select: { eventId: true, stageId: true } });
    if (!group || group.eventId !== event.id || (args.stageId && group.stageId !== args.stageId)) {
      throw validationFailed('groupId is not a group of this event (and stage).', [{ field: 'groupId', issue: 'not a group of this event or stage' }]);
    }
  }
  const scope = {
    eventId: event.id,
    ...(args.stageId ? { stageId: args.stageId } : {}),
    ...(args.groupId ? { groupId: args.groupId } : {}),
  };
  if (IN_PLAY_STATES.includes(event.state)) {
    const matches = await ctx.db.match.count({ where: scope });
    if (matches > LIVE_SCOPE_LIMIT) {
      throw new ApiError(
        'validation_failed',
        `The event is in play and this scope holds ${matches} matches (at most ${LIVE_SCOPE_LIMIT}): narrow it with stageId or groupId.`,
        [{ field: args.groupId ? 'groupId' : 'stageId', issue: `scope holds more than ${LIVE_SCOPE_LIMIT} matches while the event is in play; narrow by stageId or groupId` }],
      );
    }
  }
  if (matchesIfNoneMatch(args.ifNoneMatch, etag)) return { etag, notModified: true };
  const statement = playerStatisticsStatement({ stage: Boolean(args.stageId), group: Boolean(args.groupId), after: Boolean(after) }, limit + 1);
  const values = [event.id, ...(args.stageId ? [args.stageId] : []), ...(args.groupId ? [args.groupId] : []), ...(after ?? [])];
  const rows = await ctx.sql<PlayerStatisticsRow>(statement, values);
  const page = pageOf(rows, limit, binding, (row) => [Number(row.rating), row.profileId], (row) => toStatistics({ ...row, rating: Number(row.rating) }));
  remember(etag, page);
  return { etag, notModified: false, ...page };
}
