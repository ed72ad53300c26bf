// The esports subgraph's enums for output fields, declared once from the vocabularies its import
// validates with and its REST routes name. Values are lower-case names, as in REST.
import { builder } from '../builder.ts';
import { enumType } from '../../../platform/graphql/zod-graphql.ts';
import { ESPORTS_MATCH_STATUSES, ESPORTS_STAGE_STATUSES, METRICS } from '../vocabulary.ts';

export const EsportsStageStatusEnum = enumType(builder, 'EsportsStageStatus', ESPORTS_STAGE_STATUSES, 'A published stage\'s status.');
export const EsportsMatchStatusEnum = enumType(builder, 'EsportsMatchStatus', ESPORTS_MATCH_STATUSES, 'A published match\'s status.');
export const UsageMetricEnum = enumType(builder, 'UsageMetric', METRICS, 'What metered usage counts.');
