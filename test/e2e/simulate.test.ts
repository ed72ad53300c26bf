// npm run simulate: plays the demo world's evt_cup from no stages to a champion through the public
// API (swiss, then a double-elimination playoff seeded from it), with maps and corrections; and as a
// command, refuses bad options with its usage and an event it cannot play with one sentence. The
// default address follows PORT as npm start does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call } from '../support/api.ts';
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
