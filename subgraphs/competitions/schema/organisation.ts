// Organisation: an organisation that runs events.
import { builder } from '../builder.ts';
import { readableOrganisation } from '../access.ts';

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

builder.queryFields((t) => ({
  organisation: t.field({
    type: Organisation,
    description: 'An organisation on which the application has an active installation.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableOrganisation(ctx, String(args.id)),
  }),
}));
