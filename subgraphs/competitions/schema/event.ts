// Event and its stages; one event, and an organisation's events page by page with an ETag.
import type { Event as EventRow, Stage as StageRow } from '../../../platform/db/generated/client.ts';
import { builder } from '../builder.ts';
import { EventStateEnum, EventVisibilityEnum } from './enums.ts';
import { eventDetailView, eventView, stageView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import type { ArgBuilder } from '@pothos/core';
import type { SubgraphSchemaTypes } from '../../../platform/graphql/builder.ts';
import { readableEvent } from '../access.ts';
import { listOrganisationEvents } from '../events/organisation-events.ts';
import { Organisation } from './organisation.ts';
import { stageSettingsView, type StageSeeding } from '../stages/settings.ts';
import { resolvedSettingsSchema, stageSeedingSchema, type ResolvedStageSettings } from '../tournament/index.ts';
import { outputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { conditionalPageType } from './page.ts';

// Generated from the read schemas the REST routes answer with (tournament/views.ts).
const outputType = outputTypes(builder);
const StageSettingsRef = outputType<ResolvedStageSettings>(resolvedSettingsSchema);
const StageSeedingRef = outputType<StageSeeding>(stageSeedingSchema);

const fieldsOf = viewFields(builder);

export const Stage = builder.prismaObject('Stage', {
  fields: (t) =>
    fieldsOf(t, stageView, { settings: StageSettingsRef, seeding: StageSeedingRef }, {
      settings: (stage: StageRow) => stageSettingsView(stage),
      seeding: (stage: StageRow) => (stage.seeding as StageSeeding | null) ?? null,
    }),
});

export const Event = builder.prismaObject('Event', {
  description: eventView.description,
  fields: (t) => ({
    ...fieldsOf(t, eventDetailView),
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
