// Event and its stages; one event, and an organisation's events page by page with an ETag.
import type { Event as EventRow } from '../../shared/db/generated/client.ts';
import { builder } from '../builder.ts';
import { EventStateEnum, EventVisibilityEnum, StageFormatEnum, StageStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../shared/demand-control.ts';
import type { ArgBuilder } from '@pothos/core';
import type { SubgraphSchemaTypes } from '../../shared/builder.ts';
import { readableEvent } from '../access.ts';
import { listOrganisationEvents } from '../organisation-events.ts';
import { Organisation } from './organisation.ts';
import { stageSettingsView, type StageSeeding } from '../stage-start.ts';
import { resolvedSettingsSchema, stageSeedingSchema, type ResolvedStageSettings } from '../tournament/index.ts';
import { outputTypes } from '../../shared/zod-graphql.ts';
import { conditionalPageType } from './page.ts';

// Generated from the read schemas the REST routes answer with (tournament/views.ts).
const outputType = outputTypes(builder);
const StageSettingsRef = outputType<ResolvedStageSettings>(resolvedSettingsSchema);
const StageSeedingRef = outputType<StageSeeding>(stageSeedingSchema);

export const Stage = builder.prismaObject('Stage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    name: t.exposeString('name'),
    format: t.expose('format', { type: StageFormatEnum }),
    bestOf: t.exposeInt('bestOf'),
    position: t.exposeInt('position'),
    status: t.expose('status', { type: StageStatusEnum }),
    settings: t.field({ type: StageSettingsRef, resolve: (stage) => stageSettingsView(stage) }),
    seeding: t.field({ type: StageSeedingRef, nullable: true, resolve: (stage) => (stage.seeding as StageSeeding | null) ?? null }),
  }),
});

export const Event = builder.prismaObject('Event', {
  description: 'An event of an organisation.',
  fields: (t) => ({
    id: t.exposeID('id'),
    organisationId: t.exposeID('organisationId'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    type: t.exposeString('type'),
    visibility: t.expose('visibility', { type: EventVisibilityEnum }),
    state: t.expose('state', { type: EventStateEnum }),
    platform: t.exposeString('platform'),
    currency: t.exposeString('currency'),
    region: t.exposeString('region', { nullable: true }),
    bannerUrl: t.exposeString('bannerUrl', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    game: t.exposeString('game', { nullable: true, description: 'The game played, e.g. cs2.' }),
    timezone: t.exposeString('timezone', { description: 'The IANA time zone the schedule is planned in, e.g. Europe/Berlin.' }),
    startsAt: t.expose('startsAt', { type: 'DateTime', nullable: true }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true }),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    primaryColor: t.exposeString('primaryColor', { nullable: true, description: 'Brand colour as #rrggbb.' }),
    secondaryColor: t.exposeString('secondaryColor', { nullable: true, description: 'Brand colour as #rrggbb.' }),
    firstStageId: t.exposeID('firstStageId', { nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    revision: t.exposeInt('revision'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    organisation: t.field({
      type: Organisation,
      resolve: async (event, _args, ctx) => (await ctx.loaders.organisation.load(event.organisationId))!,
    }),
    stages: t.field({ type: [Stage], resolve: (event, _args, ctx) => ctx.loaders.stagesByEvent.load(event.id) }),
  }),
});
builder.asEntity(Event, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.event.load(ref.id),
});

export const EventPage = conditionalPageType<EventRow>(
  'OrganisationEventPage',
  Event,
  "A page of an organisation's events. When ifNoneMatch matched, notModified is true and data and meta are null.",
);

/** The arguments of an event list (v2 organisationEvents, v1 apiKey.events). */
export const eventListArgs = (arg: ArgBuilder<SubgraphSchemaTypes>) => ({
  cursor: arg.string(),
  limit: arg.int({ description: '1–100, default 20' }),
  visibility: arg({ type: EventVisibilityEnum }),
  state: arg({ type: EventStateEnum }),
  ifNoneMatch: arg.string({ description: 'An ETag of an earlier page: notModified when it is still current.' }),
});

builder.queryFields((t) => ({
  event: t.field({
    type: Event,
    description: "An event of an organisation on which the application has an active installation.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableEvent(ctx, String(args.id)),
  }),
  organisationEvents: t.field({
    type: EventPage,
    description: 'Events of an organisation in creation order. Needs an active installation on the organisation.',
    args: { organisationId: t.arg.id({ required: true }), ...eventListArgs(t.arg) },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) => listOrganisationEvents(ctx, { ...args, organisationId: String(args.organisationId) }),
  }),
}));
