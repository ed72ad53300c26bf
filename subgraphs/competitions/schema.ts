// The competitions subgraph: organisations, users, teams and events, and everything they hold.
import { builder } from './builder.ts';
import './types.ts';
import './queries.ts';
import './mutations.ts';

export { builder };
export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
