// The bracket overlay's translation of a stage into brackets-viewer's data, against brackets-manager
// (whose data brackets-viewer is written for) for the same field: for field sizes up to 40 (from 3
// with a losers bracket, from 4 with a third-place match, which the engine does not make for 3
// where one semi-final is a bye)
// in single elimination (with and without a third-place match) and double elimination (with a
// simple and a double grand final), every match lands in the group, round and number where
// brackets-manager puts it, and every bye where brackets-manager has one. The matches are the
// engine's, shaped as the v1 routes answer them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateStage, resolvedSettings, type GeneratedDuel, type StageSettings } from '../subgraphs/competitions/tournament/index.ts';
import { toViewerData } from '../facade/overlays/browser/bracket-model.ts';
import { playManager } from './support/tournament-simulation.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const nextPow2 = (n: number) => 2 ** Math.ceil(Math.log2(n));

/** The engine's duel as GET /api/v1/events/{eventId}/matches answers it, just after the stage start. */
function asV1(duel: GeneratedDuel) {
  const opponent = (id: string | null) => (id ? { participantId: id, name: `Team ${id}`, score: null, result: null, forfeit: false } : null);
  const source = (s: GeneratedDuel['sourceA']) => (s === null ? null : s.type === 'seed' ? s : { type: s.type, matchId: s.matchKey });
  return {
    id: duel.key,
    eventId: 'evt_x',
    stageId: 'stg_x',
    status: duel.status,
    isFreeWin: duel.isFreeWin,
    bracket: duel.bracket,
    roundNumber: duel.roundNumber,
    position: duel.position,
    opponentA: opponent(duel.participantA),
    opponentB: opponent(duel.participantB),
    sourceA: source(duel.sourceA),
    sourceB: source(duel.sourceB),
  };
}

const GROUP_NAMES: Record<string, string[]> = {
  single_elimination: ['winners', 'third_place'],
  double_elimination: ['winners', 'losers', 'grand_final'],
};

const cases: Array<[format: 'single_elimination' | 'double_elimination', settings: StageSettings, manager: Record<string, unknown>]> = [
  ['single_elimination', { thirdPlaceMatch: false }, { consolationFinal: false }],
  ['single_elimination', { thirdPlaceMatch: true }, { consolationFinal: true }],
  ['double_elimination', { grandFinal: 'simple' }, { grandFinal: 'simple' }],
  ['double_elimination', { grandFinal: 'double' }, { grandFinal: 'double' }],
];

describe('the bracket overlay draws what brackets-manager would', () => {
  for (const [format, settings, manager] of cases) {
    it(`${format} ${JSON.stringify(settings)}: groups, rounds, numbers and byes for up to 40 participants`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: settings.thirdPlaceMatch ? 4 : format === 'double_elimination' ? 3 : 2, max: 40 }), async (n) => {
          const stage = generateStage({ format, settings: resolvedSettings(format, settings), participants: ids(n) });
          const rows = (stage.matches as GeneratedDuel[]).map(asV1);
          const data = toViewerData({ id: 'stg_x', eventId: 'evt_x', name: 'Playoffs', format }, rows);
          expect(data.matches).toHaveLength(rows.length);
          const { before } = await playManager(format, n, nextPow2(n), manager, 1);
          const place = (m: Record<string, any>) => `${GROUP_NAMES[format][m.group_id]}/${m.round_id % 1000}/${m.number}`;
          expect(new Set(data.matches.map(place)), `places N=${n}`).toEqual(new Set(before.matches.map((m) => m.place)));
          const byes = new Set(data.matches.flatMap((m) => [m.opponent1 === null ? `${place(m)}/a` : [], m.opponent2 === null ? `${place(m)}/b` : []].flat()));
          expect(byes, `byes N=${n}`).toEqual(before.byes);
          // In each group the viewer takes rounds in id order and matches in the order given.
          const order = data.matches.map((m) => [m.round_id, m.number]);
          expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
          expect(data.stages[0].settings.size).toBe(nextPow2(n));
        }),
        { numRuns: 40 },
      );
    }, 120_000);
  }
});
