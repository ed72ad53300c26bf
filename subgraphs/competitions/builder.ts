import { createBuilder } from '../kernel/builder.ts';

export const builder = createBuilder();
