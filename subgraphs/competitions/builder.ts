import { createBuilder } from '../../platform/graphql/builder.ts';

export const builder = createBuilder();
