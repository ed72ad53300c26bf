// The developer subgraph: applications, installations, tokens and the authority they carry. One
// module per entity.
import { builder } from '../builder.ts';
import { toSubgraphSchema } from '../../../platform/graphql/demand-control.ts';
import './installation.ts';
import './application.ts';
import './authority-context.ts';
import './token.ts';
import './webhook.ts';
import './owner-transfer.ts';

export { builder };
export const schema = toSubgraphSchema(builder, ['@extends', '@key']);
