// Free-for-all: one round of ⌈N / participantsPerMatch⌉ matches, filled by seed in a snake: seeds
// 1..M go to matches 1..M, seeds M+1..2M to matches M..1, and so on, so every match gets a fair share
// of strong and weak seeds and sizes differ by at most one. A match left with a single participant
// (two per match and an odd count) is a free win.
import { ApiError, type ErrorDetail } from '../../../platform/api/errors.ts';
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

export interface FfaPlacement {
  participantId: string;
  place: number;
}

export interface RankedFfaOpponent {
  participantId: string;
  place: number;
  points: number;
}

/**
 * A free-for-all match's result: every opponent placed exactly once, places 1..m in competition
 * ranking (tied opponents share a place and the next place skips as many: 1, 2, 2, 4), each earning
 * the points of its place: pointsByPlace[place − 1] (0 past the list's end), or m − place without a
 * list. Answers the opponents in their stored order; bad placements are a 400 naming the field.
 */
export function rankFfa(opponents: readonly string[], placements: readonly FfaPlacement[], pointsByPlace: readonly number[] | null): RankedFfaOpponent[] {
  const issues: ErrorDetail[] = [];
  const placeOf = new Map<string, number>();
  placements.forEach(({ participantId, place }, index) => {
    if (!opponents.includes(participantId)) issues.push({ field: `placements.${index}.participantId`, issue: `${participantId} is not an opponent of this match` });
    else if (placeOf.has(participantId)) issues.push({ field: `placements.${index}.participantId`, issue: `${participantId} is placed twice` });
    else placeOf.set(participantId, place);
    if (place > opponents.length) issues.push({ field: `placements.${index}.place`, issue: `at most ${opponents.length} (the match has ${opponents.length} opponents)` });
  });
  const missing = opponents.filter((id) => !placeOf.has(id));
  if (missing.length) issues.push({ field: 'placements', issue: `every opponent is placed once; missing: ${missing.join(', ')}` });
  if (!issues.length) {
    // Competition ranking: sorted, the i-th place (from 0) is i + 1 or the place before it (a tie).
    const sorted = [...placeOf.values()].sort((x, y) => x - y);
    const gap = sorted.findIndex((place, index) => place !== index + 1 && place !== sorted[index - 1]);
    if (gap !== -1) issues.push({ field: 'placements', issue: `places run 1..${opponents.length}, a tie skipping the places it shares (1, 2, 2, 4): place ${sorted[gap]} comes where ${gap + 1} was expected` });
  }
  if (issues.length) throw new ApiError('validation_failed', 'The placements must place every opponent of the match once, in places 1..n.', issues);
  return opponents.map((participantId) => {
    const place = placeOf.get(participantId)!;
    const points = pointsByPlace ? (pointsByPlace[place - 1] ?? 0) : opponents.length - place;
    return { participantId, place, points };
  });
}
