// Wall-clock of a stage start per format over an in-memory PGlite test server, and of the first page
// of its matches: LOG_LEVEL=silent npx tsx test/bench/stage-start-timing.ts
import { startTestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { createEventWithParticipants } from '../support/stage-fixtures.ts';
const server = await startTestServer();
const rev = async (id: string) => (await server.db.prisma.event.findUniqueOrThrow({ where: { id } })).revision;
for (const [format, n, settings] of [['single_elimination', 64, {}], ['double_elimination', 64, {}], ['round_robin', 32, {}], ['league', 64, {}], ['swiss', 128, {}], ['ffa', 256, { participantsPerMatch: 16 }]] as const) {
  const { eventId } = await createEventWithParticipants(server, n);
  const created = await call(server.url, `/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'S', format, bestOf: 1, settings }, ifMatch: await rev(eventId), key: uniqueKey() });
  const stageId = created.body.data.resourceId;
  const t0 = performance.now();
  const started = await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await rev(eventId), key: uniqueKey() });
  const t1 = performance.now();
  const matches = await server.db.prisma.match.count({ where: { stageId } });
  const t2 = performance.now();
  const page = await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100`);
  const t3 = performance.now();
  console.log(`${format} N=${n}: start ${started.status} in ${(t1 - t0).toFixed(0)} ms, ${matches} matches; first page of 100 in ${(t3 - t2).toFixed(0)} ms (${page.status})`);
}
await server.close();
process.exit(0);
