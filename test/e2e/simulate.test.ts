// npm run simulate: plays the demo world's evt_cup from no stages to a champion through the public
// API (swiss, then a double-elimination playoff seeded from it), with maps and corrections; and as a
// command, refuses bad options with its usage and an event it cannot play with one sentence. A run
// started on an event with a match already live goes on from its stored score and maps; the default
// address follows PORT as npm start does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, uniqueKey } from '../support/api.ts';
import { runScript } from '../support/processes.ts';
import { parseOptions, Simulation } from '../../client/simulate.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ webhookWorker: false });
});
afterAll(() => server?.close());

describe('npm run simulate', () => {
  it('plays evt_cup from no stages to a completed event: every match live, then map by map, then completed; some corrected', async () => {
    const simulation = new Simulation(parseOptions(['evt_cup', '--base', server.url, '--pace', '0', '--corrections', '40', '--setup', '--seed', '7', '--quiet']));
    const played = await simulation.run();
    const event = await call(server.url, '/api/v2/events/evt_cup');
    expect(event.body.data.state).toBe('completed');
    const stages = (await call(server.url, '/graphql', { method: 'POST', body: { query: '{ event(id: "evt_cup") { stages { id format status } } }' } })).body.data.event.stages;
    expect(stages.map((s: { format: string; status: string }) => [s.format, s.status])).toEqual([
      ['swiss', 'completed'],
      ['double_elimination', 'completed'],
    ]);
    // 40 swiss matches, and 14 or 15 playoff matches (the grand-final reset is played only if needed).
    expect(played).toBeGreaterThanOrEqual(54);
    expect(played).toBeLessThanOrEqual(55);
    expect(simulation.corrections.applied).toBeGreaterThan(0);
    const changes = await server.db.prisma.changeLog.findMany({ where: { eventId: 'evt_cup' }, select: { type: true, payload: true } });
    const types = new Set(changes.map((c) => c.type));
    for (const type of ['stage.created', 'stage.started', 'stage.round_paired', 'stage.completed', 'standings.updated', 'match.updated']) expect(types.has(type), type).toBe(true);
    // Every played match went live before it completed, and took its maps one by one.
    const matches = await server.db.prisma.match.findMany({ where: { eventId: 'evt_cup', status: 'completed', isFreeWin: false }, include: { maps: true } });
    for (const match of matches) {
      expect(match.startedAt, match.id).not.toBeNull();
      expect(match.maps.length, match.id).toBe((match.scoreA ?? 0) + (match.scoreB ?? 0));
    }
  }, 120_000);

  it('goes on from a live match\'s stored score and maps (1–0), never from 0–0; completes one left live at a deciding 2–1', async () => {
    // A database of its own: the test above plays this server's evt_cup to its end.
    const fresh = await startTestServer({ webhookWorker: false });
    try {
      const write = async (method: string, path: string, body?: unknown) => {
        const etag = (await call(fresh.url, '/api/v2/events/evt_cup')).headers.get('etag');
        const answer = await call(fresh.url, path, { method, body, ifMatch: etag, key: uniqueKey('sim') });
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        return answer.body.data;
      };
      const stage = await write('POST', '/api/v2/events/evt_cup/stages', { name: 'Bracket', format: 'single_elimination', bestOf: 3 });
      if ((await call(fresh.url, '/api/v2/events/evt_cup')).body.data.state === 'draft') await write('POST', '/api/v2/events/evt_cup/publish');
      await write('POST', `/api/v2/events/evt_cup/stages/${stage.resourceId}/start`);
      const matches = (await call(fresh.url, `/api/v2/events/evt_cup/stages/${stage.resourceId}/matches?limit=100`)).body.data;
      const [first, second] = matches.filter((m: { status: string; opponentA: { participantId?: string }; opponentB: { participantId?: string } }) => m.status === 'scheduled' && m.opponentA?.participantId && m.opponentB?.participantId);
      // 16–14: a map score the simulator never makes up (13 to at most 11), so it shows whether the stored map was kept.
      const played = { mapId: 'map_nuke', scoreA: 16, scoreB: 14, winner: 'a' };
      await write('PATCH', `/api/v2/events/evt_cup/matches/${first.id}`, { status: 'live', scoreA: 1, scoreB: 0, maps: [played] });
      // A run that stopped after reporting the deciding map but before completing the match.
      const decided = [
        { mapId: 'map_inferno', scoreA: 16, scoreB: 14, winner: 'a' },
        { mapId: 'map_mirage', scoreA: 14, scoreB: 16, winner: 'b' },
        { mapId: 'map_train', scoreA: 16, scoreB: 12, winner: 'a' },
      ];
      await write('PATCH', `/api/v2/events/evt_cup/matches/${second.id}`, { status: 'live', scoreA: 2, scoreB: 1, maps: decided });
      const since = Number(JSON.parse((await call(fresh.url, '/api/v2/events/evt_cup')).headers.get('etag')!));

      const simulation = new Simulation(parseOptions(['evt_cup', '--base', fresh.url, '--pace', '0', '--corrections', '0', '--seed', '3', '--quiet']));
      await simulation.run();
      const reports = await fresh.db.prisma.changeLog.findMany({ where: { eventId: 'evt_cup', type: 'match.updated', resourceId: first.id, revision: { gt: since } }, orderBy: { sequence: 'asc' } });
      const scores = reports.map((r) => r.payload as { scoreA: number; scoreB: number }).map((p) => [p.scoreA, p.scoreB]);
      expect(scores.length).toBeGreaterThan(0);
      // Each report it made is at least 1–0 and no lower than the one before.
      let [a, b] = [1, 0];
      for (const [scoreA, scoreB] of scores) {
        expect(scoreA, JSON.stringify(scores)).toBeGreaterThanOrEqual(a);
        expect(scoreB, JSON.stringify(scores)).toBeGreaterThanOrEqual(b);
        [a, b] = [scoreA, scoreB];
      }
      const match = await fresh.db.prisma.match.findUniqueOrThrow({ where: { id: first.id }, include: { maps: { orderBy: { position: 'asc' } } } });
      expect(match.status).toBe('completed');
      expect(match.scoreA! + match.scoreB!).toBeLessThanOrEqual(3);
      expect(Math.max(match.scoreA!, match.scoreB!)).toBe(2);
      expect(match.maps.length).toBe(match.scoreA! + match.scoreB!);
      expect(match.maps[0]).toMatchObject(played);
      const other = await fresh.db.prisma.match.findUniqueOrThrow({ where: { id: second.id }, include: { maps: { orderBy: { position: 'asc' } } } });
      expect([other.status, other.scoreA, other.scoreB]).toEqual(['completed', 2, 1]);
      expect(other.maps.map(({ mapId, scoreA, scoreB, winner }) => ({ mapId, scoreA, scoreB, winner }))).toEqual(decided);
      // It finished the live matches first, then the rest of the bracket.
      expect(simulation.played.slice(0, 2).sort()).toEqual([first.id, second.id].sort());
      expect(simulation.played).toHaveLength(15);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it('reads PORT as npm start does; --base overrides it', () => {
    expect(parseOptions(['evt_cup'], {}).base).toBe('http://localhost:4000');
    expect(parseOptions(['evt_cup'], { PORT: '4123' }).base).toBe('http://localhost:4123');
    expect(parseOptions(['evt_cup', '--base', 'http://127.0.0.1:5000/'], { PORT: '4123' }).base).toBe('http://127.0.0.1:5000');
    expect(() => parseOptions(['evt_cup'], { PORT: '0' })).toThrow('pass the address it printed as --base');
    expect(() => parseOptions(['evt_cup'], { PORT: 'http' })).toThrow('PORT takes a whole number from 1 to 65535');
  });

  it('as a command: bad options answer the usage; an event it cannot play says why', async () => {
    const bad = await runScript('simulate', ['evt_cup', '--pace', 'fast', '--base', server.url], {});
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('--pace takes a whole number');
    const none = await runScript('simulate', [], {});
    expect(none.output).toContain('usage: npm run simulate -- <eventId>');
    const unknown = await runScript('simulate', ['evt_nope', '--base', server.url], {});
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/not found/i);
    // Without --base it finds the server where PORT says, as npm start listens.
    const byPort = await runScript('simulate', ['evt_nope'], { PORT: new URL(server.url).port });
    expect(byPort.output).toMatch(/not found/i);
    // evt_draft has a stage nobody started.
    const idle = await runScript('simulate', ['evt_draft', '--base', server.url], {});
    expect(idle.code).toBe(1);
    expect(idle.output).toContain('evt_draft has no running stage: start one');
  }, 60_000);
});
