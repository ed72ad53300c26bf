// A server process for the benchmark: `platform` (the whole facade, in-process subgraphs) or
// `baseline` (hand-written Koa + pg); with SUBGRAPH_URLS the platform's gateway over those services. Prints its URL on the first line of stdout.
import { openDatabase } from '../../platform/db/database.ts';
import { createPlatform } from '../../facade/server.ts';
import { startBaseline } from './baseline-auth-context.ts';
import { subgraphUrlsFromEnv } from '../../facade/graphql/gateway.ts';

const kind = process.argv[2];
const url = process.env.DATABASE_URL!;
if (kind === 'baseline') {
  const server = await startBaseline(url);
  console.log(server.url);
} else {
  const db = openDatabase({ url });
  // SUBGRAPH_URLS: the platform as gateway over subgraph services (the router benchmark).
  const platform = await createPlatform({ db, subgraphUrls: subgraphUrlsFromEnv(), subgraphSecret: process.env.SUBGRAPH_SECRET });
  const { url: base } = await platform.listen(0, '127.0.0.1');
  console.log(base);
}
// An orderly exit, so that a --cpu-prof profile is written.
process.on('SIGTERM', () => process.exit(0));
