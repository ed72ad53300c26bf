import { createBuilder } from '../../platform/graphql/builder.ts';
import { entityReferences } from '../../platform/graphql/entities.ts';

export const builder = createBuilder();
/** Entities of the competitions subgraph this one points to. */
export const refs = entityReferences(builder, ['Organisation', 'User', 'Team', 'Event']);
