// PlayerStatistics: a player's totals and rates over an event, a stage or a group.
import { builder } from '../builder.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { eventPlayerStatistics, type PlayerStatistics } from '../matches/player-statistics.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { playerStatisticsView } from '../views.ts';
import { conditionalPageType } from './page.ts';

const PlayerStatisticsRef = builder.objectRef<PlayerStatistics>('PlayerStatistics').implement({
  description: playerStatisticsView.description,
  fields: (t) => viewFields(builder)(t, playerStatisticsView),
});

const PlayerStatisticsPage = conditionalPageType<PlayerStatistics>('PlayerStatisticsPage', PlayerStatisticsRef);

builder.queryFields((t) => ({
  eventPlayerStatistics: t.field({
    type: PlayerStatisticsPage,
    description: 'Player statistics of an event, a stage or a group, best rating first. While the event is in play the scope may hold at most 200 matches.',
    args: {
      eventId: t.arg.id({ required: true }),
      stageId: t.arg.id(),
      groupId: t.arg.id(),
      cursor: t.arg.string(),
      limit: t.arg.int({ description: '1–100, default 20' }),
      ifNoneMatch: t.arg.string(),
    },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) =>
      eventPlayerStatistics(ctx, {
        ...args,
        eventId: String(args.eventId),
        stageId: args.stageId == null ? null : String(args.stageId),
        groupId: args.groupId == null ? null : String(args.groupId),
      }),
  }),
}));
