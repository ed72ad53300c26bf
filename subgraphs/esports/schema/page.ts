// Pages of esports lists, and what every metered field says about itself.
import { pageTypeFactory } from '../../../platform/graphql/page-type.ts';
import { builder } from '../builder.ts';

export const METERED = 'Metered: one esports_calls unit when it succeeds. Send svc-installation-id.';

export const pageType = pageTypeFactory(builder, 'EsportsPageMeta');
