// Matches of an event as overlays need them: both opponents (team, logo, score, result, forfeit),
// the maps played, timing, best-of and stream links.
import { foundOr } from '../../shared/errors.ts';
import { builder } from '../builder.ts';
import { eventMatch, matchPage, type MatchRow } from '../matches.ts';
import { Event } from './event.ts';
import { pageType } from './page.ts';

type Side = 'a' | 'b';
interface OpponentView {
  match: MatchRow;
  side: Side;
  participantId: string;
}

/** win, loss or draw once the match is completed; null before. */
function resultOf(match: MatchRow, side: Side): string | null {
  if (match.status !== 'completed' || match.scoreA == null || match.scoreB == null) return null;
  const [own, other] = side === 'a' ? [match.scoreA, match.scoreB] : [match.scoreB, match.scoreA];
  return own > other ? 'win' : own < other ? 'loss' : 'draw';
}

// Everything below resolves from the match's own row (matches.ts reads teams and maps with it).
const Opponent = builder.objectRef<OpponentView>('MatchOpponent').implement({
  description: 'One side of a match.',
  fields: (t) => ({
    participantId: t.exposeID('participantId'),
    teamId: t.id({ nullable: true, resolve: (o) => (o.side === 'a' ? o.match.teamAId : o.match.teamBId) }),
    name: t.string({ nullable: true, description: "The team's name.", resolve: (o) => (o.side === 'a' ? o.match.teamAName : o.match.teamBName) }),
    logoUrl: t.string({ nullable: true, resolve: (o) => (o.side === 'a' ? o.match.teamALogoUrl : o.match.teamBLogoUrl) }),
    score: t.int({ nullable: true, resolve: (o) => (o.side === 'a' ? o.match.scoreA : o.match.scoreB) }),
    result: t.string({ nullable: true, description: 'win, loss or draw once completed.', resolve: (o) => resultOf(o.match, o.side) }),
    forfeit: t.boolean({
      description: 'True when this side lost by forfeit (a free win for the other side).',
      resolve: (o) => o.match.isFreeWin && resultOf(o.match, o.side) === 'loss',
    }),
  }),
});

const MatchMapRef = builder.objectRef<MatchRow['maps'][number]>('MatchMap').implement({
  description: 'A map of a match, in play order.',
  fields: (t) => ({
    position: t.exposeInt('position'),
    mapId: t.exposeID('mapId'),
    mapName: t.exposeString('mapName'),
    scoreA: t.exposeInt('scoreA', { nullable: true }),
    scoreB: t.exposeInt('scoreB', { nullable: true }),
    winner: t.exposeString('winner', { nullable: true, description: 'a, b or null' }),
  }),
});

const opponent = (match: MatchRow, side: Side): OpponentView | null => {
  const participantId = side === 'a' ? match.participantAId : match.participantBId;
  return participantId ? { match, side, participantId } : null;
};

export const Match = builder.objectRef<MatchRow>('Match').implement({
  description: 'A match of an event.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    stageId: t.exposeID('stageId'),
    groupId: t.exposeID('groupId', { nullable: true }),
    roundId: t.exposeID('roundId', { nullable: true }),
    status: t.exposeString('status'),
    bestOf: t.exposeInt('bestOf'),
    isFreeWin: t.exposeBoolean('isFreeWin'),
    opponentA: t.field({ type: Opponent, nullable: true, resolve: (match) => opponent(match, 'a') }),
    opponentB: t.field({ type: Opponent, nullable: true, resolve: (match) => opponent(match, 'b') }),
    maps: t.field({ type: [MatchMapRef], resolve: (match) => match.maps }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    streamUrl: t.exposeString('streamUrl', { nullable: true, description: "Where this match is streamed; else the event's broadcast stream." }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const MatchPage = pageType('MatchPage', Match);

builder.objectFields(Event, (t) => ({
  matchPage: t.field({
    type: MatchPage,
    description: 'Matches in creation order; filters stageId, groupId, roundId, status.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), stageId: t.arg.id(), groupId: t.arg.id(), roundId: t.arg.id(), status: t.arg.string() },
    resolve: (event, args, ctx) =>
      matchPage(ctx, event.id, { ...args, stageId: args.stageId == null ? null : String(args.stageId), groupId: args.groupId == null ? null : String(args.groupId), roundId: args.roundId == null ? null : String(args.roundId) }),
  }),
  match: t.field({
    type: Match,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(eventMatch(ctx, event.id, String(args.id)), 'The match'),
  }),
}));
