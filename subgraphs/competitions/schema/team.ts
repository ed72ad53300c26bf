// Team: a team and its public roster.
import { notFound } from '../../../platform/api/errors.ts';
import { builder } from '../builder.ts';
import { User } from './user.ts';

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

builder.queryFields((t) => ({
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
