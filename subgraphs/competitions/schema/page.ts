// The page metadata every list of this subgraph answers.
import { builder } from '../builder.ts';

export const PageMeta = builder.objectRef<{ nextCursor: string | null; hasMore: boolean }>('PageMeta').implement({
  fields: (t) => ({
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last page.' }),
    hasMore: t.exposeBoolean('hasMore'),
  }),
});
