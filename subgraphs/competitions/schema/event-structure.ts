// What an event is made of: stages, groups and rounds, page by page or one by one. Read through an
// event the caller may already see (v2: an installation; v1: the organisation's API key).
import { foundOr } from '../../../platform/api/errors.ts';
import { builder } from '../builder.ts';
import './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { groupView, roundView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { keysetPage } from '../../../platform/api/pagination.ts';
import { Event, Stage } from './event.ts';
import { pageType } from './page.ts';

export const Group = builder.prismaObject('Group', {
  description: groupView.description,
  fields: (t) => viewFields(builder)(t, groupView),
});

export const Round = builder.prismaObject('Round', {
  description: roundView.description,
  fields: (t) => viewFields(builder)(t, roundView),
});

const StagePage = pageType('StagePage', Stage);
const GroupPage = pageType('GroupPage', Group);
const RoundPage = pageType('RoundPage', Round);

const page = { cursor: { description: 'meta.nextCursor of the previous page' }, limit: { description: '1–100, default 20' } };

builder.objectFields(Event, (t) => ({
  stagePage: t.field({
    type: StagePage,
    description: 'Stages in order (position).',
    args: { cursor: t.arg.string(page.cursor), limit: t.arg.int(page.limit) },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `stages|${event.id}`,
        args,
        order: ['position', 'id'],
        where: { eventId: event.id },
        find: (where, orderBy, take) => ctx.db.stage.findMany({ where, orderBy, take }),
      }),
  }),
  stage: t.field({
    type: Stage,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.stage.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The stage'),
  }),
  groupPage: t.field({
    type: GroupPage,
    description: 'Groups by stage, then position; filter stageId.',
    args: { cursor: t.arg.string(page.cursor), limit: t.arg.int(page.limit), stageId: t.arg.id() },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `groups|${event.id}|${args.stageId ?? ''}`,
        args,
        order: ['stageId', 'position', 'id'],
        where: { eventId: event.id, ...(args.stageId ? { stageId: String(args.stageId) } : {}) },
        find: (where, orderBy, take) => ctx.db.group.findMany({ where, orderBy, take }),
      }),
  }),
  group: t.field({
    type: Group,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.group.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The group'),
  }),
  roundPage: t.field({
    type: RoundPage,
    description: 'Rounds by stage, then number; filters stageId and groupId.',
    args: { cursor: t.arg.string(page.cursor), limit: t.arg.int(page.limit), stageId: t.arg.id(), groupId: t.arg.id() },
    directives: PAGED_BY_LIMIT,
    resolve: (event, args, ctx) =>
      keysetPage({
        binding: `rounds|${event.id}|${args.stageId ?? ''}|${args.groupId ?? ''}`,
        args,
        order: ['stageId', 'number', 'id'],
        where: { eventId: event.id, ...(args.stageId ? { stageId: String(args.stageId) } : {}), ...(args.groupId ? { groupId: String(args.groupId) } : {}) },
        find: (where, orderBy, take) => ctx.db.round.findMany({ where, orderBy, take }),
      }),
  }),
  round: t.field({
    type: Round,
    args: { id: t.arg.id({ required: true }) },
    resolve: (event, args, ctx) => foundOr(ctx.db.round.findFirst({ where: { id: String(args.id), eventId: event.id } }), 'The round'),
  }),
}));
