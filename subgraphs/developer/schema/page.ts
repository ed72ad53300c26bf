// Pages of the developer subgraph's lists.
import { pageTypeFactory } from '../../kernel/page-type.ts';
import { builder } from '../builder.ts';

export const pageType = pageTypeFactory(builder, 'DeveloperPageMeta');
