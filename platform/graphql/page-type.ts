// GraphQL types of keyset pages ({data, meta}); each subgraph names its own meta type, since a type
// of one name in two subgraphs would have to be shared through federation.
import type { ObjectRef } from '@pothos/core';
import type { Builder, SubgraphSchemaTypes } from './builder.ts';
import type { Page } from '../api/pagination.ts';

/** `meta`: the name of a new meta type, or a subgraph's existing one. */
export function pageTypeFactory(builder: Builder, meta: string | ObjectRef<SubgraphSchemaTypes, Page<unknown>['meta']>) {
  const PageMeta =
    typeof meta === 'string'
      ? builder.objectRef<Page<unknown>['meta']>(meta).implement({
          fields: (t) => ({ nextCursor: t.exposeString('nextCursor', { nullable: true }), hasMore: t.exposeBoolean('hasMore') }),
        })
      : meta;
  return function pageType<T>(name: string, item: ObjectRef<SubgraphSchemaTypes, T>, description?: string) {
    return builder.objectRef<Page<T>>(name).implement({
      description,
      fields: (t) => ({
        data: t.field({ type: [item], resolve: (page) => page.data }),
        meta: t.field({ type: PageMeta, resolve: (page) => page.meta }),
      }),
    });
  };
}
