// A stage's matches as the v1 routes answer them, turned into the data brackets-viewer draws
// (brackets-model: stages, matches, participants). Pure, so it is tested without a browser.
//
// brackets-viewer orders a stage's groups and a group's rounds by their ids (it groups them in
// objects, where integer keys come in ascending order), so both are given numbers: the winners
// bracket is group 0, the losers bracket 1 and the final group (grand final, or a single
// elimination's third-place match) 2 or 1; a round is its group × 1000 + its number.
import type { Row } from './api.ts';

export interface ViewerData {
  stages: Row[];
  matches: Row[];
  matchGames: Row[];
  participants: Row[];
}

/** brackets-model's Status: Locked, Waiting, Ready, Running, Completed. */
const LOCKED = 0;
const WAITING = 1;
const READY = 2;
const RUNNING = 3;
const COMPLETED = 4;

const GROUPS: Record<string, Record<string, number>> = {
  single_elimination: { winners: 0, third_place: 1 },
  double_elimination: { winners: 0, losers: 1, grand_final: 2 },
};

export const drawsBracket = (format: string) => Object.hasOwn(GROUPS, format);

/**
 * A slot: the participant placed there, a bye (null: nobody will come — a slot no seed fills, a
 * seed beyond the field, the loser of a match won by a bye), or still to be decided ({id: null}).
 */
function slot(opponent: Row | null, source: Row | null, match: Row): Row | null {
  if (opponent) {
    return {
      id: opponent.participantId,
      score: opponent.score ?? undefined,
      result: opponent.result ?? undefined,
      forfeit: opponent.forfeit || undefined,
      position: source?.type === 'seed' ? source.seed : undefined,
    };
  }
  if (!source || source.type === 'seed' || (match.isFreeWin && match.status === 'completed')) return null;
  return { id: null };
}

function status(match: Row, a: Row | null, b: Row | null): number {
  if (match.status === 'completed' || match.status === 'cancelled') return COMPLETED;
  if (match.status === 'live') return RUNNING;
  const placed = [a, b].filter((o) => o?.id != null).length;
  return placed === 2 ? READY : placed === 1 ? WAITING : LOCKED;
}

export function toViewerData(stage: Row, matches: Row[]): ViewerData {
  const groups = GROUPS[stage.format];
  const participants = new Map<string, Row>();
  const grandFinalRounds = new Set<number>();
  let firstRoundMatches = 0;
  const converted = matches.flatMap((match) => {
    const group = groups[match.bracket ?? 'winners'];
    if (group === undefined || match.roundNumber == null || match.position == null) return [];
    if (match.bracket === 'grand_final') grandFinalRounds.add(match.roundNumber);
    if (group === 0 && match.roundNumber === 1) firstRoundMatches++;
    for (const opponent of [match.opponentA, match.opponentB]) {
      if (opponent) participants.set(opponent.participantId, { id: opponent.participantId, tournament_id: stage.eventId, name: opponent.name ?? opponent.participantId });
    }
    const opponent1 = slot(match.opponentA, match.sourceA, match);
    const opponent2 = slot(match.opponentB, match.sourceB, match);
    return [
      {
        id: match.id,
        stage_id: stage.id,
        group_id: group,
        round_id: group * 1000 + match.roundNumber,
        number: match.position,
        child_count: 0,
        status: status(match, opponent1, opponent2),
        opponent1,
        opponent2,
      },
    ];
  });
  // The viewer takes a group's matches in the order given: a grand final before its reset.
  converted.sort((a, b) => a.round_id - b.round_id || a.number - b.number);
  const settings = stage.format === 'double_elimination'
    ? { size: firstRoundMatches * 2, grandFinal: grandFinalRounds.size === 2 ? 'double' : grandFinalRounds.size === 1 ? 'simple' : 'none', matchesChildCount: 0 }
    : { size: firstRoundMatches * 2, consolationFinal: converted.some((m) => m.group_id === 1), matchesChildCount: 0 };
  return {
    stages: [{ id: stage.id, tournament_id: stage.eventId, name: stage.name, type: stage.format, number: 1, settings }],
    matches: converted,
    matchGames: [],
    participants: [...participants.values()],
  };
}
