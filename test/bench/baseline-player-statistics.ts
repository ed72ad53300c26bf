// Hand-written Koa + pg GET /api/v2/events/{eventId}/statistics/players (first page of 20): the same
// statements as the platform (token; event with the installation that reaches it; the aggregation
// on a miss) and a cache of computed pages by ETag like the platform's, answering the same bytes.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import { authenticate, beginRequest, cursorOf } from './baseline-auth.ts';
import { playerStatisticsStatement, type PlayerStatisticsRow } from '../../subgraphs/competitions/matches/statements.ts';
import { READABLE_EVENTS_SQL } from '../../subgraphs/competitions/events/statements.ts';
import { toStatistics } from '../../subgraphs/competitions/matches/player-statistics.ts';
import { PLAYER_RATES, PLAYER_TOTALS } from '../../platform/domain/competition-vocabulary.ts';

// The REST body lists each player's fields in this order (the route operation's selection).
const FIELDS = ['userId', 'profileId', 'displayName', ...PLAYER_TOTALS, ...PLAYER_RATES] as const;

export function playerStatisticsHandler(pool: pg.Pool) {
  const pages = new Map<string, { data: unknown[]; meta: { nextCursor: string | null; hasMore: boolean } }>();
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const token = await authenticate(pool, ctx);
    if (!token) return fail(401, 'invalid_token', 'invalid token');
    const eventId = ctx.path.split('/')[4];
    const limit = 20;
    const [event] = (await pool.query({ name: 'baseline_stats_event', text: READABLE_EVENTS_SQL, values: [[eventId], token.applicationId] })).rows;
    if (!event?.installationId) return fail(404, 'not_found', 'The event was not found.');
    const binding = `players|${eventId}||`;
    const etag = `"ps${event.revision}-${createHash('sha256').update(`${eventId}|${binding}||${limit}`).digest('base64url').slice(0, 12)}"`;
    ctx.set('ETag', etag);
    let page = pages.get(etag);
    if (!page) {
      const statement = playerStatisticsStatement({ stage: false, group: false, after: false }, limit + 1);
      const rows = (await pool.query<PlayerStatisticsRow>({ name: 'baseline_stats_page', text: statement, values: [eventId] })).rows;
      const hasMore = rows.length > limit;
      const items = hasMore ? rows.slice(0, limit) : rows;
      const last = items[items.length - 1];
      const data = items.map((row) => {
        const statistics = toStatistics(row);
        return Object.fromEntries(FIELDS.map((field) => [field, statistics[field]]));
      });
      page = { data, meta: { nextCursor: hasMore ? cursorOf(binding, [last.rating, last.profileId]) : null, hasMore } };
      pages.set(etag, page);
    }
    ctx.body = page;
  };
}
