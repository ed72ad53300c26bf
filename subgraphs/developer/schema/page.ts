// Pages of the developer subgraph's lists.
import { pageTypeFactory } from '../../../platform/graphql/page-type.ts';
import { builder } from '../builder.ts';

export const pageType = pageTypeFactory(builder, 'DeveloperPageMeta');
