// Query fields of the competitions subgraph.
import { notFound } from '../shared/errors.ts';
import { readableEvent, readableOrganisation, readableUser } from './access.ts';
import { builder } from './builder.ts';
import { Event, Organisation, Team, User } from './types.ts';
import type { ConditionalPage } from './organisation-events.ts';
import { listOrganisationEvents } from './organisation-events.ts';
import { eventPlayerStatistics, PLAYER_RATES, PLAYER_TOTALS, type PlayerStatistics } from './player-statistics.ts';
import type { Event as EventRow } from '../shared/db/generated/client.ts';

builder.queryFields((t) => ({
  organisation: t.field({
    type: Organisation,
    description: 'An organisation on which the application has an active installation.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableOrganisation(ctx, String(args.id)),
  }),
  event: t.field({
    type: Event,
    description: "An event of an organisation on which the application has an active installation.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableEvent(ctx, String(args.id)),
  }),
  user: t.field({
    type: User,
    description: 'A user on whom the application has an active installation; any other user is not_found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableUser(ctx, String(args.id)),
  }),
  team: t.field({
    type: Team,
    description: 'A team (public).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.authority();
      const team = await ctx.loaders.team.load(String(args.id));
      if (!team) throw notFound('The team');
      return team;
    },
  }),
}));


// ── lists ────────────────────────────────────────────────────────────────────
const PageMeta = builder.objectRef<{ nextCursor: string | null; hasMore: boolean }>('PageMeta').implement({
  fields: (t) => ({
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last page.' }),
    hasMore: t.exposeBoolean('hasMore'),
  }),
});

const EventPage = builder.objectRef<ConditionalPage<EventRow>>('OrganisationEventPage').implement({
  description: 'A page of an organisation\'s events. When ifNoneMatch matched, notModified is true and data and meta are null.',
  fields: (t) => ({
    etag: t.exposeString('etag'),
    notModified: t.exposeBoolean('notModified'),
    data: t.field({ type: [Event], nullable: true, resolve: (page) => page.data ?? null }),
    meta: t.field({ type: PageMeta, nullable: true, resolve: (page) => page.meta ?? null }),
  }),
});

const PlayerStatisticsRef = builder.objectRef<PlayerStatistics>('PlayerStatistics').implement({
  description: 'A player\'s totals and rates over the matches in scope (formulas in docs/competitions.md).',
  fields: (t) => ({
    userId: t.exposeID('userId', { nullable: true }),
    profileId: t.exposeID('profileId'),
    displayName: t.exposeString('displayName'),
    ...Object.fromEntries(
      PLAYER_TOTALS.map((name) => [name, t.exposeInt(name)]),
    ),
    ...Object.fromEntries(
      PLAYER_RATES.map((name) => [name, t.exposeFloat(name)]),
    ),
  }),
});

const PlayerStatisticsPage = builder.objectRef<ConditionalPage<PlayerStatistics>>('PlayerStatisticsPage').implement({
  fields: (t) => ({
    etag: t.exposeString('etag'),
    notModified: t.exposeBoolean('notModified'),
    data: t.field({ type: [PlayerStatisticsRef], nullable: true, resolve: (page) => page.data ?? null }),
    meta: t.field({ type: PageMeta, nullable: true, resolve: (page) => page.meta ?? null }),
  }),
});

builder.queryFields((t) => ({
  organisationEvents: t.field({
    type: EventPage,
    description: 'Events of an organisation in creation order. Needs an active installation on the organisation.',
    args: {
      organisationId: t.arg.id({ required: true }),
      cursor: t.arg.string(),
      limit: t.arg.int({ description: '1–100, default 20' }),
      visibility: t.arg.string({ description: 'public, unlisted or private' }),
      state: t.arg.string({ description: 'draft, scheduled, live, completed or cancelled' }),
      ifNoneMatch: t.arg.string({ description: 'An ETag of an earlier page: notModified when it is still current.' }),
    },
    resolve: (_root, args, ctx) => listOrganisationEvents(ctx, { ...args, organisationId: String(args.organisationId) }),
  }),
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
    resolve: (_root, args, ctx) =>
      eventPlayerStatistics(ctx, {
        ...args,
        eventId: String(args.eventId),
        stageId: args.stageId == null ? null : String(args.stageId),
        groupId: args.groupId == null ? null : String(args.groupId),
      }),
  }),
}));
