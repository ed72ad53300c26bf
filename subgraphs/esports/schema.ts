// The esports subgraph: published esports data (metered per call), its import by data providers,
// and the usage an application can read about itself.
import { createBuilder } from '../shared/builder.ts';
import { requireScope } from '../shared/authority.ts';
import type { Page } from '../shared/pagination.ts';
import type { ObjectRef, SchemaTypes } from '@pothos/core';
import {
  esportsEvents,
  esportsGroup,
  esportsMapStatistics,
  esportsMatch,
  esportsMatchStatistics,
  esportsStages,
  MATCH_STATISTICS_COUNTS,
  type EsportsEvent,
  type EsportsGroup,
  type EsportsMapStatistics,
  type EsportsMatch,
  type EsportsMatchStatistics,
  type EsportsStage,
  type EsportsTeam,
} from './data.ts';
import { importEsportsData, type ImportResult } from './import.ts';
import { METRICS, usageOf, type UsageDay, type UsageReport } from './usage.ts';

export const builder = createBuilder();
type BuilderTypesOf = typeof builder extends PothosSchemaTypesBuilder<infer T> ? T : SchemaTypes;
type PothosSchemaTypesBuilder<T extends SchemaTypes> = PothosSchemaTypes.SchemaBuilder<T>;

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
    status: t.exposeString('status'),
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
    status: t.exposeString('status'),
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

const PageMeta = builder.objectRef<Page<unknown>['meta']>('EsportsPageMeta').implement({
  fields: (t) => ({ nextCursor: t.exposeString('nextCursor', { nullable: true }), hasMore: t.exposeBoolean('hasMore') }),
});

function pageType<T>(name: string, item: ObjectRef<BuilderTypesOf, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data }),
      meta: t.field({ type: PageMeta, resolve: (page) => page.meta }),
    }),
  });
}

const EsportsEventPage = pageType<EsportsEvent>('EsportsEventPage', EsportsEventRef);
const EsportsStagePage = pageType<EsportsStage>('EsportsStagePage', EsportsStageRef);
const EsportsMapStatisticsPage = pageType<EsportsMapStatistics>('EsportsMapStatisticsPage', EsportsMapStatisticsRef);

builder.queryFields((t) => {
  const paging = { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) };
  const metered = 'Metered: one esports_calls unit when it succeeds. Send svc-installation-id.';
  return {
    esportsEvents: t.field({ type: EsportsEventPage,
      // Nullable: one failing esports field must not void (and so un-deliver) the others, which are metered.
      nullable: true,
      description: `Published esports events. ${metered}`, args: paging, resolve: (_r, args, ctx) => esportsEvents(ctx, args) }),
    esportsEventStages: t.field({
      type: EsportsStagePage,
      nullable: true,
      description: `Stages of an esports event. ${metered}`,
      args: { eventId: t.arg.id({ required: true }), ...paging },
      resolve: (_r, args, ctx) => esportsStages(ctx, String(args.eventId), args),
    }),
    esportsEventMapStatistics: t.field({
      type: EsportsMapStatisticsPage,
      nullable: true,
      description: `Map statistics of an esports event. ${metered}`,
      args: { eventId: t.arg.id({ required: true }), ...paging },
      resolve: (_r, args, ctx) => esportsMapStatistics(ctx, String(args.eventId), args),
    }),
    esportsGroup: t.field({
      type: EsportsGroupRef,
      nullable: true,
      description: `A group of a stage of an esports event; a group outside that stage is not_found. ${metered}`,
      args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), groupId: t.arg.id({ required: true }) },
      resolve: (_r, args, ctx) => esportsGroup(ctx, String(args.eventId), String(args.stageId), String(args.groupId)),
    }),
    esportsMatch: t.field({
      type: EsportsMatchRef,
      nullable: true,
      description: `An esports match. ${metered}`,
      args: { matchId: t.arg.id({ required: true }) },
      resolve: (_r, args, ctx) => esportsMatch(ctx, String(args.matchId)),
    }),
    esportsMatchStatistics: t.field({
      type: EsportsMatchStatisticsRef,
      nullable: true,
      description: `Statistics of an esports match. ${metered}`,
      args: { matchId: t.arg.id({ required: true }) },
      resolve: (_r, args, ctx) => esportsMatchStatistics(ctx, String(args.matchId)),
    }),
  };
});

const ImportResultRef = builder.objectRef<ImportResult>('EsportsImportResult').implement({
  fields: (t) => ({
    importId: t.exposeID('importId'),
    created: t.exposeInt('created'),
    updated: t.exposeInt('updated'),
    unchanged: t.exposeInt('unchanged'),
  }),
});

builder.mutationType({});
builder.mutationFields((t) => ({
  importEsportsData: t.field({
    type: ImportResultRef,
    description: 'Publishes esports data (events, stages, groups, matches, match and map statistics): validated record by record, upserted by id. Needs the scope esports:publish.',
    args: { data: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_r, args, ctx) => {
      const authority = await ctx.authority();
      requireScope(authority, 'esports:publish');
      return importEsportsData(ctx.db, args.data, `application:${authority.applicationId}`);
    },
  }),
}));

const UsageDayRef = builder.objectRef<UsageDay>('UsageDay').implement({
  description: 'Units used through one installation on one UTC day.',
  fields: (t) => ({ day: t.exposeString('day'), installationId: t.exposeID('installationId'), units: t.exposeInt('units') }),
});

const UsageReportRef = builder.objectRef<UsageReport>('UsageReport').implement({
  fields: (t) => ({
    metric: t.exposeString('metric'),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    total: t.exposeInt('total'),
    days: t.field({ type: [UsageDayRef], resolve: (report) => report.days }),
  }),
});

const UsageMetric = builder.enumType('UsageMetric', { values: METRICS });

// Application is owned by the developer subgraph; this one adds what it meters.
builder.externalRef('Application', builder.selection<{ id: string }>('id')).implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    usage: t.field({
      type: UsageReportRef,
      description: 'Metered usage per UTC day and installation, oldest first. Only the application itself may read it.',
      args: {
        metric: t.arg({ type: UsageMetric, required: true }),
        from: t.arg.string({ description: 'First day, YYYY-MM-DD (UTC); the first day of the current UTC month by default.' }),
        to: t.arg.string({ description: 'Last day, YYYY-MM-DD (UTC); the last day of the current UTC month by default; at most 366 days from from.' }),
      },
      resolve: (app, args, ctx) => usageOf(ctx, app.id, args.metric, args.from, args.to),
    }),
  }),
});

export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
