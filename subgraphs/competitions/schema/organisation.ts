// Organisation: an organisation that runs events.
import { builder } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { organisationView } from '../views.ts';
import { readableOrganisation } from '../access.ts';

export const Organisation = builder.prismaObject('Organisation', {
  description: organisationView.description,
  fields: (t) => viewFields(builder)(t, organisationView),
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
