// A round robin or league report moves the stored standings by its one match (standingsFromStored)
// instead of counting every match again: property test that, over any run of reports, draws,
// forfeits, corrections and results taken back included, with any points table, adjustments and
// tiebreaker order, the table it leaves is the one computeStageStandings counts from all the matches.
// The reported participants' other matches (what REPORT_INPUTS_SQL reads for head_to_head) are
// selected here as PostgreSQL selects them; test/e2e/standings.test.ts checks the same against the
// real statement after every report.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeStageStandings, standingsFromStored } from '../subgraphs/competitions/stages/standings.ts';
import type { StandingsMatchRow, StoredStandingRow } from '../subgraphs/competitions/stages/statements.ts';
import type { ResolvedStageSettings, StandingRow, Tiebreaker } from '../subgraphs/competitions/tournament/index.ts';

/** The completed matches the reported match's participants played, the reported one left out (as REPORT_INPUTS_SQL reads them). */
function theirMatches(matches: Map<string, StandingsMatchRow>, reported: StandingsMatchRow): StandingsMatchRow[] {
  const theirs = [reported.participantAId, reported.participantBId];
  return [...matches.values()].filter((m) => m.status === 'completed' && m.id !== reported.id && (theirs.includes(m.participantAId) || theirs.includes(m.participantBId)));
}

function stored(rows: StandingRow[], adjustments: Map<string, number>): StoredStandingRow[] {
  return rows.map((row) => ({
    ...row,
    id: `std_${row.participantId}`,
    groupId: null,
    adjustmentPoints: adjustments.get(row.participantId) ?? 0,
    tiebreakers: Object.entries(row.tiebreakers).map(([name, value]) => ({ name, value: value! })),
  }));
}

const TIEBREAKERS: Tiebreaker[] = ['points', 'head_to_head', 'score_difference', 'score_for', 'wins', 'seed'];

const result = fc.oneof(
  fc.record({ status: fc.constant('completed'), scoreA: fc.integer({ min: 0, max: 3 }), scoreB: fc.integer({ min: 0, max: 3 }), forfeit: fc.constant(null) }),
  fc.record({ status: fc.constant('completed'), scoreA: fc.constant(null), scoreB: fc.constant(null), forfeit: fc.constantFrom('a', 'b') }),
  // Taken back: a result corrected to live, or the match set back to be played.
  fc.record({ status: fc.constantFrom('live', 'scheduled'), scoreA: fc.constant(null), scoreB: fc.constant(null), forfeit: fc.constant(null) }),
);

describe('standings moved by one report from the stored rows', () => {
  it('are the standings counted from every match, report after report (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          size: fc.integer({ min: 2, max: 12 }),
          // A league may play each pairing twice (home and away).
          legs: fc.constantFrom(1, 2),
          format: fc.constantFrom('round_robin' as const, 'league' as const),
          tiebreakers: fc.shuffledSubarray(TIEBREAKERS, { minLength: 1 }).filter((list) => list[0] !== 'head_to_head'),
          points: fc.record({ win: fc.integer({ min: 0, max: 3 }), draw: fc.integer({ min: 0, max: 2 }), loss: fc.integer({ min: -1, max: 0 }) }),
          adjustments: fc.array(fc.tuple(fc.nat(), fc.integer({ min: -3, max: 3 })), { maxLength: 3 }),
          reports: fc.array(fc.tuple(fc.nat(), result), { minLength: 1, maxLength: 60 }),
        }),
        async ({ size, legs, format, tiebreakers, points, adjustments: adjusted, reports }) => {
          const ids = Array.from({ length: size }, (_, i) => `par_${i}`);
          const settings = { tiebreakers, points, qualifiers: null } as unknown as ResolvedStageSettings;
          const seeding = { method: 'manual' as const, randomSeed: null, participantIds: ids, groups: null };
          const adjustments = new Map<string, number>();
          for (const [who, value] of adjusted) adjustments.set(ids[who % size], (adjustments.get(ids[who % size]) ?? 0) + value);
          const matches = new Map<string, StandingsMatchRow>();
          for (let leg = 0; leg < legs; leg++) {
            for (let a = 0; a < size; a++) {
              for (let b = a + 1; b < size; b++) {
                const id = `mch_${leg}_${a}_${b}`;
                const [home, away] = leg ? [ids[b], ids[a]] : [ids[a], ids[b]];
                matches.set(id, { id, groupId: null, status: 'scheduled', participantAId: home, participantBId: away, scoreA: null, scoreB: null, forfeit: null, isFreeWin: false, opponents: null });
              }
            }
          }
          const all = [...matches.keys()];
          const counted = () => computeStageStandings({ format, settings, seeding, matches: [...matches.values()], adjustments, final: false }).get(null)!;
          let table = stored(counted(), adjustments);
          for (const [which, next] of reports) {
            const id = all[which % all.length];
            const before = matches.get(id)!;
            const after = { ...before, ...next };
            matches.set(id, after);
            const moved = standingsFromStored(format, { settings, seeding, groupId: null, stored: table, before, after, adjustments, theirMatches: theirMatches(matches, after) });
            expect(moved).toEqual(counted());
            table = stored(moved!, adjustments);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leave the counting to the matches when the stored rows miss a participant', async () => {
    const ids = ['par_0', 'par_1', 'par_2'];
    const row: StandingsMatchRow = { id: 'mch_0_1', groupId: null, status: 'scheduled', participantAId: 'par_0', participantBId: 'par_1', scoreA: null, scoreB: null, forfeit: null, isFreeWin: false, opponents: null };
    const settings = { tiebreakers: ['points', 'seed'], points: { win: 3, draw: 1, loss: 0 }, qualifiers: null } as unknown as ResolvedStageSettings;
    const rows = computeStageStandings({ format: 'round_robin', settings, seeding: { method: 'manual', randomSeed: null, participantIds: ids, groups: null }, matches: [], adjustments: new Map(), final: false }).get(null)!;
    const partial = stored(rows, new Map()).slice(0, 2);
    const answer = standingsFromStored('round_robin', { settings, seeding: { method: 'manual', randomSeed: null, participantIds: ids, groups: null }, groupId: null, stored: partial, before: row, after: { ...row, status: 'completed', scoreA: 1, scoreB: 0 }, adjustments: new Map() });
    expect(answer).toBeNull();
  });
});
