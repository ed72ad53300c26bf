// The live writes overlays follow: a match report (status, schedule, scores, maps), the event's
// broadcast configuration, and a playday's live match and overlay score. Each takes the one event
// write path (events/event-write.ts) like the interface's writes, so each moves the revision and is in the
// change feed that the gateway and webhooks read.
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { notFound, validationFailed } from '../../../platform/api/errors.ts';
import { validate } from '../../../platform/api/validation.ts';
import { runEventWrite, type Change, type WriteResult } from '../events/event-write.ts';
import { broadcastInput, matchReportInput, playdayUpdateInput } from '../inputs.ts';
import type { ffaOpponentView } from '../views.ts';
import type { ChangeDetails } from '../../../platform/domain/change-catalogue.ts';
import { prefetchReportInputs, stageFollowUps } from '../stages/progress.ts';
import { stageSettingsView } from '../stages/settings.ts';
import { DELETE_MATCHES_MAPS_SQL, DOWNSTREAM_MATCHES_SQL, REPLACE_BROADCAST_SQL, REPLACE_MATCH_MAPS_SQL, REPORT_MATCH_SQL, UPDATE_PLAYDAY_SQL, UPDATE_PROGRESSED_MATCHES_SQL, type BracketMatchRow } from './statements.ts';
import { progress, rankFfa, type BracketMatch, type MatchOutcome } from '../tournament/index.ts';
import { assertOpen, conflict, sameJson, unchanged, type Preconditions } from '../events/write-rules.ts';

type TimeAction = 'now' | 'clear' | 'keep';

/** What a status change does to startedAt and completedAt. */
function timing(from: string, to: string): { started: TimeAction; completed: TimeAction } {
  if (to === 'live') return { started: 'now', completed: 'clear' };
  if (to === 'completed') return { started: 'now', completed: from === 'completed' ? 'keep' : 'now' };
  if (to === 'scheduled') return { started: 'clear', completed: 'clear' };
  return { started: 'keep', completed: 'keep' };
}

// ── match report ─────────────────────────────────────────────────────────────
/** Formats whose matches may end in a draw; elsewhere a completed match needs a winner. */
const DRAW_FORMATS = new Set(['round_robin', 'league', 'swiss']);

type Side = 'a' | 'b';
type FfaOpponent = z.output<typeof ffaOpponentView>;

const toBracketMatch = (row: BracketMatchRow): BracketMatch => ({
  id: row.id,
  status: row.status,
  isFreeWin: row.isFreeWin,
  participantA: row.participantAId,
  participantB: row.participantBId,
  scoreA: row.scoreA,
  scoreB: row.scoreB,
  forfeit: row.forfeit as Side | null,
  winnerTo: row.winnerToMatchId ? { matchId: row.winnerToMatchId, slot: row.winnerToSlot as Side } : null,
  loserTo: row.loserToMatchId ? { matchId: row.loserToMatchId, slot: row.loserToSlot as Side } : null,
  isGrandFinalReset: row.bracket === 'grand_final' && row.roundNumber === 2,
});

type MatchUpdated = ChangeDetails<'match.updated'>;

/**
 * One match.updated payload: the match after the report, and its status before. The match's status
 * and forfeit are text columns that only hold MATCH_STATUSES and a side, and its opponents the stored
 * free-for-all opponents: they are taken as the catalogue's types here.
 */
const matchUpdated = (reportedMatchId: string, match: { id: string; status: string; scoreA: number | null; scoreB: number | null; forfeit: string | null; participantAId: string | null; participantBId: string | null; opponents: unknown }, previousStatus: string): Change<'match.updated'> => ({
  type: 'match.updated',
  resourceType: 'match',
  resourceId: match.id,
  payload: {
    matchId: match.id,
    status: match.status as MatchUpdated['status'],
    scoreA: match.scoreA,
    scoreB: match.scoreB,
    previousStatus: previousStatus as MatchUpdated['status'],
    forfeit: match.forfeit as MatchUpdated['forfeit'],
    participantAId: match.participantAId,
    participantBId: match.participantBId,
    opponents: (match.opponents ?? null) as MatchUpdated['opponents'],
    reportedMatchId,
  },
});

