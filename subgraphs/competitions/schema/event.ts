// Event and its stages; one event, and an organisation's events page by page with an ETag.
import type { Event as EventRow } from '../../shared/db/generated/client.ts';
import { builder } from '../builder.ts';
import type { ArgBuilder } from '@pothos/core';
import type { SubgraphSchemaTypes } from '../../shared/builder.ts';
import { readableEvent } from '../access.ts';
import { listOrganisationEvents } from '../organisation-events.ts';
import { Organisation } from './organisation.ts';
import { stageSettingsView, type StageSeeding } from '../stage-start.ts';
import type { PointsTable, ResolvedStageSettings } from '../tournament/index.ts';
import { conditionalPageType } from './page.ts';

const StagePoints = builder.objectRef<PointsTable>('StagePoints').implement({
  description: 'Points per match result.',
  fields: (t) => ({ win: t.exposeInt('win'), draw: t.exposeInt('draw'), loss: t.exposeInt('loss') }),
});

const StageSettingsRef = builder.objectRef<ResolvedStageSettings>('StageSettings').implement({
  description: 'The stage settings with every default filled (docs/tournaments.md); a setting that does not apply to the format is null.',
  fields: (t) => ({
    seeding: t.exposeString('seeding', { description: 'registration, random, manual or previous_stage' }),
    qualifiers: t.int({ nullable: true, resolve: (s) => s.qualifiers ?? null }),
    thirdPlaceMatch: t.boolean({ nullable: true, description: 'single_elimination', resolve: (s) => s.thirdPlaceMatch ?? null }),
    grandFinal: t.string({ nullable: true, description: 'double_elimination: simple, double or none', resolve: (s) => s.grandFinal ?? null }),
    legs: t.int({ nullable: true, description: 'round_robin, league', resolve: (s) => s.legs ?? null }),
    rounds: t.int({ nullable: true, description: 'swiss; null until the participant count is known at start when not set', resolve: (s) => s.rounds ?? null }),
    points: t.field({ type: StagePoints, nullable: true, description: 'round_robin, league, swiss', resolve: (s) => s.points ?? null }),
    tiebreakers: t.stringList({ nullable: true, resolve: (s) => s.tiebreakers ?? null }),
    participantsPerMatch: t.int({ nullable: true, description: 'ffa; null: everyone in one match', resolve: (s) => s.participantsPerMatch ?? null }),
    pointsByPlace: t.intList({ nullable: true, description: 'ffa', resolve: (s) => s.pointsByPlace ?? null }),
  }),
});

const StageSeedingGroup = builder.objectRef<{ groupId: string; participantIds: string[] }>('StageSeedingGroup').implement({
  fields: (t) => ({ groupId: t.exposeID('groupId'), participantIds: t.exposeIDList('participantIds') }),
});

const StageSeedingRef = builder.objectRef<StageSeeding>('StageSeeding').implement({
  description: 'The seeding of a stage: a manual order set before start, then the order frozen at start.',
  fields: (t) => ({
    method: t.exposeString('method', { description: 'registration, random, manual or previous_stage' }),
    randomSeed: t.float({ nullable: true, description: 'random: the recorded seed of the shuffle, an integer in [0, 2^32); the same seed gives the same order.', resolve: (s) => s.randomSeed }),
    participantIds: t.exposeIDList('participantIds', { description: 'Seed 1 first.' }),
    groups: t.field({ type: [StageSeedingGroup], nullable: true, description: 'Round robin stages with groups: each group, best seed first.', resolve: (s) => s.groups }),
  }),
});

export const Stage = builder.prismaObject('Stage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    name: t.exposeString('name'),
    format: t.exposeString('format'),
    bestOf: t.exposeInt('bestOf'),
    position: t.exposeInt('position'),
    status: t.exposeString('status', { description: 'pending, running or completed' }),
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
    visibility: t.exposeString('visibility'),
    state: t.exposeString('state'),
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
  visibility: arg.string({ description: 'public, unlisted or private' }),
  state: arg.string({ description: 'draft, scheduled, live, completed or cancelled' }),
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
    resolve: (_root, args, ctx) => listOrganisationEvents(ctx, { ...args, organisationId: String(args.organisationId) }),
  }),
}));
