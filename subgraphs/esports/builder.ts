import { createBuilder } from '../shared/builder.ts';

export const builder = createBuilder();
