// Standings of an event's stages and groups, as stored by the writes that move them
// (stages/standings.ts): rank, record, points (adjustments included), scores, tiebreakers, qualified.
import type { Standing as StandingRow } from '../../../platform/db/generated/client.ts';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { builder } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { standingView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import type { StandingReadRow } from '../stages/statements.ts';
import { eventStandingPage, stageStandingPage, tiebreakerObject } from '../stages/standings-reads.ts';
import { Event } from './event.ts';
import { conditionalPageType, pageType } from './page.ts';

type Read = Partial<Pick<StandingReadRow, 'teamName' | 'teamLogoUrl'>>;
const team = async (ctx: SubgraphContext, participantId: string) => {
  const participant = await ctx.loaders.participant.load(participantId);
  return participant ? ctx.loaders.team.load(participant.teamId) : null;
};

export const Standing = builder.objectRef<StandingRow>('Standing').implement({
  description: standingView.description,
  fields: (t) =>
    viewFields(builder)(t, standingView, {}, {
      // Standing reads bring the team with the row (one statement); loaders answer any other source.
      name: async (row: StandingRow, _args: unknown, ctx: SubgraphContext) => (row as Read).teamName ?? (await team(ctx, row.participantId))?.name ?? null,
      logoUrl: async (row: StandingRow, _args: unknown, ctx: SubgraphContext) =>
        ('teamName' in row ? (row as Read).teamLogoUrl : (await team(ctx, row.participantId))?.logoUrl) ?? null,
      tiebreakers: (row: StandingRow) => tiebreakerObject(row.tiebreakers),
    }),
});

const StandingPage = pageType('StandingPage', Standing);
const StageStandingPage = conditionalPageType<StandingRow>('StageStandingPage', Standing, "A page of a stage's standings in rank order. When ifNoneMatch matched, notModified is true and data and meta are null.");

builder.queryFields((t) => ({
  stageStandings: t.field({
    type: StageStandingPage,
    description: "A stage's standings (one group's with groupId) in rank order: groups by position, then rank, tied rows by seed. Needs an active installation on the event or its organisation.",
    args: { eventId: t.arg.id({ required: true }), stageId: t.arg.id({ required: true }), groupId: t.arg.id(), cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), ifNoneMatch: t.arg.string() },
    directives: PAGED_BY_LIMIT,
    resolve: async (_root, args, ctx) =>
      (await stageStandingPage(ctx, { ...args, eventId: String(args.eventId), stageId: String(args.stageId), groupId: args.groupId == null ? null : String(args.groupId) })) as never,
  }),
}));

builder.objectFields(Event, (t) => ({
  standingPage: t.field({
    type: StandingPage,
    description: 'Standings by stage, then group, rank (tied rows by seed); filters stageId and groupId.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }), stageId: t.arg.id(), groupId: t.arg.id() },
    directives: PAGED_BY_LIMIT,
    resolve: async (event, args, ctx) =>
      (await eventStandingPage(ctx, event.id, { ...args, stageId: args.stageId == null ? null : String(args.stageId), groupId: args.groupId == null ? null : String(args.groupId) })) as never,
  }),
}));
