// Who goes where once a bracket match has a result, and what a corrected result undoes. Pure: the
// caller reads the matches downstream of the reported one, calls progress() and writes back the
// matches it answers. docs/tournaments.md ("Reporting results") states the rules.
import { ApiError } from '../../../platform/api/errors.ts';
import type { Slot } from './types.ts';

export interface BracketLink {
  matchId: string;
  slot: Slot;
}

/** A duel of a generated stage as progression sees it. */
export interface BracketMatch {
  id: string;
  /** scheduled | live | completed | cancelled */
  status: string;
  /** A bye: won by its one participant without playing (it has no loser). */
  isFreeWin: boolean;
  participantA: string | null;
  participantB: string | null;
  scoreA: number | null;
  scoreB: number | null;
  /** The side that forfeited: the other side won, whatever the scores. */
  forfeit: Slot | null;
  winnerTo: BracketLink | null;
  loserTo: BracketLink | null;
  /** The second grand final of grandFinal: double, played only when the losers-bracket champion wins the first. */
  isGrandFinalReset: boolean;
}

/** What a report sets on the reported match. */
export type MatchOutcome = Pick<BracketMatch, 'status' | 'scoreA' | 'scoreB' | 'forfeit'>;

const other = (slot: Slot): Slot => (slot === 'a' ? 'b' : 'a');
const participantIn = (match: BracketMatch, slot: Slot) => (slot === 'a' ? match.participantA : match.participantB);
const withSlot = (match: BracketMatch, slot: Slot, participant: string | null): BracketMatch =>
  slot === 'a' ? { ...match, participantA: participant } : { ...match, participantB: participant };

/**
 * The slot that won a completed match: a bye's present side, the side that did not forfeit, or the
 * higher score; null while not completed, for a draw, and for a bye with nobody.
 */
export function winnerSlot(match: Pick<BracketMatch, 'status' | 'isFreeWin' | 'participantA' | 'participantB' | 'scoreA' | 'scoreB' | 'forfeit'>): Slot | null {
  if (match.status !== 'completed') return null;
  if (match.forfeit) return other(match.forfeit);
  if (match.isFreeWin) return match.participantA ? 'a' : match.participantB ? 'b' : null;
  if (match.scoreA == null || match.scoreB == null || match.scoreA === match.scoreB) return null;
  return match.scoreA > match.scoreB ? 'a' : 'b';
}

/** A correction would undo a match that is already live or completed: 409, naming that match. */
export class DownstreamStartedError extends ApiError {
  readonly matchId: string;
  constructor(matchId: string, status: string) {
    super('conflict', `Match ${matchId} was fed by this result and is already ${status}: correct it first, then this match.`, [
      { issue: 'downstream_started', matchId },
    ]);
    this.matchId = matchId;
  }
}

export interface Progression {
  /** Every match whose state changed, the reported one included, in their new state. */
  changed: BracketMatch[];
  /** The matches a correction took a participant from (their scores and maps are void). */
  reset: string[];
}

/**
 * Applies `outcome` to match `matchId` and carries it through the bracket. `matches` holds at least
 * the reported match and every match downstream of it (through winnerTo and loserTo).
 *
 * - A winner is placed in winnerTo's slot and the loser in loserTo's (a bye has no loser). A bye still
 *   waiting for its one participant is completed when it arrives and passes it on at once.
 * - The first grand final of grandFinal: double: when slot a (the winners-bracket champion) wins, the
 *   reset is not played: it is cancelled, with nobody placed.
 * - A different winner for a completed match first undoes what its old result fed: each slot it filled
 *   is emptied and that match goes back to scheduled without scores, recursively through the byes it
 *   completed and through a cancelled reset; a match there that is live or completed (other than such a
 *   bye) stops it all (DownstreamStartedError). The same winner with other scores changes nothing else.
 */
export function progress(matches: ReadonlyMap<string, BracketMatch>, matchId: string, outcome: MatchOutcome): Progression {
  const state = new Map(matches);
  const changed = new Set<string>();
  const reset = new Set<string>();
  const get = (id: string) => {
    const match = state.get(id);
    if (!match) throw new Error(`Match ${id} is linked but was not read.`);
    return match;
  };
  const put = (match: BracketMatch) => {
    state.set(match.id, match);
    changed.add(match.id);
  };

  const retract = (from: BracketMatch) => {
    for (const link of [from.winnerTo, from.isFreeWin ? null : from.loserTo]) {
      if (!link) continue;
      const target = get(link.matchId);
      const passThrough = target.isFreeWin && target.status === 'completed';
      if (!passThrough && (target.status === 'live' || target.status === 'completed')) throw new DownstreamStartedError(target.id, target.status);
      put({ ...withSlot(target, link.slot, null), status: 'scheduled', scoreA: null, scoreB: null, forfeit: null });
      reset.add(target.id);
      if (passThrough) retract(target);
    }
  };

  const place = (link: BracketLink, participant: string | null) => {
    const target = withSlot(get(link.matchId), link.slot, participant);
    // A bye waiting for its one participant: completed as soon as it comes.
    if (target.isFreeWin && target.status === 'scheduled' && participant !== null) {
      const completed = { ...target, status: 'completed' };
      put(completed);
      advance(completed);
    } else {
      put(target);
    }
  };

  const advance = (from: BracketMatch) => {
    const won = winnerSlot(from);
    if (won === null) return;
    const gfReset = from.winnerTo && get(from.winnerTo.matchId).isGrandFinalReset ? get(from.winnerTo.matchId) : null;
    if (gfReset && won === 'a') {
      put({ ...gfReset, participantA: null, participantB: null, status: 'cancelled', scoreA: null, scoreB: null, forfeit: null });
      return;
    }
    if (from.winnerTo) place(from.winnerTo, participantIn(from, won));
    if (from.loserTo && !from.isFreeWin) place(from.loserTo, participantIn(from, other(won)));
  };

  const before = get(matchId);
  const after = { ...before, ...outcome };
  put(after);
  const [was, is] = [winnerSlot(before), winnerSlot(after)];
  if (was !== is || (was !== null && participantIn(before, was) !== participantIn(after, is!))) {
    if (was !== null) retract(before);
    if (is !== null) advance(get(matchId));
  }
  return { changed: [...changed].map(get), reset: [...reset].filter((id) => id !== matchId) };
}
