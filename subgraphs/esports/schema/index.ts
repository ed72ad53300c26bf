// The esports subgraph: published esports data (metered per call), its import by data providers,
// and the usage an application can read about itself. One module per entity.
import { builder } from '../builder.ts';
import './event.ts';
import './match.ts';
import './import.ts';
import './usage.ts';

export { builder };
export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
