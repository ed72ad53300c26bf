// Standings of an event's stages and groups: rank, record, points (adjustments included) and the
// score for and against from completed matches.
import type { Standing as StandingRow } from '../../shared/db/generated/client.ts';
import type { SubgraphContext } from '../../shared/context.ts';
import { builder } from '../builder.ts';
import { keysetPage } from '../../shared/pagination.ts';
import { Event } from './event.ts';
import { pageType } from './page.ts';

const scores = (ctx: SubgraphContext, row: StandingRow) => ctx.loaders.standingScores.load({ stageId: row.stageId, groupId: row.groupId, participantId: row.participantId });
const team = async (ctx: SubgraphContext, participantId: string) => {
  const participant = await ctx.loaders.participant.load(participantId);
  return participant ? ctx.loaders.team.load(participant.teamId) : null;
};

export const Standing = builder.prismaObject('Standing', {
  description: "A participant's place in a stage or group.",
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    stageId: t.exposeID('stageId'),
    groupId: t.exposeID('groupId', { nullable: true }),
    participantId: t.exposeID('participantId'),
    name: t.string({ nullable: true, description: "The team's name.", resolve: async (row, _args, ctx) => (await team(ctx, row.participantId))?.name ?? null }),
    logoUrl: t.string({ nullable: true, resolve: async (row, _args, ctx) => (await team(ctx, row.participantId))?.logoUrl ?? null }),
    rank: t.exposeInt('rank'),
    played: t.exposeInt('played'),
    wins: t.exposeInt('wins'),
    draws: t.exposeInt('draws'),
    losses: t.exposeInt('losses'),
    points: t.exposeInt('points', { description: 'Adjustments included.' }),
    scoreFor: t.int({ resolve: async (row, _args, ctx) => (await scores(ctx, row)).scoreFor }),
    scoreAgainst: t.int({ resolve: async (row, _args, ctx) => (await scores(ctx, row)).scoreAgainst }),
    scoreDifference: t.int({ resolve: async (row, _args, ctx) => ((s) => s.scoreFor - s.scoreAgainst)(await scores(ctx, row)) }),
    adjustmentPoints: t.int({ description: 'Points of the standing adjustments applied (part of points).', resolve: async (row, _args, ctx) => (await scores(ctx, row)).adjustmentPoints }),
  }),
});

const StandingPage = pageType('StandingPage', Standing);

builder.objectFields(Event, (t) => ({
  standingPage: t.field({
    type: StandingPage,
    description: 'Standings by stage, then rank; filters stageId and groupId.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), stageId: t.arg.id(), groupId: t.arg.id() },
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `standings|${event.id}|${args.stageId ?? ''}|${args.groupId ?? ''}`,
        args,
        order: ['stageId', 'rank', 'id'],
        where: { eventId: event.id, ...(args.stageId ? { stageId: String(args.stageId) } : {}), ...(args.groupId ? { groupId: String(args.groupId) } : {}) },
        find: (where, orderBy, take) => ctx.db.standing.findMany({ where, orderBy, take }),
      }),
  }),
}));