export function reportMatch(ctx: SubgraphContext, eventId: string, matchId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(matchReportInput, body);
  return runEventWrite(ctx, {
    operation: 'reportMatch',
    eventId,
    ...pre,
    request: { matchId, input },
    async plan(db, event) {
      // A round robin or league report's standings inputs are read meanwhile (null for other matches).
      const [match, prefetched] = await Promise.all([
        db.match.findUnique({
          where: { id: matchId },
          include: { maps: { orderBy: { position: 'asc' } }, stage: { select: { id: true, format: true, status: true, settings: true, seeding: true } } },
        }),
        prefetchReportInputs(ctx, eventId, matchId),
      ]);
      if (!match || match.eventId !== eventId) throw notFound('The match');
      // A completed event still takes corrections of its completed matches (a mistyped final score).
      if (!(event.state === 'completed' && match.status === 'completed' && (input.status ?? 'completed') === 'completed')) assertOpen(event);
      // Generated by a stage start (docs/tournaments.md): results follow the stage's rules.
      const generated = match.position !== null;
      const ffaOpponents = match.opponents as FfaOpponent[] | null;
      const deciding = (input.forfeit ?? null) !== null || input.placements !== undefined;
      const status = input.status ?? (deciding ? 'completed' : match.status);
      if (match.status === 'cancelled' && status !== 'cancelled') throw conflict('The match is cancelled: its report can no longer change.', 'match_cancelled');
      if (match.status === 'completed' && status !== 'completed') {
        throw conflict('The match is completed: correct its scores and maps, its status stays completed.', 'match_completed');
      }
      if (generated && status !== match.status) {
        // A bracket match (one that feeds another or is fed by one) is decided, never cancelled: a
        // cancelled one would stall what it feeds.
        const fed = [match.sourceA, match.sourceB].some((source) => (source as { type?: string } | null)?.type === 'winner' || (source as { type?: string } | null)?.type === 'loser');
        if (status === 'cancelled' && (match.winnerToMatchId || match.loserToMatchId || fed)) {
          throw conflict('A bracket match cannot be cancelled: report a forfeit ({"forfeit": "a"} or "b") so that the bracket goes on.', 'bracket_match_not_cancellable');
        }
        if (status === 'live' && !ffaOpponents && (!match.participantAId || !match.participantBId)) throw conflict('Both sides must be placed before the match goes live.', 'opponents_missing');
      }
      const invalid = [
        ...(input.forfeit && status !== 'completed' ? [{ field: 'forfeit', issue: 'a forfeit completes the match: send no other status' }] : []),
        ...(input.placements && status !== 'completed' ? [{ field: 'placements', issue: 'placements complete the match: send no other status' }] : []),
        ...(input.placements && !ffaOpponents ? [{ field: 'placements', issue: 'only a free-for-all match takes placements' }] : []),
        ...(ffaOpponents
          ? (['scoreA', 'scoreB', 'forfeit'] as const).filter((field) => input[field] != null).map((field) => ({ field, issue: 'a free-for-all match has no sides: send placements' }))
          : []),
        ...(generated && input.isFreeWin !== undefined && input.isFreeWin !== match.isFreeWin ? [{ field: 'isFreeWin', issue: 'byes are drawn at the start; send forfeit for a forfeit' }] : []),
      ];
      if (invalid.length) throw validationFailed('The report does not fit this match.', invalid);
      const next = {
        scheduledAt: input.scheduledAt === undefined ? match.scheduledAt?.toISOString() ?? null : input.scheduledAt,
        scoreA: input.scoreA === undefined ? match.scoreA : input.scoreA,
        scoreB: input.scoreB === undefined ? match.scoreB : input.scoreB,
        isFreeWin: input.isFreeWin ?? match.isFreeWin,
        streamUrl: input.streamUrl === undefined ? match.streamUrl : input.streamUrl,
        forfeit: (input.forfeit === undefined ? match.forfeit : input.forfeit) as Side | null,
      };
      let opponents: FfaOpponent[] | null = null;
      if (ffaOpponents) {
        if (input.placements) {
          const pointsByPlace = stageSettingsView({ format: match.stage.format, status: 'running', settings: match.stage.settings, seeding: null }).pointsByPlace ?? null;
          opponents = rankFfa(ffaOpponents.map((o) => o.participantId), input.placements, pointsByPlace);
        } else if (status === 'completed' && match.status !== 'completed') {
          throw validationFailed('A free-for-all match is completed by its placements.', [{ field: 'placements', issue: 'required to complete the match' }]);
        }
      } else if (status === 'completed') {
        if (!match.participantAId || !match.participantBId) throw conflict('Both sides must be placed before the match is completed.', 'opponents_missing');
        const missing = next.forfeit ? [] : (['scoreA', 'scoreB'] as const).filter((field) => next[field] == null);
        if (missing.length) throw validationFailed('A completed match needs both scores (or a forfeit).', missing.map((field) => ({ field, issue: 'required to complete the match' })));
        if (generated && !next.forfeit && next.scoreA === next.scoreB && !DRAW_FORMATS.has(match.stage.format)) {
          const field = input.scoreB !== undefined || input.scoreA === undefined ? 'scoreB' : 'scoreA';
          throw validationFailed(`A ${match.stage.format} match cannot end in a draw: send a winning score or a forfeit.`, [{ field, issue: `a draw does not decide a ${match.stage.format} match` }]);
        }
      }
      const currentMaps = match.maps.map((m) => ({ mapId: m.mapId, scoreA: m.scoreA, scoreB: m.scoreB, winner: m.winner }));
      const maps = input.maps?.map((m) => ({ mapId: m.mapId, scoreA: m.scoreA ?? null, scoreB: m.scoreB ?? null, winner: m.winner ?? null })) ?? currentMaps;
      if (input.maps) {
        if (maps.length > match.bestOf) throw validationFailed(`A best-of-${match.bestOf} match has at most ${match.bestOf} maps.`, [{ field: 'maps', issue: `at most ${match.bestOf}` }]);
        const known = new Set((await db.map.findMany({ where: { id: { in: maps.map((m) => m.mapId) } }, select: { id: true } })).map((m) => m.id));
        const unknown = maps.map((m, index) => ({ ...m, index })).filter((m) => !known.has(m.mapId));
        if (unknown.length) throw validationFailed('Unknown maps.', unknown.map(({ index }) => ({ field: `maps.${index}.mapId`, issue: 'unknown map' })));
      }
      const before = { status: match.status, scheduledAt: match.scheduledAt?.toISOString() ?? null, scoreA: match.scoreA, scoreB: match.scoreB, isFreeWin: match.isFreeWin, streamUrl: match.streamUrl, forfeit: match.forfeit, opponents: ffaOpponents };
      const after = { status, ...next, scheduledAt: next.scheduledAt == null ? null : new Date(next.scheduledAt).toISOString(), opponents: opponents ?? ffaOpponents };
      const mapsChanged = !sameJson(maps, currentMaps);
      if (sameJson(before, after) && !mapsChanged) return unchanged(matchId);
      const { started, completed } = status === match.status ? { started: 'keep' as const, completed: 'keep' as const } : timing(match.status, status);
      const [deleteMaps, insertMaps] = REPLACE_MATCH_MAPS_SQL;

      // A bracket match's result moves its winner and loser on (and a corrected one undoes that).
      const progression = generated && (match.winnerToMatchId || match.loserToMatchId) && (status === 'completed' || match.status === 'completed')
        ? await progressionOf(ctx, matchId, { status, scoreA: after.scoreA, scoreB: after.scoreB, forfeit: after.forfeit })
        : null;
      const moved = progression?.changed.filter((m) => m.id !== matchId) ?? [];
      const previous = new Map(progression?.before.map((m) => [m.id, m.status]));
      const reported = { id: matchId, status, scoreA: after.scoreA, scoreB: after.scoreB, forfeit: after.forfeit, participantAId: match.participantAId, participantBId: match.participantBId, opponents: after.opponents };
      // The stage and the event follow their generated matches (the demo world's seeded ones predate this).
      const followUps = !generated
        ? { changes: [], statements: [] }
        : await stageFollowUps(ctx, event, { ...match.stage, bestOf: match.bestOf }, match.groupId, [
            { ...reported, isFreeWin: after.isFreeWin, opponents: after.opponents },
            ...moved.map((m) => ({ id: m.id, status: m.status, participantAId: m.participantA, participantBId: m.participantB, scoreA: m.scoreA, scoreB: m.scoreB, forfeit: m.forfeit, opponents: null, isFreeWin: m.isFreeWin })),
          ], { ...reported, status: match.status, scoreA: match.scoreA, scoreB: match.scoreB, forfeit: match.forfeit as Side | null, isFreeWin: match.isFreeWin, opponents: ffaOpponents }, prefetched);
      return {
        resourceId: matchId,
        changed: true,
        changes: [
          matchUpdated(matchId, reported, match.status),
          ...moved.map((m) => matchUpdated(matchId, { ...m, participantAId: m.participantA, participantBId: m.participantB, opponents: null }, previous.get(m.id)!)),
          ...followUps.changes,
        ],
        statements: [
          {
            text: REPORT_MATCH_SQL,
            values: [matchId, status, after.scheduledAt, after.scoreA, after.scoreB, after.isFreeWin, after.streamUrl, started, completed, after.forfeit, opponents ? JSON.stringify(opponents) : null],
          },
          ...(mapsChanged
            ? [
                { text: deleteMaps, values: [matchId] },
                { text: insertMaps, values: [matchId, maps.map((m) => m.mapId), maps.map((m) => m.scoreA), maps.map((m) => m.scoreB), maps.map((m) => m.winner)] },
              ]
            : []),
          ...(moved.length
            ? [
                {
                  text: UPDATE_PROGRESSED_MATCHES_SQL,
                  values: [
                    moved.map((m) => m.id),
                    moved.map((m) => m.participantA),
                    moved.map((m) => m.participantB),
                    moved.map((m) => m.status),
                    moved.map((m) => m.scoreA),
                    moved.map((m) => m.scoreB),
                    moved.map((m) => m.forfeit),
                  ],
                },
              ]
            : []),
          ...(progression?.reset.length ? [{ text: DELETE_MATCHES_MAPS_SQL, values: [progression.reset] }] : []),
          ...followUps.statements,
        ],
      };
    },
  });
}

/** The report's progression through the bracket, from one read of the matches downstream of it. */
async function progressionOf(ctx: SubgraphContext, matchId: string, outcome: MatchOutcome) {
  const rows = await ctx.sql<BracketMatchRow>(DOWNSTREAM_MATCHES_SQL, [matchId]);
  const before = rows.map(toBracketMatch);
  return { before, ...progress(new Map(before.map((m) => [m.id, m])), matchId, outcome) };
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
