// User: public profile fields of a user the application is installed on.
import { builder } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { userView } from '../views.ts';
import { readableUser } from '../access.ts';

// Public profile fields only: e-mail and authentication data never leave the database.
export const User = builder.prismaObject('User', {
  description: userView.description,
  fields: (t) => viewFields(builder)(t, userView),
});
builder.asEntity(User, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.user.load(ref.id),
});

builder.queryFields((t) => ({
  user: t.field({
    type: User,
    description: 'A user on whom the application has an active installation; any other user is not_found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => readableUser(ctx, String(args.id)),
  }),
}));
