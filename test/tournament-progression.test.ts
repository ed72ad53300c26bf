// Progression (tournament/progression.ts): who goes where once a result is in, byes completed on
// arrival, the grand-final reset, corrections and what blocks them; and free-for-all placements.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DownstreamStartedError,
  generateStage,
  progress,
  rankFfa,
  resolvedSettings,
  winnerSlot,
  type BracketMatch,
  type GeneratedDuel,
  type StageFormat,
  type StageSettings,
} from '../subgraphs/competitions/tournament/index.ts';
import { aWins, playManager, type Played } from './support/tournament-simulation.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
type Stage = Map<string, BracketMatch>;

/** A generated stage as progression reads it from storage (ids are the engine's keys). */
function stageOf(format: StageFormat, n: number, settings: StageSettings = {}): Stage {
  const { matches } = generateStage({ format, settings: resolvedSettings(format, settings), participants: ids(n) });
  const link = (to: GeneratedDuel['winnerTo']) => (to ? { matchId: to.matchKey, slot: to.slot } : null);
  return new Map(
    (matches as GeneratedDuel[]).map((m) => [
      m.key,
      {
        id: m.key,
        status: m.status,
        isFreeWin: m.isFreeWin,
        participantA: m.participantA,
        participantB: m.participantB,
        scoreA: null,
        scoreB: null,
        forfeit: null,
        winnerTo: link(m.winnerTo),
        loserTo: link(m.loserTo),
        isGrandFinalReset: m.isGrandFinalReset,
      },
    ]),
  );
}

const win = (slot: 'a' | 'b') => ({ status: 'completed', scoreA: slot === 'a' ? 2 : 0, scoreB: slot === 'a' ? 0 : 2, forfeit: null });

/** Reports a result and stores what progress() answers. */
function report(stage: Stage, matchId: string, outcome: ReturnType<typeof win> | { status: string; scoreA: number | null; scoreB: number | null; forfeit: 'a' | 'b' | null }) {
  const result = progress(stage, matchId, outcome);
  for (const match of result.changed) stage.set(match.id, match);
  return result;
}

const playable = (m: BracketMatch) => m.status === 'scheduled' && !m.isFreeWin && m.participantA !== null && m.participantB !== null;
const winnerOf = (m: BracketMatch) => {
  const slot = winnerSlot(m);
  return slot === null ? null : slot === 'a' ? m.participantA : m.participantB;
};

