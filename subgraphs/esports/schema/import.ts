// Publishing esports data: the import mutation of data providers.
import { requireScope } from '../../../platform/domain/authority.ts';
import { builder } from '../builder.ts';
import { importEsportsData, type ImportResult } from '../import/import.ts';

const ImportResultRef = builder.objectRef<ImportResult>('EsportsImportResult').implement({
  fields: (t) => ({
    importId: t.exposeID('importId'),
    created: t.exposeInt('created'),
    updated: t.exposeInt('updated'),
    unchanged: t.exposeInt('unchanged'),
  }),
});

builder.mutationType({});
builder.mutationFields((t) => ({
  importEsportsData: t.field({
    type: ImportResultRef,
    description: 'Publishes esports data (events, stages, groups, matches, match and map statistics): validated record by record, upserted by id. Needs the scope esports:publish.',
    args: { data: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_r, args, ctx) => {
      const authority = await ctx.authority();
      requireScope(authority, 'esports:publish');
      return importEsportsData({ prisma: ctx.db, transaction: ctx.transaction }, args.data, `application:${authority.applicationId}`);
    },
  }),
}));
