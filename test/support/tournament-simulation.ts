// Plays out generated brackets and brackets-manager stages with the same deterministic outcomes,
// so the two can be compared match by match (tests only).
import { BracketsManager } from 'brackets-manager';
import { InMemoryDatabase } from 'brackets-memory-db';
import type { Bracket, GeneratedDuel, GeneratedMatch } from '../../subgraphs/competitions/tournament/index.ts';

/** A coin for a match: the same place and the same two seeds always give the same winner. */
export function aWins(bracket: string, round: number, position: number, seedA: number, seedB: number, salt: number): boolean {
  let h = 2166136261 ^ salt;
  for (const value of [...bracket].map((c) => c.charCodeAt(0)).concat([round, position, seedA, seedB])) {
    h = Math.imul(h ^ value, 16777619);
  }
  return ((h >>> 0) % 7) < 4;
}

export type Played = Map<string, [number | null, number | null]>;
const placeKey = (bracket: string, round: number, position: number) => `${bracket}/${round}/${position}`;

/** Plays every duel of a generated stage; answers each duel's place → the two seeds that met in it. */
export function playGenerated(matches: GeneratedMatch[], participants: string[], salt: number): Played {
  const duels = new Map(matches.filter((m): m is GeneratedDuel => m.kind === 'duel').map((m) => [m.key, structuredClone(m)]));
  const seed = (id: string | null) => (id === null ? null : participants.indexOf(id) + 1);
  const send = (to: GeneratedDuel['winnerTo'], id: string) => {
    if (!to) return;
    const target = duels.get(to.matchKey)!;
    if (to.slot === 'a') target.participantA = id;
    else target.participantB = id;
  };
  for (let progress = true; progress; ) {
    progress = false;
    for (const duel of duels.values()) {
      if (duel.status !== 'scheduled') continue;
      if (duel.isFreeWin) {
        const present = duel.participantA ?? duel.participantB;
        if (present === null) continue;
        [duel.status, duel.winner] = ['completed', present];
        send(duel.winnerTo, present);
        progress = true;
        continue;
      }
      if (duel.participantA === null || duel.participantB === null) continue;
      if (duel.isGrandFinalReset) {
        const first = duels.get((duel.sourceA as { matchKey: string }).matchKey)!;
        // Played only if the losers-bracket champion (slot b of the first grand final) won it.
        if (first.winner === first.participantA) {
          duel.status = 'completed';
          progress = true;
          continue;
        }
      }
      const a = aWins(duel.bracket ?? '-', duel.roundNumber, duel.position, seed(duel.participantA)!, seed(duel.participantB)!, salt);
      const [winner, loser] = a ? [duel.participantA, duel.participantB] : [duel.participantB, duel.participantA];
      [duel.status, duel.winner] = ['completed', winner];
      send(duel.winnerTo, winner);
      send(duel.loserTo, loser);
      progress = true;
    }
  }
  const played: Played = new Map();
  for (const duel of duels.values()) {
    if (duel.isFreeWin || (duel.isGrandFinalReset && duel.winner === null)) continue;
    played.set(placeKey(duel.bracket ?? '-', duel.roundNumber, duel.position), [seed(duel.participantA), seed(duel.participantB)]);
  }
  return played;
}

export interface ManagerStage {
  /** Per bracket, the number of matches in each round. */
  roundSizes: Map<string, number[]>;
  /** Places whose slot a / slot b is a BYE (nobody will ever come). */
  byes: Set<string>;
  matches: { place: string; a: number | null; b: number | null }[];
}

type ManagerType = 'single_elimination' | 'double_elimination' | 'round_robin';

/** Creates a brackets-manager stage for seeds 1..N (padded with BYEs to `size`). */
export async function managerStage(type: ManagerType, count: number, size: number, settings: Record<string, unknown>) {
  const storage = new InMemoryDatabase();
  const manager = new BracketsManager(storage);
  const seeding = Array.from({ length: size }, (_, i) => (i < count ? `p${i + 1}` : null));
  await manager.create.stage({ tournamentId: 0, name: 'stage', type, seeding, settings: { seedOrdering: [type === 'round_robin' ? 'groups.effort_balanced' : 'inner_outer'], ...settings } as never });
  return manager;
}

