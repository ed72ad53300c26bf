// Free-for-all: one round of ⌈N / participantsPerMatch⌉ matches, filled by seed in a snake: seeds
// 1..M go to matches 1..M, seeds M+1..2M to matches M..1, and so on, so every match gets a fair share
// of strong and weak seeds and sizes differ by at most one. A match left with a single participant
// (two per match and an odd count) is a free win.
import { FFA_ROUND_NAME } from './round-names.ts';
import type { GeneratedFfaMatch, GeneratedRound } from './types.ts';

/** Match index (0-based) of each seed index (0-based), snake order over `matchCount` matches. */
export function snakeDistribution(count: number, matchCount: number): number[] {
  return Array.from({ length: count }, (_, index) => {
    const row = Math.floor(index / matchCount);
    const column = index % matchCount;
    return row % 2 === 0 ? column : matchCount - 1 - column;
  });
}

export function ffa(participants: readonly string[], participantsPerMatch: number | null, groupKey: string | null = null): { rounds: GeneratedRound[]; matches: GeneratedFfaMatch[] } {
  const perMatch = participantsPerMatch ?? participants.length;
  const matchCount = Math.ceil(participants.length / perMatch);
  const prefix = groupKey === null ? 'ffa' : `${groupKey}/ffa`;
  const round: GeneratedRound = { key: `${prefix}:1`, groupKey, number: 1, name: FFA_ROUND_NAME, bracket: null };
  const lobbies: string[][] = Array.from({ length: matchCount }, () => []);
  snakeDistribution(participants.length, matchCount).forEach((match, seedIndex) => lobbies[match].push(participants[seedIndex]));
  const matches = lobbies.map((opponents, index): GeneratedFfaMatch => {
    const alone = opponents.length === 1;
    return {
      kind: 'ffa',
      key: `${prefix}:1:${index + 1}`,
      groupKey,
      roundKey: round.key,
      roundNumber: 1,
      position: index + 1,
      bracket: null,
      status: alone ? 'completed' : 'scheduled',
      isFreeWin: alone,
      winner: alone ? opponents[0] : null,
      opponents,
    };
  });
  return { rounds: [round], matches };
}
