import { createBuilder } from '../kernel/builder.ts';
import { entityReferences } from '../kernel/entities.ts';

export const builder = createBuilder();
/** Entities of the competitions subgraph this one points to. */
export const refs = entityReferences(builder, ['Organisation', 'User', 'Team', 'Event']);
