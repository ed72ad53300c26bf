// Fixtures for stage generation tests: a fresh event of org_demo with N registered participants
// (one new team each, registered in order), written straight into the test's database.
import type { TestServer } from './server.ts';
import { call, uniqueKey } from './api.ts';

let events = 0;

export interface StageEvent {
  eventId: string;
  participantIds: string[];
}

export async function createEventWithParticipants(server: TestServer, count: number, options: { statuses?: Record<number, string> } = {}): Promise<StageEvent> {
  const n = ++events;
  const eventId = `evt_gen_${n}`;
  const prisma = server.db.prisma;
  await prisma.event.create({
    data: { id: eventId, organisationId: 'org_demo', name: `Generation Cup ${n}`, slug: `generation-${n}`, type: 'cup', visibility: 'public', state: 'scheduled', platform: 'pc', currency: 'EUR' },
  });
  const participantIds = Array.from({ length: count }, (_, i) => `par_gen_${n}_${String(i + 1).padStart(2, '0')}`);
  await prisma.team.createMany({ data: participantIds.map((id, i) => ({ id: id.replace('par_', 'team_'), name: `Gen ${n} Team ${i + 1}` })) });
  const base = Date.UTC(2026, 0, 1);
  await prisma.participant.createMany({
    data: participantIds.map((id, i) => ({
      id,
      eventId,
      teamId: id.replace('par_', 'team_'),
      status: options.statuses?.[i] ?? 'registered',
      selectedGroupIds: [],
      // Registration order is (createdAt, id): the list order.
      createdAt: new Date(base + i * 60_000),
    })),
  });
  return { eventId, participantIds };
}

/** A stage created on a fresh event of `count` participants and started through the API (failing the test otherwise). */
export async function startedStage(server: TestServer, format: string, count: number, settings: Record<string, unknown> = {}, groups?: { name: string }[]): Promise<StageEvent & { stageId: string }> {
  const { eventId, participantIds } = await createEventWithParticipants(server, count);
  const revision = async () => (await server.db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision;
  const created = await call(server.url, `/api/v2/events/${eventId}/stages`, { method: 'POST', body: { name: 'Stage', bestOf: 3, format, settings, groups }, ifMatch: await revision(), key: uniqueKey() });
  if (created.status !== 201) throw new Error(`stage creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const stageId = created.body.data.resourceId as string;
  const started = await call(server.url, `/api/v2/events/${eventId}/stages/${stageId}/start`, { method: 'POST', ifMatch: await revision(), key: uniqueKey() });
  if (started.status !== 200) throw new Error(`stage start answered ${started.status}: ${JSON.stringify(started.body)}`);
  return { eventId, stageId, participantIds };
}
