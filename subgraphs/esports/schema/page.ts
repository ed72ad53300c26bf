// Pages of esports lists, and what every metered field says about itself.
import type { ObjectRef } from '@pothos/core';
import type { Page } from '../../shared/pagination.ts';
import type { SubgraphSchemaTypes } from '../../shared/builder.ts';
import { builder } from '../builder.ts';

export const METERED = 'Metered: one esports_calls unit when it succeeds. Send svc-installation-id.';

const PageMeta = builder.objectRef<Page<unknown>['meta']>('EsportsPageMeta').implement({
  fields: (t) => ({ nextCursor: t.exposeString('nextCursor', { nullable: true }), hasMore: t.exposeBoolean('hasMore') }),
});

export function pageType<T>(name: string, item: ObjectRef<SubgraphSchemaTypes, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data }),
      meta: t.field({ type: PageMeta, resolve: (page) => page.meta }),
    }),
  });
}
