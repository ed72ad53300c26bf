// Pages of the developer subgraph's lists.
import { pageTypeFactory } from '../../shared/page-type.ts';
import { builder } from '../builder.ts';

export const pageType = pageTypeFactory(builder, 'DeveloperPageMeta');
