// The live writes overlays follow: a match report (status, schedule, scores, maps), the event's
// broadcast configuration, and a playday's live match and overlay score. Each takes the one event
// write path (event-write.ts) like the interface's writes, so each moves the revision and is in the
// change feed that the gateway and webhooks read.
import type { SubgraphContext } from '../shared/context.ts';
import { notFound, validationFailed } from '../shared/errors.ts';
import { validate } from '../shared/validation.ts';
import { runEventWrite, type WriteResult } from './event-write.ts';
import { broadcastInput, matchReportInput, playdayUpdateInput } from './inputs.ts';
import { REPLACE_BROADCAST_SQL, REPLACE_MATCH_MAPS_SQL, REPORT_MATCH_SQL, UPDATE_PLAYDAY_SQL } from './statements.ts';
import { assertOpen, conflict, sameJson, unchanged, type Preconditions } from './writes.ts';

type TimeAction = 'now' | 'clear' | 'keep';

/** What a status change does to startedAt and completedAt. */
function timing(from: string, to: string): { started: TimeAction; completed: TimeAction } {
  if (to === 'live') return { started: 'now', completed: 'clear' };
  if (to === 'completed') return { started: 'now', completed: from === 'completed' ? 'keep' : 'now' };
  if (to === 'scheduled') return { started: 'clear', completed: 'clear' };
  return { started: 'keep', completed: 'keep' };
}

// ── match report ─────────────────────────────────────────────────────────────
export function reportMatch(ctx: SubgraphContext, eventId: string, matchId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(matchReportInput, body);
  return runEventWrite(ctx, {
    operation: 'reportMatch',
    eventId,
    ...pre,
    request: { matchId, input },
    async plan(db, event) {
      assertOpen(event);
      const match = await db.match.findUnique({ where: { id: matchId }, include: { maps: { orderBy: { position: 'asc' } } } });
      if (!match || match.eventId !== eventId) throw notFound('The match');
      const status = input.status ?? match.status;
      if (match.status === 'cancelled' && status !== 'cancelled') throw conflict('The match is cancelled: its report can no longer change.', 'match_cancelled');
      if (match.status === 'completed' && status !== 'completed') {
        throw conflict('The match is completed: correct its scores and maps, its status stays completed.', 'match_completed');
      }
      const next = {
        scheduledAt: input.scheduledAt === undefined ? match.scheduledAt?.toISOString() ?? null : input.scheduledAt,
        scoreA: input.scoreA === undefined ? match.scoreA : input.scoreA,
        scoreB: input.scoreB === undefined ? match.scoreB : input.scoreB,
        isFreeWin: input.isFreeWin ?? match.isFreeWin,
        streamUrl: input.streamUrl === undefined ? match.streamUrl : input.streamUrl,
      };
      if (status === 'completed') {
        if (!match.participantAId || !match.participantBId) throw conflict('Both sides must be placed before the match is completed.', 'opponents_missing');
        const missing = (['scoreA', 'scoreB'] as const).filter((field) => next[field] == null);
        if (missing.length) throw validationFailed('A completed match needs both scores.', missing.map((field) => ({ field, issue: 'required to complete the match' })));
      }
      const currentMaps = match.maps.map((m) => ({ mapId: m.mapId, scoreA: m.scoreA, scoreB: m.scoreB, winner: m.winner }));
      const maps = input.maps?.map((m) => ({ mapId: m.mapId, scoreA: m.scoreA ?? null, scoreB: m.scoreB ?? null, winner: m.winner ?? null })) ?? currentMaps;
      if (input.maps) {
        if (maps.length > match.bestOf) throw validationFailed(`A best-of-${match.bestOf} match has at most ${match.bestOf} maps.`, [{ field: 'maps', issue: `at most ${match.bestOf}` }]);
        const known = new Set((await db.map.findMany({ where: { id: { in: maps.map((m) => m.mapId) } }, select: { id: true } })).map((m) => m.id));
        const unknown = maps.map((m, index) => ({ ...m, index })).filter((m) => !known.has(m.mapId));
        if (unknown.length) throw validationFailed('Unknown maps.', unknown.map(({ index }) => ({ field: `maps.${index}.mapId`, issue: 'unknown map' })));
      }
      const before = { status: match.status, scheduledAt: match.scheduledAt?.toISOString() ?? null, scoreA: match.scoreA, scoreB: match.scoreB, isFreeWin: match.isFreeWin, streamUrl: match.streamUrl };
      const after = { status, ...next, scheduledAt: next.scheduledAt == null ? null : new Date(next.scheduledAt).toISOString() };
      const mapsChanged = !sameJson(maps, currentMaps);
      if (sameJson(before, after) && !mapsChanged) return unchanged(matchId);
      const { started, completed } = status === match.status ? { started: 'keep' as const, completed: 'keep' as const } : timing(match.status, status);
      const [deleteMaps, insertMaps] = REPLACE_MATCH_MAPS_SQL;
      return {
        resourceId: matchId,
        changed: true,
        changes: [{ type: 'match.updated', resourceType: 'match', resourceId: matchId, payload: { matchId, status, scoreA: after.scoreA, scoreB: after.scoreB, previousStatus: match.status } }],
        statements: [
          { text: REPORT_MATCH_SQL, values: [matchId, status, after.scheduledAt, after.scoreA, after.scoreB, after.isFreeWin, after.streamUrl, started, completed] },
          ...(mapsChanged
            ? [
                { text: deleteMaps, values: [matchId] },
                { text: insertMaps, values: [matchId, maps.map((m) => m.mapId), maps.map((m) => m.scoreA), maps.map((m) => m.scoreB), maps.map((m) => m.winner)] },
              ]
            : []),
        ],
      };
    },
  });
}

