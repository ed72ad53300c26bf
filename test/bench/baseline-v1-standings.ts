// Hand-written Koa + pg GET /api/v1/events/{eventId}/standings?stageId=…: the same reads as the
// platform (the key by hash, the event's organisation and revision, the page of stored standings in
// rank order, the teams' names) and the same body and ETag, byte for byte.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import { beginRequest, cursorOf } from './baseline-auth.ts';
import { standingPageStatement, type StandingReadRow } from '../../subgraphs/competitions/stages/statements.ts';

const KEY_SQL = `
  SELECT id AS "keyId", "organisationId" FROM "OrganisationApiKey"
  WHERE "keyHash" = $1 AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > (now() AT TIME ZONE 'UTC'))`;
const EVENT_SQL = `SELECT "organisationId", revision FROM "Event" WHERE id = $1`;
const LIMIT = 20;
// The platform's page statement (it reads each participant's team too).
const PAGE_SQL = standingPageStatement({ stage: true, group: false, after: false }, LIMIT + 1);

type Row = StandingReadRow & { orderStage: number; orderGroup: number };

export function v1StandingsHandler(pool: pg.Pool) {
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const key = ctx.get('x-api-key');
    if (!key) return fail(401, 'invalid_token', 'missing key');
    const [found] = (await pool.query({ name: 'baseline_v1_key', text: KEY_SQL, values: [createHash('sha256').update(key).digest('hex')] })).rows;
    if (!found) return fail(401, 'invalid_token', 'unknown key');
    const eventId = ctx.path.split('/')[4];
    const [event] = (await pool.query({ name: 'baseline_v1_event', text: EVENT_SQL, values: [eventId] })).rows;
    if (!event || event.organisationId !== found.organisationId) return fail(404, 'not_found', 'no event');
    const stageId = String(ctx.query.stageId);
    const view = `/api/v1/events/{eventId}/standings?${JSON.stringify([{ eventId }, [['stageId', stageId]]])}`;
    const etag = `"e${event.revision}-${createHash('sha256').update(view).digest('base64url').slice(0, 12)}"`;
    ctx.set('ETag', etag);
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      return;
    }
    const rows: Row[] = (await pool.query({ name: 'baseline_v1_standings', text: PAGE_SQL, values: [eventId, stageId] })).rows;
    const hasMore = rows.length > LIMIT;
    const items = hasMore ? rows.slice(0, LIMIT) : rows;
    const last = items[items.length - 1];
    ctx.body = {
      data: items.map((s) => ({
        id: s.id,
        eventId: s.eventId,
        stageId: s.stageId,
        groupId: s.groupId,
        participantId: s.participantId,
        name: s.teamName,
        logoUrl: s.teamLogoUrl,
        rank: s.rank,
        played: s.played,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
        points: s.points,
        scoreFor: s.scoreFor,
        scoreAgainst: s.scoreAgainst,
        scoreDifference: s.scoreDifference,
        adjustmentPoints: s.adjustmentPoints,
        seed: s.seed,
        tiebreakers: Object.fromEntries(s.tiebreakers.map(({ name, value }) => [name, value])),
        qualified: s.qualified,
      })),
      meta: { nextCursor: hasMore ? cursorOf(`standings|${eventId}|${stageId}|`, [last.orderStage, last.stageId, last.orderGroup, last.rank, last.seed ?? 0, last.participantId]) : null, hasMore },
    };
  };
}
