// npm start: the whole API on one port, on the embedded PGlite (or DATABASE_URL), demo world loaded.
import { openDatabase } from '../subgraphs/shared/db/database.ts';
import { applyMigrations } from '../prisma/tools/migrations.ts';
import { DEMO, loadDemoWorldIfEmpty } from '../prisma/seed/demo-world.ts';
import { subgraphUrlsFromEnv } from './graphql/gateway.ts';
import { createPlatform } from './server.ts';

const port = Number(process.env.PORT ?? 4000);
const db = openDatabase();
const applied = await applyMigrations(db.adapterFactory);
const seeded = process.env.SEED_DEMO_WORLD === '0' ? false : await loadDemoWorldIfEmpty(db.prisma);
const platform = await createPlatform({ db, subgraphUrls: subgraphUrlsFromEnv() });
const { url } = await platform.listen(port, process.env.HOST ?? '0.0.0.0');

const base = url.replace('127.0.0.1', 'localhost');
console.log(`
Esports competition platform is up on ${db.describe}${applied.length ? ` (applied ${applied.length} migration(s))` : ''}${seeded ? ', demo world loaded' : ''}.

  REST v2      ${base}/api/v2        e.g. ${base}/api/v2/auth/context
  GraphQL      ${base}/graphql
  OAuth        ${base}/oauth/token
  OpenAPI      ${base}/api/openapi.json
  Docs         ${base}/docs
  Health       ${base}/healthz  ${base}/readyz  ${base}/metrics

Demo credentials (shared/demo-world.md):
  access tokens   ${Object.values(DEMO.tokens).join(', ')}
  OAuth clients   ${Object.entries(DEMO.clients).map(([id, secret]) => `${id}:${secret}`).join(', ')}
  v1 API keys     ${Object.entries(DEMO.apiKeys).map(([org, key]) => `${org}=${key}`).join(', ')}
  user password   ${DEMO.password} (usr_alice, usr_bob, usr_carol, usr_dave, usr_erin)

Try:
  curl -H 'Authorization: Bearer ${DEMO.tokens.app}' ${base}/api/v2/auth/context
`);

const shutdown = async () => {
  await platform.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
