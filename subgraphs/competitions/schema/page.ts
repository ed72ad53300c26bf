// The pages every list of this subgraph answers: their metadata, and a conditional page (ETag,
// notModified) of any item type.
import type { ObjectRef } from '@pothos/core';
import type { SubgraphSchemaTypes } from '../../../platform/graphql/builder.ts';
import { builder } from '../builder.ts';
import type { ConditionalPage } from '../../../platform/api/conditional-reads.ts';
import { pageTypeFactory } from '../../../platform/graphql/page-type.ts';

export const PageMeta = builder.objectRef<{ nextCursor: string | null; hasMore: boolean }>('PageMeta').implement({
  fields: (t) => ({
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last page.' }),
    hasMore: t.exposeBoolean('hasMore'),
  }),
});

/** A page answered with its ETag; when ifNoneMatch matched, notModified is true and data and meta are null. */
export function conditionalPageType<T>(name: string, item: ObjectRef<SubgraphSchemaTypes, T>, description?: string) {
  return builder.objectRef<ConditionalPage<T>>(name).implement({
    description,
    fields: (t) => ({
      etag: t.exposeString('etag'),
      notModified: t.exposeBoolean('notModified'),
      data: t.field({ type: [item], nullable: true, resolve: (page) => page.data ?? null }),
      meta: t.field({ type: PageMeta, nullable: true, resolve: (page) => page.meta ?? null }),
    }),
  });
}

/** A plain page ({data, meta}) of any item type. */
export const pageType = pageTypeFactory(builder, PageMeta);
