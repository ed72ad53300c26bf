// The shapes the generation engine answers with. Keys are local to one generated stage: the caller
// maps them to row ids when it stores the stage, so links between matches survive that mapping.
import { BRACKET_ORDER, STAGE_FORMATS } from '../../../platform/domain/competition-vocabulary.ts';

export { STAGE_FORMATS };
export type StageFormat = (typeof STAGE_FORMATS)[number];

/** The brackets of elimination stages, in the order a stage's matches are listed. */
export { BRACKET_ORDER };
export type Bracket = (typeof BRACKET_ORDER)[number];
export type Slot = 'a' | 'b';

/** Where a match's winner or loser goes next. */
export interface MatchLink {
  matchKey: string;
  slot: Slot;
}

/** Who fills a slot: a seed of the stage, or the winner or loser of an earlier match. null: nobody (a bye). */
export type MatchSource = { type: 'seed'; seed: number } | { type: 'winner' | 'loser'; matchKey: string };

export interface GeneratedRound {
  key: string;
  groupKey: string | null;
  /** 1-based, contiguous within one (groupKey, bracket). */
  number: number;
  name: string;
  bracket: Bracket | null;
}

interface MatchBase {
  key: string;
  groupKey: string | null;
  roundKey: string;
  roundNumber: number;
  /** 1-based, contiguous within its round. */
  position: number;
  bracket: Bracket | null;
  status: 'scheduled' | 'completed';
  /**
   * A match that is won without playing: a bye. Completed at once when its one participant is known
   * (winner set); a losers-bracket bye whose participant is still to come is scheduled with winner
   * null, and the caller completes it as soon as that participant is placed. A bye with nobody at all
   * is completed with winner null: nobody advances from it.
   */
  isFreeWin: boolean;
  winner: string | null;
}

export interface GeneratedDuel extends MatchBase {
  kind: 'duel';
  winnerTo: MatchLink | null;
  loserTo: MatchLink | null;
  sourceA: MatchSource | null;
  sourceB: MatchSource | null;
  participantA: string | null;
  participantB: string | null;
  /**
   * The second grand final of `grandFinal: 'double'` (bracket grand_final, round 2): played only when
   * the losers-bracket champion (slot b of the first grand final) wins the first one; otherwise the
   * caller cancels it. Its slot a is fed by the first's loser, slot b by its winner, so when it is
   * played each champion keeps its side.
   */
  isGrandFinalReset: boolean;
}

export interface GeneratedFfaMatch extends MatchBase {
  kind: 'ffa';
  /** Participant ids, best seed first. */
  opponents: string[];
}

export type GeneratedMatch = GeneratedDuel | GeneratedFfaMatch;

export interface GeneratedStage {
  rounds: GeneratedRound[];
  matches: GeneratedMatch[];
}
