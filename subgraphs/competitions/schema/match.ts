// Matches of an event as overlays need them: both opponents (team, logo, score, result, forfeit),
// the maps played, timing, best-of and stream links.
import { foundOr } from '../../shared/errors.ts';
import { builder } from '../builder.ts';
import { BracketEnum, MatchResultEnum, MatchSideEnum, MatchStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../shared/demand-control.ts';
import { eventMatch, matchPage, stageMatchPage, type MatchRow } from '../matches.ts';
import type { MatchSourceView } from '../statements.ts';
import { Event } from './event.ts';
import { conditionalPageType, pageType } from './page.ts';

type Side = 'a' | 'b';
interface OpponentView {
  match: MatchRow;
  side: Side;
  participantId: string;
}

/** win, loss or draw once the match is completed; null before. A forfeit decides whatever the scores. */
function resultOf(match: MatchRow, side: Side): string | null {
  if (match.status !== 'completed') return null;
  if (match.forfeit) return match.forfeit === side ? 'loss' : 'win';
  if (match.scoreA == null || match.scoreB == null) return null;
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
    result: t.field({ type: MatchResultEnum, nullable: true, description: 'Once completed.', resolve: (o) => resultOf(o.match, o.side) }),
    forfeit: t.boolean({
      description: 'True when this side lost by forfeit (a free win for the other side).',
      resolve: (o) => (o.match.forfeit ? o.match.forfeit === o.side : o.match.isFreeWin && resultOf(o.match, o.side) === 'loss'),
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
    winner: t.expose('winner', { type: MatchSideEnum, nullable: true }),
  }),
});

const MatchLinkRef = builder.objectRef<{ matchId: string; slot: string }>('MatchLink').implement({
  description: 'Where the winner or loser of a match goes next: a match and its slot.',
  fields: (t) => ({ matchId: t.exposeID('matchId'), slot: t.expose('slot', { type: MatchSideEnum }) }),
});

// A slot's source as stored: each kind its own type, so an answer holds only the fields of its kind.
const SeedSourceRef = builder.objectRef<Extract<MatchSourceView, { type: 'seed' }>>('SeedSource').implement({
  description: 'A slot filled by a seed of the stage.',
  fields: (t) => ({ type: t.exposeString('type', { description: 'seed' }), seed: t.exposeInt('seed', { description: 'A seed of the stage, 1 first.' }) }),
});
const MatchResultSourceRef = builder.objectRef<Extract<MatchSourceView, { type: 'winner' | 'loser' }>>('MatchSource').implement({
  description: 'A slot filled by the winner or the loser of another match.',
  fields: (t) => ({ type: t.exposeString('type', { description: 'winner or loser' }), matchId: t.exposeID('matchId') }),
});
const SlotSourceRef = builder.unionType('SlotSource', {
  description: 'Who fills a slot of a generated match: a seed of the stage, or the winner or loser of another match.',
  types: [SeedSourceRef, MatchResultSourceRef],
  // By name rather than isTypeOf: compiled operations (graphql-jit) pass resolveType no schema to search.
  resolveType: (source) => (source.type === 'seed' ? 'SeedSource' : 'MatchSource'),
});

const FfaOpponentRef = builder.objectRef<NonNullable<MatchRow['opponents']>[number]>('FfaOpponent').implement({
  description: 'A participant of a free-for-all match, best seed first.',
  fields: (t) => ({
    participantId: t.exposeID('participantId'),
    place: t.exposeInt('place', { nullable: true, description: 'Finishing place once known (1 for a free win).' }),
    points: t.exposeInt('points', { nullable: true }),
  }),
});

const linkOf = (matchId: string | null, slot: string | null) => (matchId && slot ? { matchId, slot } : null);

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
    status: t.expose('status', { type: MatchStatusEnum }),
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
    roundNumber: t.exposeInt('roundNumber', { nullable: true, description: "The match's round's number (restarting per group and bracket); null without a round." }),
    position: t.exposeInt('position', { nullable: true, description: 'Generated matches: 1-based position within the round.' }),
    bracket: t.expose('bracket', { type: BracketEnum, nullable: true, description: 'Null outside elimination brackets.' }),
    winnerTo: t.field({ type: MatchLinkRef, nullable: true, description: 'Where the winner goes next.', resolve: (m) => linkOf(m.winnerToMatchId, m.winnerToSlot) }),
    loserTo: t.field({ type: MatchLinkRef, nullable: true, description: 'Where the loser goes next (double elimination, third place match).', resolve: (m) => linkOf(m.loserToMatchId, m.loserToSlot) }),
    sourceA: t.field({ type: SlotSourceRef, nullable: true, description: 'Who fills slot a; null: nobody (a bye) or not generated.', resolve: (m) => m.sourceA }),
    sourceB: t.field({ type: SlotSourceRef, nullable: true, description: 'Who fills slot b; null: nobody (a bye) or not generated.', resolve: (m) => m.sourceB }),
    opponents: t.field({ type: [FfaOpponentRef], nullable: true, description: 'Free-for-all matches: every participant, best seed first; null for duels.', resolve: (m) => m.opponents }),
  }),
});

const MatchPage = pageType('MatchPage', Match);
const StageMatchPage = conditionalPageType<MatchRow>('StageMatchPage', Match, "A page of a stage's matches in bracket order. When ifNoneMatch matched, notModified is true and data and meta are null.");

builder.queryFields((t) => ({
  stageMatches: t.field({
    type: StageMatchPage,
    description: "A stage's matches in bracket order: winners, losers, grand_final, third_place, then round number, group position and position. Needs an active installation on the event or its organisation.",
    args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), ifNoneMatch: t.arg.string() },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) => stageMatchPage(ctx, { ...args, eventId: String(args.eventId), stageId: String(args.stageId) }),
  }),
}));

builder.objectFields(Event, (t) => ({
  matchPage: t.field({
    type: MatchPage,
    description: 'Matches in creation order; filters stageId, groupId, roundId, status.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), stageId: t.arg.id(), groupId: t.arg.id(), roundId: t.arg.id(), status: t.arg({ type: MatchStatusEnum }) },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      matchPage(ctx, event.id, { ...args, stageId: args.stageId == null ? null : String(args.stageId), groupId: args.groupId == null ? null : String(args.groupId), roundId: args.roundId == null ? null : String(args.roundId) }),
  }),
  match: t.field({
    type: Match,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(eventMatch(ctx, event.id, String(args.id)), 'The match'),
  }),
}));
