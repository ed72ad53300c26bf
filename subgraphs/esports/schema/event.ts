// Published esports events with their stages, groups and map statistics (metered reads).
import { builder } from '../builder.ts';
import { EsportsStageStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT, METERED_CALL } from '../../shared/demand-control.ts';
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

const EsportsEventRef = builder.objectRef<EsportsEvent>('EsportsEvent').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    updatedAt: t.exposeString('updatedAt'),
    shortName: t.exposeString('shortName', { nullable: true }),
    region: t.exposeString('region', { nullable: true }),
    phase: t.exposeString('phase', { nullable: true }),
    location: t.exposeString('location', { nullable: true }),
    imageUrl: t.exposeString('imageUrl', { nullable: true }),
    darkImageUrl: t.exposeString('darkImageUrl', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    startsAt: t.exposeString('startsAt', { nullable: true }),
    endsAt: t.exposeString('endsAt', { nullable: true }),
  }),
});
const EsportsStageRef = builder.objectRef<EsportsStage>('EsportsStage').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: EsportsStageStatusEnum }),
    format: t.exposeString('format'),
    updatedAt: t.exposeString('updatedAt'),
    translationKey: t.exposeString('translationKey', { nullable: true }),
    startsAt: t.exposeString('startsAt', { nullable: true }),
    endsAt: t.exposeString('endsAt', { nullable: true }),
    position: t.exposeInt('position'),
  }),
});
const EsportsGroupRef = builder.objectRef<EsportsGroup>('EsportsGroup').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    stageId: t.exposeID('stageId'),
    name: t.exposeString('name'),
    updatedAt: t.exposeString('updatedAt'),
    position: t.exposeInt('position'),
    standingCount: t.exposeInt('standingCount'),
    roundCount: t.exposeInt('roundCount'),
  }),
});
const EsportsMapStatisticsRef = builder.objectRef<EsportsMapStatistics>('EsportsMapStatistics').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    updatedAt: t.exposeString('updatedAt'),
    matchesPlayed: t.exposeInt('matchesPlayed'),
    mapsPlayed: t.exposeInt('mapsPlayed'),
    roundsPlayed: t.exposeInt('roundsPlayed'),
    attackWins: t.exposeInt('attackWins'),
    defenseWins: t.exposeInt('defenseWins'),
  }),
});

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
