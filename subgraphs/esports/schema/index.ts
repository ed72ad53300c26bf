// The esports subgraph: published esports data (metered per call), its import by data providers,
// and the usage an application can read about itself. One module per entity.
import { builder } from '../builder.ts';
import { toSubgraphSchema } from '../../../platform/graphql/demand-control.ts';
import './event.ts';
import './match.ts';
import './import.ts';
import './usage.ts';

export { builder };
export const schema = toSubgraphSchema(builder, ['@extends', '@key']);
