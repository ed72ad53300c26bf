// Building blocks shared by the bracket formats: blank duels, links between them, and the pass
// that turns byes into free wins and carries their consequences forward.
import type { Bracket, GeneratedDuel, GeneratedRound, MatchSource, Slot } from './types.ts';

export function newRound(key: string, groupKey: string | null, number: number, name: string, bracket: Bracket | null): GeneratedRound {
  return { key, groupKey, number, name, bracket };
}

export function newDuel(round: GeneratedRound, key: string, position: number): GeneratedDuel {
  return {
    kind: 'duel',
    key,
    groupKey: round.groupKey,
    roundKey: round.key,
    roundNumber: round.number,
    position,
    bracket: round.bracket,
    status: 'scheduled',
    isFreeWin: false,
    winner: null,
    winnerTo: null,
    loserTo: null,
    sourceA: null,
    sourceB: null,
    participantA: null,
    participantB: null,
    isGrandFinalReset: false,
  };
}

/** Seeds `seed` (1-based) into a slot; a seed beyond the field is a bye (nobody). */
export function seedSlot(duel: GeneratedDuel, slot: Slot, seed: number, participants: readonly string[]): void {
  if (seed > participants.length) return;
  const source: MatchSource = { type: 'seed', seed };
  if (slot === 'a') [duel.sourceA, duel.participantA] = [source, participants[seed - 1]];
  else [duel.sourceB, duel.participantB] = [source, participants[seed - 1]];
}

/** Sends the winner (or loser) of `from` to a slot of `to`, recording both directions. */
export function link(from: GeneratedDuel, outcome: 'winner' | 'loser', to: GeneratedDuel, slot: Slot): void {
  const target = { matchKey: to.key, slot };
  if (outcome === 'winner') from.winnerTo = target;
  else from.loserTo = target;
  const source: MatchSource = { type: outcome, matchKey: from.key };
  if (slot === 'a') to.sourceA = source;
  else to.sourceB = source;
}

function unlink(duels: Map<string, GeneratedDuel>, from: GeneratedDuel, outcome: 'winner' | 'loser'): void {
  const target = outcome === 'winner' ? from.winnerTo : from.loserTo;
  if (!target) return;
  const to = duels.get(target.matchKey)!;
  if (target.slot === 'a') to.sourceA = null;
  else to.sourceB = null;
  if (outcome === 'winner') from.winnerTo = null;
  else from.loserTo = null;
}

function place(duels: Map<string, GeneratedDuel>, from: GeneratedDuel, participant: string): void {
  if (!from.winnerTo) return;
  const to = duels.get(from.winnerTo.matchKey)!;
  if (from.winnerTo.slot === 'a') to.participantA = participant;
  else to.participantB = participant;
}

/**
 * Marks every duel with an empty slot as a free win, in creation order (every source is created
 * before the duels it feeds). A free win has no loser, so its loser link is removed; one with nobody
 * at all has no winner either, so the slot it fed becomes empty in turn. A free win whose one
 * participant is already known is completed and its winner placed in the next duel.
 */
export function settleByes(ordered: GeneratedDuel[]): void {
  const duels = new Map(ordered.map((duel) => [duel.key, duel]));
  for (const duel of ordered) {
    if (duel.sourceA && duel.sourceB) continue;
    duel.isFreeWin = true;
    unlink(duels, duel, 'loser');
    const present = duel.sourceA ? 'a' : duel.sourceB ? 'b' : null;
    if (present === null) {
      duel.status = 'completed';
      unlink(duels, duel, 'winner');
      continue;
    }
    const participant = present === 'a' ? duel.participantA : duel.participantB;
    if (participant !== null) {
      duel.status = 'completed';
      duel.winner = participant;
      place(duels, duel, participant);
    }
  }
}
