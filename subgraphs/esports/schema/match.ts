// Published esports matches and their statistics (metered reads).
import { builder } from '../builder.ts';
import './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { esportsMatchStatisticsView, esportsMatchView, esportsTeamView } from '../views.ts';
import { METERED_CALL } from '../../../platform/graphql/demand-control.ts';
import { esportsMatch, esportsMatchStatistics, type EsportsMatch, type EsportsMatchStatistics } from '../data.ts';
import { METERED } from './page.ts';

const fieldsOf = viewFields(builder);

const EsportsTeamRef = builder.objectRef<EsportsMatch['teamA']>('EsportsTeam').implement({ fields: (t) => fieldsOf(t, esportsTeamView) });

const EsportsMatchRef = builder.objectRef<EsportsMatch>('EsportsMatch').implement({
  fields: (t) => fieldsOf(t, esportsMatchView, { teamA: EsportsTeamRef, teamB: EsportsTeamRef }),
});

const EsportsMatchStatisticsRef = builder.objectRef<EsportsMatchStatistics>('EsportsMatchStatistics').implement({
  fields: (t) => fieldsOf(t, esportsMatchStatisticsView),
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