describe('progression: where results go', () => {
  it('single elimination: the semi-final winner goes to the final, its loser to the third-place match', () => {
    const stage = stageOf('single_elimination', 4, { thirdPlaceMatch: true });
    const result = report(stage, 'wb:1:1', win('b'));
    expect(result.changed.map((m) => m.id).sort()).toEqual(['3p:1:1', 'wb:1:1', 'wb:2:1']);
    expect(stage.get('wb:2:1')!.participantA).toBe('p4');
    expect(stage.get('3p:1:1')!.participantA).toBe('p1');
    expect(result.reset).toEqual([]);
  });

  it('a forfeit: the other side wins, whatever the scores', () => {
    const stage = stageOf('single_elimination', 4);
    report(stage, 'wb:1:1', { status: 'completed', scoreA: 5, scoreB: 0, forfeit: 'a' });
    expect(stage.get('wb:2:1')!.participantA).toBe('p4');
  });

  it('a score correction with the same winner changes the match alone', () => {
    const stage = stageOf('single_elimination', 4);
    report(stage, 'wb:1:1', win('a'));
    const result = report(stage, 'wb:1:1', { status: 'completed', scoreA: 3, scoreB: 1, forfeit: null });
    expect(result.changed.map((m) => m.id)).toEqual(['wb:1:1']);
    expect(stage.get('wb:2:1')!.participantA).toBe('p1');
  });

  it('another winner moves the new one on, and is refused once the next match started', () => {
    const stage = stageOf('single_elimination', 4, { thirdPlaceMatch: true });
    report(stage, 'wb:1:1', win('a'));
    report(stage, 'wb:1:2', win('a'));
    stage.set('wb:2:1', { ...stage.get('wb:2:1')!, scoreA: 1, scoreB: 0 });
    const corrected = report(stage, 'wb:1:1', win('b'));
    expect(corrected.reset.sort()).toEqual(['3p:1:1', 'wb:2:1']);
    expect(stage.get('wb:2:1')).toMatchObject({ participantA: 'p4', participantB: 'p2', scoreA: null, scoreB: null, status: 'scheduled' });
    expect(stage.get('3p:1:1')).toMatchObject({ participantA: 'p1', participantB: 'p3' });
    stage.set('3p:1:1', { ...stage.get('3p:1:1')!, status: 'live' });
    const refused = (() => {
      try {
        progress(stage, 'wb:1:1', win('a'));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(DownstreamStartedError);
    expect(refused).toMatchObject({ matchId: '3p:1:1', details: [{ issue: 'downstream_started', matchId: '3p:1:1' }] });
  });

  it('double elimination: a losers-bracket bye is completed when its participant arrives, and undone by a correction', () => {
    // 3 participants: seed 1 has a bye in winners round 1, so losers round 1 waits for one participant.
    const stage = stageOf('double_elimination', 3);
    const bye = [...stage.values()].find((m) => m.isFreeWin && m.status === 'scheduled')!;
    const feeder = [...stage.values()].find((m) => m.loserTo?.matchId === bye.id)!;
    report(stage, feeder.id, win('a'));
    expect(stage.get(bye.id)!.status).toBe('completed');
    const next = stage.get(bye.id)!.winnerTo!;
    expect(stage.get(next.matchId)![next.slot === 'a' ? 'participantA' : 'participantB']).toBe(feeder.participantB);
    const corrected = report(stage, feeder.id, win('b'));
    expect(corrected.reset).toContain(next.matchId);
    expect(stage.get(bye.id)!.status).toBe('completed');
    expect(stage.get(next.matchId)![next.slot === 'a' ? 'participantA' : 'participantB']).toBe(feeder.participantA);
    // The bye passes the correction on: a started match behind it blocks it.
    stage.set(next.matchId, { ...stage.get(next.matchId)!, status: 'live' });
    expect(() => progress(stage, feeder.id, win('a'))).toThrow(DownstreamStartedError);
  });

  it('grand final reset: cancelled when the winners-bracket champion wins the first, played when the correction says otherwise', () => {
    const stage = stageOf('double_elimination', 4, { grandFinal: 'double' });
    for (let m = [...stage.values()].find(playable); m && m.id !== 'gf:1:1'; m = [...stage.values()].find(playable)) report(stage, m.id, win('a'));
    const first = stage.get('gf:1:1')!;
    report(stage, 'gf:1:1', win('a'));
    expect(stage.get('gf:2:1')).toMatchObject({ status: 'cancelled', participantA: null, participantB: null });
    report(stage, 'gf:1:1', win('b'));
    expect(stage.get('gf:2:1')).toMatchObject({ status: 'scheduled', participantA: first.participantA, participantB: first.participantB });
    report(stage, 'gf:1:1', win('a'));
    expect(stage.get('gf:2:1')).toMatchObject({ status: 'cancelled', participantA: null, participantB: null });
  });
});

/** Plays every match with the winner `choose` picks, in the order matches become playable. */
function playOut(stage: Stage, choose: (match: BracketMatch) => 'a' | 'b', skip: (match: BracketMatch) => boolean = () => false) {
  for (let m = [...stage.values()].find((x) => playable(x) && !skip(x)); m; m = [...stage.values()].find((x) => playable(x) && !skip(x))) {
    report(stage, m.id, win(choose(m)));
  }
}

describe('progression: brackets played out', () => {
  it('meets brackets-manager: the same coin seats the same seeds in every match', async () => {
    for (const [format, n, settings, managerSettings] of [
      ['single_elimination', 13, { thirdPlaceMatch: true }, { consolationFinal: true }],
      ['double_elimination', 11, { grandFinal: 'double' }, { grandFinal: 'double' }],
      ['double_elimination', 16, { grandFinal: 'simple' }, { grandFinal: 'simple' }],
    ] as const) {
      const salt = 7;
      const size = 2 ** Math.ceil(Math.log2(n));
      const { after } = await playManager(format, n, size, managerSettings, salt);
      const stage = stageOf(format, n, settings as StageSettings);
      const { matches } = generateStage({ format, settings: resolvedSettings(format, settings as StageSettings), participants: ids(n) });
      const place = new Map((matches as GeneratedDuel[]).map((m) => [m.key, m]));
      const seed = (id: string | null) => (id === null ? null : Number(id.slice(1)));
      playOut(stage, (m) => {
        const g = place.get(m.id)!;
        return aWins(g.bracket ?? '-', g.roundNumber, g.position, seed(m.participantA)!, seed(m.participantB)!, salt) ? 'a' : 'b';
      });
      const played: Played = new Map();
      for (const m of stage.values()) {
        const g = place.get(m.id)!;
        if (m.isFreeWin || m.status === 'cancelled') continue;
        played.set(`${g.bracket ?? '-'}/${g.roundNumber}/${g.position}`, [seed(m.participantA), seed(m.participantB)]);
      }
      expect(played, `${format} N=${n}`).toEqual(after);
    }
  });

  const bracket = fc.record({
    format: fc.constantFrom<StageFormat>('single_elimination', 'double_elimination'),
    n: fc.integer({ min: 2, max: 64 }),
    thirdPlaceMatch: fc.boolean(),
    grandFinal: fc.constantFrom('simple', 'double', 'none'),
    coins: fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
  });
  const settingsOf = (b: { format: StageFormat; thirdPlaceMatch: boolean; grandFinal: string }): StageSettings =>
    b.format === 'single_elimination' ? { thirdPlaceMatch: b.thirdPlaceMatch } : { grandFinal: b.grandFinal as 'simple' };
  /** Each match's winner from its place in the stage, whatever the order it is played in. */
  const coin = (coins: boolean[], stage: Stage) => {
    const index = new Map([...stage.keys()].map((id, i) => [id, i]));
    return (m: BracketMatch): 'a' | 'b' => (coins[index.get(m.id)! % coins.length] ? 'a' : 'b');
  };

  it('every match is played with both opponents, one champion, nobody loses more than the format allows', () => {
    fc.assert(
      fc.property(bracket, (b) => {
        const stage = stageOf(b.format, b.n, settingsOf(b));
        playOut(stage, coin(b.coins, stage));
        const losses = new Map<string, number>();
        for (const m of stage.values()) {
          if (m.isFreeWin) {
            expect(m.status).toBe('completed');
            continue;
          }
          if (m.status === 'cancelled') {
            expect(m.isGrandFinalReset).toBe(true);
            continue;
          }
          expect(m.status).toBe('completed');
          expect(m.participantA && m.participantB).toBeTruthy();
          // A third-place match is a second loss for two semi-finalists, not an elimination.
          if (m.id.startsWith('3p:')) continue;
          const loser = m.participantA === winnerOf(m) ? m.participantB! : m.participantA!;
          losses.set(loser, (losses.get(loser) ?? 0) + 1);
        }
        const most = b.format === 'single_elimination' ? 1 : 2;
        for (const count of losses.values()) expect(count).toBeLessThanOrEqual(most);
        if (b.format === 'double_elimination' && b.grandFinal === 'none' && b.n > 2) return;
        const reset = stage.get('gf:2:1');
        const final = reset?.status === 'completed' ? reset : stage.get('gf:1:1') ?? [...stage.values()].filter((m) => m.id.startsWith('wb:')).at(-1)!;
        const champion = winnerOf(final)!;
        expect(ids(b.n)).toContain(champion);
        expect(losses.get(champion) ?? 0).toBeLessThan(most);
        // Where the final decides everything, everyone else lost as often as a participant may.
        if (b.format === 'single_elimination' || (b.grandFinal === 'double' && b.n > 2)) {
          for (const id of ids(b.n)) if (id !== champion) expect(losses.get(id), id).toBe(most);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a correction followed by re-reporting ends where reporting the corrected result first does', () => {
    fc.assert(
      fc.property(bracket, fc.nat(), fc.nat(), (b, pick, later) => {
        const straight = stageOf(b.format, b.n, settingsOf(b));
        const choose = coin(b.coins, straight);
        playOut(straight, choose);

        const corrected = stageOf(b.format, b.n, settingsOf(b));
        // Play some of the bracket, then report one playable match the wrong way round.
        let steps = later % (corrected.size + 1);
        playOut(corrected, choose, () => steps-- <= 0);
        const open = [...corrected.values()].filter(playable);
        if (!open.length) return;
        const wrong = open[pick % open.length];
        const fed = new Set(report(corrected, wrong.id, win(choose(wrong) === 'a' ? 'b' : 'a')).changed.map((m) => m.id));
        // Matches the wrong result did not feed can go on meanwhile.
        playOut(corrected, choose, (m) => fed.has(m.id));
        report(corrected, wrong.id, win(choose(wrong)));
        playOut(corrected, choose);
        expect(corrected).toEqual(straight);
      }),
      { numRuns: 150 },
    );
  });
});

describe('free-for-all placements', () => {
  const lobby = ['p1', 'p2', 'p3', 'p4'];
  it('places every opponent and gives each the points of its place', () => {
    const placements = [
      { participantId: 'p3', place: 1 },
      { participantId: 'p1', place: 2 },
      { participantId: 'p4', place: 3 },
      { participantId: 'p2', place: 4 },
    ];
    expect(rankFfa(lobby, placements, null).map((o) => [o.participantId, o.place, o.points])).toEqual([['p1', 2, 2], ['p2', 4, 0], ['p3', 1, 3], ['p4', 3, 1]]);
    expect(rankFfa(lobby, placements, [10, 6]).map((o) => o.points)).toEqual([6, 0, 10, 0]);
  });

  it('ties share a place and skip the places they take', () => {
    const ranked = rankFfa(lobby, [
      { participantId: 'p1', place: 1 },
      { participantId: 'p2', place: 2 },
      { participantId: 'p3', place: 2 },
      { participantId: 'p4', place: 4 },
    ], [10, 6, 3, 1]);
    expect(ranked.map((o) => o.points)).toEqual([10, 6, 6, 1]);
  });

  it('refuses bad placements naming the field', () => {
    const refused = (placements: { participantId: string; place: number }[]) => {
      try {
        rankFfa(lobby, placements, null);
      } catch (error) {
        return (error as { code: string; details: { field: string }[] });
      }
      throw new Error('accepted');
    };
    expect(refused([{ participantId: 'p1', place: 1 }]).details.map((d) => d.field)).toEqual(['placements']);
    const dup = refused([{ participantId: 'p1', place: 1 }, { participantId: 'p1', place: 2 }, { participantId: 'p3', place: 3 }, { participantId: 'p4', place: 4 }]);
    expect(dup.code).toBe('validation_failed');
    expect(dup.details.map((d) => d.field)).toEqual(['placements.1.participantId', 'placements']);
    expect(refused([{ participantId: 'px', place: 1 }, { participantId: 'p2', place: 2 }, { participantId: 'p3', place: 3 }, { participantId: 'p4', place: 4 }]).details[0].field).toBe('placements.0.participantId');
    expect(refused([{ participantId: 'p1', place: 1 }, { participantId: 'p2', place: 3 }, { participantId: 'p3', place: 3 }, { participantId: 'p4', place: 4 }]).details[0].field).toBe('placements');
    expect(refused([{ participantId: 'p1', place: 1 }, { participantId: 'p2', place: 2 }, { participantId: 'p3', place: 3 }, { participantId: 'p4', place: 5 }]).details[0].field).toBe('placements.3.place');
  });
});
