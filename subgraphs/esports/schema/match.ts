// Published esports matches and their statistics (metered reads).
import { builder } from '../builder.ts';
import { EsportsMatchStatusEnum } from './enums.ts';
import { METERED_CALL } from '../../shared/demand-control.ts';
import { esportsMatch, esportsMatchStatistics, type EsportsMatch, type EsportsMatchStatistics, type EsportsTeam } from '../data.ts';
import { MATCH_STATISTICS_COUNTS } from '../vocabulary.ts';
import { METERED } from './page.ts';

const EsportsTeamRef = builder.objectRef<EsportsTeam>('EsportsTeam').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    score: t.exposeFloat('score', { nullable: true }),
  }),
});
const EsportsMatchRef = builder.objectRef<EsportsMatch>('EsportsMatch').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    eventName: t.exposeString('eventName'),
    scheduledAt: t.exposeString('scheduledAt'),
    status: t.expose('status', { type: EsportsMatchStatusEnum }),
    updatedAt: t.exposeString('updatedAt'),
    bestOf: t.exposeInt('bestOf'),
    teamA: t.field({ type: EsportsTeamRef, resolve: (match) => match.teamA }),
    teamB: t.field({ type: EsportsTeamRef, resolve: (match) => match.teamB }),
    isFreeWin: t.exposeBoolean('isFreeWin'),
    watchUrl: t.exposeString('watchUrl', { nullable: true }),
    youtubeUrl: t.exposeString('youtubeUrl', { nullable: true }),
  }),
});
const EsportsMatchStatisticsRef = builder.objectRef<EsportsMatchStatistics>('EsportsMatchStatistics').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    ...Object.fromEntries(MATCH_STATISTICS_COUNTS.map((name) => [name, t.exposeInt(name)])),
    kost: t.exposeFloat('kost'),
    eps: t.exposeFloat('eps'),
    updatedAt: t.exposeString('updatedAt'),
  }),
});

builder.queryFields((t) => {
  return {
    esportsMatch: t.field({
      type: EsportsMatchRef,
      nullable: true,
      description: `An esports match. ${METERED}`,
      args: { matchId: t.arg.id({ required: true }) },
      directives: METERED_CALL,
      resolve: (_r, args, ctx) => esportsMatch(ctx, String(args.matchId)),
    }),
    esportsMatchStatistics: t.field({
      type: EsportsMatchStatisticsRef,
      nullable: true,
      description: `Statistics of an esports match. ${METERED}`,
      args: { matchId: t.arg.id({ required: true }) },
      directives: METERED_CALL,
      resolve: (_r, args, ctx) => esportsMatchStatistics(ctx, String(args.matchId)),
    }),
  };
});