function bracketOf(type: ManagerType, groupNumber: number): Bracket | '-' {
  if (type === 'round_robin') return '-';
  if (groupNumber === 1) return 'winners';
  if (type === 'single_elimination') return 'third_place';
  return groupNumber === 2 ? 'losers' : 'grand_final';
}

/** Plays a brackets-manager stage out with the same coin; answers the structure and who met where. */
export async function playManager(type: ManagerType, count: number, size: number, settings: Record<string, unknown>, salt: number): Promise<{ before: ManagerStage; after: Played; ranks: () => Promise<Map<number, number>> }> {
  const manager = await managerStage(type, count, size, settings);
  const read = async () => {
    const data = await manager.get.stageData(0);
    const groups = new Map(data.group.map((g) => [g.id, g.number]));
    const rounds = new Map(data.round.map((r) => [r.id, { number: r.number, bracket: bracketOf(type, groups.get(r.group_id)!) }]));
    return { data, rounds };
  };
  const { data, rounds } = await read();
  const before: ManagerStage = { roundSizes: new Map(), byes: new Set(), matches: [] };
  for (const match of data.match) {
    const round = rounds.get(match.round_id)!;
    const sizes = before.roundSizes.get(round.bracket) ?? [];
    sizes[round.number - 1] = (sizes[round.number - 1] ?? 0) + 1;
    before.roundSizes.set(round.bracket, sizes);
    const place = placeKey(round.bracket, round.number, match.number);
    if (match.opponent1 === null) before.byes.add(`${place}/a`);
    if (match.opponent2 === null) before.byes.add(`${place}/b`);
    before.matches.push({ place, a: match.opponent1?.id == null ? null : Number(match.opponent1.id) + 1, b: match.opponent2?.id == null ? null : Number(match.opponent2.id) + 1 });
  }
  if (type === 'round_robin') return { before, after: new Map(), ranks: async () => new Map() };
  const played = new Set<unknown>();
  const skipped = new Set<unknown>();
  for (;;) {
    const { data: current, rounds: currentRounds } = await read();
    const ready = current.match.find((m) => m.status === 2 && !skipped.has(m.id) && m.opponent1?.id != null && m.opponent2?.id != null);
    if (!ready) break;
    const round = currentRounds.get(ready.round_id)!;
    // brackets-manager leaves it to its user to see that the reset is not needed when the
    // winners-bracket champion (opponent1) won the first grand final.
    if (round.bracket === 'grand_final' && round.number === 2) {
      const first = current.match.find((m) => m.group_id === ready.group_id && currentRounds.get(m.round_id)!.number === 1)!;
      if (first.opponent1?.result === 'win') {
        skipped.add(ready.id);
        continue;
      }
    }
    const a = aWins(round.bracket, round.number, ready.number, Number(ready.opponent1!.id) + 1, Number(ready.opponent2!.id) + 1, salt);
    played.add(ready.id);
    await manager.update.match({ id: ready.id, ...(a ? { opponent1: { result: 'win' } } : { opponent2: { result: 'win' } }) });
  }
  const { data: end, rounds: endRounds } = await read();
  const after: Played = new Map();
  for (const match of end.match) {
    // brackets-manager completes an unneeded grand final reset by itself: only what was played counts.
    if (!played.has(match.id) || match.opponent1?.id == null || match.opponent2?.id == null) continue;
    const round = endRounds.get(match.round_id)!;
    after.set(placeKey(round.bracket, round.number, match.number), [Number(match.opponent1.id) + 1, Number(match.opponent2.id) + 1]);
  }
  // Its final standings on request (it cannot make them for a double elimination of two): seed →
  // rank, counted densely (1, 2, 3, 3, 4).
  const ranks = async () => new Map((await manager.get.finalStandings(0)).map((row) => [Number(row.id) + 1, row.rank]));
  return { before, after, ranks };
}
