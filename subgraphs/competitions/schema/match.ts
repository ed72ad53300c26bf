// Matches of an event as overlays need them: both opponents (team, logo, score, result, forfeit),
// the maps played, timing, best-of and stream links.
import type { Match as MatchRow } from '../../shared/db/generated/client.ts';
import type { SubgraphContext } from '../../shared/context.ts';
import { foundOr } from '../../shared/errors.ts';
import { builder } from '../builder.ts';
import { keysetPage } from '../../shared/pagination.ts';
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

const team = async (ctx: SubgraphContext, participantId: string) => {
  const participant = await ctx.loaders.participant.load(participantId);
  return participant ? ctx.loaders.team.load(participant.teamId) : null;
};

const Opponent = builder.objectRef<OpponentView>('MatchOpponent').implement({
  description: 'One side of a match.',
  fields: (t) => ({
    participantId: t.exposeID('participantId'),
    teamId: t.id({ nullable: true, resolve: async (o, _args, ctx) => (await ctx.loaders.participant.load(o.participantId))?.teamId ?? null }),
    name: t.string({ nullable: true, description: "The team's name.", resolve: async (o, _args, ctx) => (await team(ctx, o.participantId))?.name ?? null }),
    logoUrl: t.string({ nullable: true, resolve: async (o, _args, ctx) => (await team(ctx, o.participantId))?.logoUrl ?? null }),
    score: t.int({ nullable: true, resolve: (o) => (o.side === 'a' ? o.match.scoreA : o.match.scoreB) }),
    result: t.string({ nullable: true, description: 'win, loss or draw once completed.', resolve: (o) => resultOf(o.match, o.side) }),
    forfeit: t.boolean({
      description: 'True when this side lost by forfeit (a free win for the other side).',
      resolve: (o) => o.match.isFreeWin && resultOf(o.match, o.side) === 'loss',
    }),
  }),
});

const MatchMapRef = builder.prismaObject('MatchMap', {
  description: 'A map of a match, in play order.',
  fields: (t) => ({
    position: t.exposeInt('position'),
    mapId: t.exposeID('mapId'),
    mapName: t.string({ resolve: async (row, _args, ctx) => (await ctx.loaders.map.load(row.mapId))?.name ?? row.mapId }),
    scoreA: t.exposeInt('scoreA', { nullable: true }),
    scoreB: t.exposeInt('scoreB', { nullable: true }),
    winner: t.exposeString('winner', { nullable: true, description: 'a, b or null' }),
  }),
});

const opponent = (match: MatchRow, side: Side): OpponentView | null => {
  const participantId = side === 'a' ? match.participantAId : match.participantBId;
  return participantId ? { match, side, participantId } : null;
};

export const Match = builder.prismaObject('Match', {
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
    maps: t.field({ type: [MatchMapRef], resolve: (match, _args, ctx) => ctx.loaders.mapsByMatch.load(match.id) }),
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
      keysetPage({
        binding: `matches|${event.id}|${args.stageId ?? ''}|${args.groupId ?? ''}|${args.roundId ?? ''}|${args.status ?? ''}`,
        args,
        order: ['createdAt', 'id'],
        where: {
          eventId: event.id,
          ...(args.stageId ? { stageId: String(args.stageId) } : {}),
          ...(args.groupId ? { groupId: String(args.groupId) } : {}),
          ...(args.roundId ? { roundId: String(args.roundId) } : {}),
          ...(args.status ? { status: args.status } : {}),
        },
        find: (where, orderBy, take) => ctx.db.match.findMany({ where, orderBy, take }),
      }),
  }),
  match: t.field({
    type: Match,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.match.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The match'),
  }),
}));
