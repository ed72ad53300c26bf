// Object types of the competitions subgraph and the entities it owns.
import { builder } from './builder.ts';

export const Organisation = builder.prismaObject('Organisation', {
  description: 'An organisation that runs events.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
builder.asEntity(Organisation, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.organisation.load(ref.id),
});

// Public profile fields only: e-mail and authentication data never leave the database.
export const User = builder.prismaObject('User', {
  description: 'A user profile: public fields only.',
  fields: (t) => ({
    id: t.exposeID('id'),
    displayName: t.exposeString('displayName'),
    username: t.exposeString('username', { nullable: true }),
    imageUrl: t.exposeString('imageUrl', { nullable: true }),
    nationality: t.exposeString('nationality', { nullable: true }),
    primaryPlatform: t.exposeString('primaryPlatform', { nullable: true }),
    platforms: t.exposeStringList('platforms'),
  }),
});
builder.asEntity(User, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.user.load(ref.id),
});

export const TeamMember = builder.prismaObject('TeamMember', {
  fields: (t) => ({
    role: t.exposeString('role'),
    user: t.field({ type: User, resolve: async (member, _args, ctx) => (await ctx.loaders.user.load(member.userId))! }),
  }),
});

export const Team = builder.prismaObject('Team', {
  description: 'A team: its name and roster are public.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    members: t.field({ type: [TeamMember], resolve: (team, _args, ctx) => ctx.loaders.teamMembersByTeam.load(team.id) }),
  }),
});
builder.asEntity(Team, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.team.load(ref.id),
});

export const Stage = builder.prismaObject('Stage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    name: t.exposeString('name'),
    format: t.exposeString('format'),
    bestOf: t.exposeInt('bestOf'),
    position: t.exposeInt('position'),
    status: t.exposeString('status'),
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

