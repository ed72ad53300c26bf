// Published esports events with their stages, groups and map statistics (metered reads).
import { builder } from '../builder.ts';
import './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { esportsEventView, esportsGroupView, esportsMapStatisticsView, esportsStageView } from '../views.ts';
import { PAGED_BY_LIMIT, METERED_CALL } from '../../../platform/graphql/demand-control.ts';
import {
  esportsEvents,
  esportsGroup,
  esportsMapStatistics,
  esportsStages,
  type EsportsEvent,
  type EsportsGroup,
  type EsportsMapStatistics,
  type EsportsStage,
} from '../data.ts';
import { METERED, pageType } from './page.ts';

const fieldsOf = viewFields(builder);

const EsportsEventRef = builder.objectRef<EsportsEvent>('EsportsEvent').implement({ fields: (t) => fieldsOf(t, esportsEventView) });

const EsportsStageRef = builder.objectRef<EsportsStage>('EsportsStage').implement({ fields: (t) => fieldsOf(t, esportsStageView) });
const EsportsGroupRef = builder.objectRef<EsportsGroup>('EsportsGroup').implement({ fields: (t) => fieldsOf(t, esportsGroupView) });
const EsportsMapStatisticsRef = builder.objectRef<EsportsMapStatistics>('EsportsMapStatistics').implement({ fields: (t) => fieldsOf(t, esportsMapStatisticsView) });

const EsportsEventPage = pageType<EsportsEvent>('EsportsEventPage', EsportsEventRef);
const EsportsStagePage = pageType<EsportsStage>('EsportsStagePage', EsportsStageRef);
const EsportsMapStatisticsPage = pageType<EsportsMapStatistics>('EsportsMapStatisticsPage', EsportsMapStatisticsRef);

builder.queryFields((t) => {
  const paging = { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) };
  return {
    esportsEvents: t.field({ type: EsportsEventPage,
      // Nullable: one failing esports field must not void (and so un-deliver) the others, which are metered.
      nullable: true,
      description: `Published esports events. ${METERED}`,
      args: paging,
      directives: { ...PAGED_BY_LIMIT, ...METERED_CALL },
      resolve: (_r, args, ctx) => esportsEvents(ctx, args),
    }),
    esportsEventStages: t.field({
      type: EsportsStagePage,
      nullable: true,
      description: `Stages of an esports event. ${METERED}`,
      args: { eventId: t.arg.id({ required: true }), ...paging },
      directives: { ...PAGED_BY_LIMIT, ...METERED_CALL },
      resolve: (_r, args, ctx) => esportsStages(ctx, String(args.eventId), args),
    }),
    esportsEventMapStatistics: t.field({
      type: EsportsMapStatisticsPage,
      nullable: true,
      description: `Map statistics of an esports event. ${METERED}`,
      args: { eventId: t.arg.id({ required: true }), ...paging },
      directives: { ...PAGED_BY_LIMIT, ...METERED_CALL },
      resolve: (_r, args, ctx) => esportsMapStatistics(ctx, String(args.eventId), args),
    }),
    esportsGroup: t.field({
      type: EsportsGroupRef,
      nullable: true,
      description: `A group of a stage of an esports event; a group outside that stage is not_found. ${METERED}`,
      args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), groupId: t.arg.id({ required: true }) },
      directives: METERED_CALL,
      resolve: (_r, args, ctx) => esportsGroup(ctx, String(args.eventId), String(args.stageId), String(args.groupId)),
    }),
  };
});
