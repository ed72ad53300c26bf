// Application: an OAuth client, its owner and its installations; the calling application itself.
import { notFound } from '../../../platform/api/errors.ts';
import { builder, refs } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { ownerView } from '../views.ts';
import { InstallationStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { applicationInstallations } from '../installations.ts';
import { InstallationPage, TargetType } from './installation.ts';

export const Owner = builder.objectRef<{ type: string; id: string }>('Owner').implement({
  description: ownerView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, ownerView),
    organisation: t.field({
      type: refs.Organisation,
      nullable: true,
      resolve: (owner) => (owner.type === 'organisation' ? { id: owner.id } : null),
    }),
  }),
});

export const Application = builder.prismaObject('Application', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    owner: t.field({ type: Owner, resolve: (app) => ({ type: app.ownerType, id: app.ownerId }) }),
    grantedScopes: t.exposeStringList('grantedScopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    installations: t.field({
      type: InstallationPage,
      description: 'The application\'s installations in target order (type, then id); for the application itself and users who manage its owner (another user: forbidden; another application: not_found).',
      args: {
        cursor: t.arg.string(),
        limit: t.arg.int({ description: '1–100, default 20' }),
        status: t.arg({ type: InstallationStatusEnum }),
        targetType: t.arg({ type: TargetType }),
      },
      directives: PAGED_BY_LIMIT,
      resolve: (app, args, ctx) => applicationInstallations(ctx, app.id, args),
    }),
  }),
});
builder.asEntity(Application, {
  key: builder.selection<{ id: string }>('id'),
  resolveReference: (ref, ctx) => ctx.loaders.application.load(ref.id),
});

builder.queryFields((t) => ({
  application: t.field({
    type: Application,
    description: 'The calling application itself; any other application is not_found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const authority = await ctx.authority();
      const app = authority.applicationId === String(args.id) ? await ctx.loaders.application.load(authority.applicationId) : null;
      if (!app) throw notFound('The application');
      return app;
    },
  }),
}));
