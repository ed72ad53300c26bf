// Matches of an event as overlays need them: both opponents (team, logo, score, result, forfeit),
// the maps played, timing, best-of and stream links.
import { foundOr } from '../../../platform/api/errors.ts';
import { builder } from '../builder.ts';
import { MatchStatusEnum } from './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { ffaOpponentView, matchMapView, matchOpponentView, matchView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { eventMatch, matchPage, stageMatchPage, type MatchRow } from '../matches/reads.ts';
import type { MatchSourceView } from '../matches/statements.ts';
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

// Everything below resolves from the match's own row (matches/reads.ts reads teams and maps with it).
const fieldsOf = viewFields(builder);
const sideOf = <A, B>(o: OpponentView, a: A, b: B) => (o.side === 'a' ? a : b);

// Everything below resolves from the match's own row (matches/reads.ts reads teams and maps with it).
const Opponent = builder.objectRef<OpponentView>('MatchOpponent').implement({
  description: matchOpponentView.description,
  fields: (t) =>
    fieldsOf(t, matchOpponentView, {}, {
      teamId: (o: OpponentView) => sideOf(o, o.match.teamAId, o.match.teamBId),
      name: (o: OpponentView) => sideOf(o, o.match.teamAName, o.match.teamBName),
      logoUrl: (o: OpponentView) => sideOf(o, o.match.teamALogoUrl, o.match.teamBLogoUrl),
      score: (o: OpponentView) => sideOf(o, o.match.scoreA, o.match.scoreB),
      result: (o: OpponentView) => resultOf(o.match, o.side),
      forfeit: (o: OpponentView) => (o.match.forfeit ? o.match.forfeit === o.side : o.match.isFreeWin && resultOf(o.match, o.side) === 'loss'),
    }),
});

const MatchMapRef = builder.objectRef<MatchRow['maps'][number]>('MatchMap').implement({
  description: matchMapView.description,
  fields: (t) => fieldsOf(t, matchMapView),
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
  description: ffaOpponentView.description,
  fields: (t) => fieldsOf(t, ffaOpponentView),
});

const linkOf = (matchId: string | null, slot: string | null) => (matchId && slot ? { matchId, slot } : null);

const opponent = (match: MatchRow, side: Side): OpponentView | null => {
  const participantId = side === 'a' ? match.participantAId : match.participantBId;
  return participantId ? { match, side, participantId } : null;
};

export const Match = builder.objectRef<MatchRow>('Match').implement({
  description: matchView.description,
  fields: (t) =>
    fieldsOf(t, matchView, { opponentA: Opponent, opponentB: Opponent, maps: [MatchMapRef], sourceA: SlotSourceRef, sourceB: SlotSourceRef, opponents: [FfaOpponentRef] }, {
      opponentA: (match: MatchRow) => opponent(match, 'a'),
      opponentB: (match: MatchRow) => opponent(match, 'b'),
      winnerTo: (m: MatchRow) => linkOf(m.winnerToMatchId, m.winnerToSlot),
      loserTo: (m: MatchRow) => linkOf(m.loserToMatchId, m.loserToSlot),
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
