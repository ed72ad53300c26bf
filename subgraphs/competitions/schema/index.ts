// The competitions subgraph: organisations, users, teams and events, and everything they hold. One
// module per entity, each with its type and its root fields.
import { builder } from '../builder.ts';
import { toSubgraphSchema } from '../../../platform/graphql/demand-control.ts';
import './organisation.ts';
import './user.ts';
import './team.ts';
import './event.ts';
import './event-structure.ts';
import './event-entries.ts';
import './match.ts';
import './standing.ts';
import './player-statistics.ts';
import './event-writes.ts';
import './api-key.ts';
import './api-key-admin.ts';
import './overlay-tokens.ts';
import './chat.ts';

export { builder };
export const schema = toSubgraphSchema(builder, ['@key']);
