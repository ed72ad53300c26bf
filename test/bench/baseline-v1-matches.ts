// Hand-written Koa + pg GET /api/v1/events/{eventId}/matches: the same reads as the platform (the
// key by hash, the event's organisation and revision, the page with both sides' teams and the maps
// in one statement) and the same body and ETag, byte for byte.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import { beginRequest, cursorOf } from './baseline-auth.ts';
import { matchPageStatement, type MatchRow } from '../../subgraphs/competitions/matches/statements.ts';

const KEY_SQL = `
  SELECT id AS "keyId", "organisationId" FROM "OrganisationApiKey"
  WHERE "keyHash" = $1 AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > (now() AT TIME ZONE 'UTC'))`;
const EVENT_SQL = `SELECT "organisationId", revision FROM "Event" WHERE id = $1`;
const LIMIT = 20;

type Side = 'a' | 'b';
function opponent(m: MatchRow, side: Side) {
  const participantId = side === 'a' ? m.participantAId : m.participantBId;
  if (!participantId) return null;
  const [own, other] = side === 'a' ? [m.scoreA, m.scoreB] : [m.scoreB, m.scoreA];
  const result =
    m.status !== 'completed' ? null : m.forfeit ? (m.forfeit === side ? 'loss' : 'win') : own == null || other == null ? null : own > other ? 'win' : own < other ? 'loss' : 'draw';
  return {
    participantId,
    teamId: side === 'a' ? m.teamAId : m.teamBId,
    name: side === 'a' ? m.teamAName : m.teamBName,
    logoUrl: side === 'a' ? m.teamALogoUrl : m.teamBLogoUrl,
    score: own,
    result,
    forfeit: m.forfeit ? m.forfeit === side : m.isFreeWin && result === 'loss',
  };
}

const linkOf = (matchId: string | null, slot: string | null) => (matchId && slot ? { matchId, slot } : null);

export function v1MatchesHandler(pool: pg.Pool) {
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const key = ctx.get('x-api-key');
    if (!key) return fail(401, 'invalid_token', 'missing key');
    const [found] = (await pool.query({ name: 'baseline_v1_key', text: KEY_SQL, values: [createHash('sha256').update(key).digest('hex')] })).rows;
    if (!found) return fail(401, 'invalid_token', 'unknown key');
    const eventId = ctx.path.split('/')[4];
    const [event] = (await pool.query({ name: 'baseline_v1_event', text: EVENT_SQL, values: [eventId] })).rows;
    if (!event || event.organisationId !== found.organisationId) return fail(404, 'not_found', 'no event');
    const cursor = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined;
    const view = `/api/v1/events/{eventId}/matches?${JSON.stringify([{ eventId }, cursor ? [['cursor', cursor]] : []])}`;
    const etag = `"e${event.revision}-${createHash('sha256').update(view).digest('base64url').slice(0, 12)}"`;
    ctx.set('ETag', etag);
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      return;
    }
    const binding = `matches|${eventId}||||`;
    const after = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')).k as string[]) : null;
    const text = matchPageStatement({ stage: false, group: false, round: false, status: false, after: Boolean(after) }, LIMIT + 1);
    const rows: MatchRow[] = (await pool.query({ name: `baseline_v1_matches_${Boolean(after)}`, text, values: after ? [eventId, after[0], after[1]] : [eventId] })).rows;
    const hasMore = rows.length > LIMIT;
    const items = hasMore ? rows.slice(0, LIMIT) : rows;
    const last = items[items.length - 1];
    ctx.body = {
      data: items.map((m) => ({
        id: m.id,
        eventId: m.eventId,
        stageId: m.stageId,
        groupId: m.groupId,
        roundId: m.roundId,
        status: m.status,
        bestOf: m.bestOf,
        isFreeWin: m.isFreeWin,
        opponentA: opponent(m, 'a'),
        opponentB: opponent(m, 'b'),
        maps: m.maps,
        scheduledAt: m.scheduledAt,
        startedAt: m.startedAt,
        completedAt: m.completedAt,
        streamUrl: m.streamUrl,
        updatedAt: m.updatedAt,
        roundNumber: m.roundNumber,
        position: m.position,
        bracket: m.bracket,
        winnerTo: linkOf(m.winnerToMatchId, m.winnerToSlot),
        loserTo: linkOf(m.loserToMatchId, m.loserToSlot),
        sourceA: m.sourceA,
        sourceB: m.sourceB,
        opponents: m.opponents,
      })),
      meta: { nextCursor: hasMore ? cursorOf(binding, [last.createdAt, last.id]) : null, hasMore },
    };
  };
}
