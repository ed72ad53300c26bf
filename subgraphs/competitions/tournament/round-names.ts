// The round names organisers expect to see on a bracket or a fixture list.

/** Round `number` of an elimination bracket of `roundCount` rounds (the last is the final). */
export function eliminationRoundName(number: number, roundCount: number): string {
  const fromEnd = roundCount - number;
  if (fromEnd === 0) return 'Final';
  if (fromEnd === 1) return 'Semi-finals';
  if (fromEnd === 2) return 'Quarter-finals';
  // Only a round outside the bracket (which the engine never makes) would need "Round n".
  if (fromEnd < 0) return `Round ${number}`;
  return `Round of ${2 ** (fromEnd + 1)}`;
}

export const losersRoundName = (number: number, roundCount: number): string => (number === roundCount ? 'Losers final' : `Losers round ${number}`);
export const grandFinalRoundName = (number: number): string => (number === 1 ? 'Grand final' : 'Grand final reset');
export const THIRD_PLACE_ROUND_NAME = 'Third-place match';
export const matchdayName = (number: number): string => `Matchday ${number}`;
export const swissRoundName = (number: number): string => `Round ${number}`;
export const FFA_ROUND_NAME = 'Round 1';