// ── broadcast configuration ──────────────────────────────────────────────────
export function replaceBroadcast(ctx: SubgraphContext, eventId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(broadcastInput, body ?? {});
  const config = {
    streamUrl: input.streamUrl ?? null,
    youtubeUrl: input.youtubeUrl ?? null,
    overlayTheme: input.overlayTheme ?? 'default',
    primaryColor: input.primaryColor?.toLowerCase() ?? null,
    delaySeconds: input.delaySeconds ?? 0,
    showScores: input.showScores ?? true,
  };
  return runEventWrite(ctx, {
    operation: 'replaceBroadcast',
    eventId,
    ...pre,
    request: config,
    async plan(db) {
      const current = await db.broadcastConfig.findUnique({
        where: { eventId },
        select: { streamUrl: true, youtubeUrl: true, overlayTheme: true, primaryColor: true, delaySeconds: true, showScores: true },
      });
      if (current && sameJson(current, config)) return unchanged(eventId);
      return {
        resourceId: eventId,
        changed: true,
        changes: [{ type: 'broadcast.updated', resourceType: 'broadcast', resourceId: eventId, payload: config }],
        statements: [{ text: REPLACE_BROADCAST_SQL, values: [eventId, config.streamUrl, config.youtubeUrl, config.overlayTheme, config.primaryColor, config.delaySeconds, config.showScores] }],
      };
    },
  });
}

// ── playday live selection ───────────────────────────────────────────────────
export function updatePlayday(ctx: SubgraphContext, eventId: string, playdayId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(playdayUpdateInput, body);
  return runEventWrite(ctx, {
    operation: 'updatePlayday',
    eventId,
    ...pre,
    request: { playdayId, input },
    async plan(db) {
      const playday = await db.playday.findUnique({ where: { id: playdayId }, select: { eventId: true, liveMatchId: true, overlayScoreA: true, overlayScoreB: true } });
      if (!playday || playday.eventId !== eventId) throw notFound('The playday');
      const { eventId: _eventId, ...current } = playday;
      const next = {
        liveMatchId: input.liveMatchId === undefined ? current.liveMatchId : input.liveMatchId,
        overlayScoreA: input.overlayScoreA === undefined ? current.overlayScoreA : input.overlayScoreA,
        overlayScoreB: input.overlayScoreB === undefined ? current.overlayScoreB : input.overlayScoreB,
      };
      if (input.liveMatchId) {
        const match = await db.match.findUnique({ where: { id: input.liveMatchId }, select: { eventId: true } });
        if (!match || match.eventId !== eventId) throw validationFailed('liveMatchId is not a match of this event.', [{ field: 'liveMatchId', issue: 'not a match of this event' }]);
      }
      if (sameJson(current, next)) return unchanged(playdayId);
      return {
        resourceId: playdayId,
        changed: true,
        changes: [{ type: 'playday.updated', resourceType: 'playday', resourceId: playdayId, payload: { playdayId, ...next } }],
        statements: [{ text: UPDATE_PLAYDAY_SQL, values: [playdayId, next.liveMatchId, next.overlayScoreA, next.overlayScoreB] }],
      };
    },
  });
}
