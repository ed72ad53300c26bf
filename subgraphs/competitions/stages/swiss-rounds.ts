// A swiss stage's later rounds, paired in the report that completes the round before (in its
// transaction): from the group's standings as the report leaves them (standings.ts, the stage's
// tiebreakers) and every pair and bye so far, by the engine's swissNextRound, stored like the rounds
// generated at start.
import type { SqlStatement } from '../../../platform/db/database.ts';
import { generatedStatements } from './start.ts';
import { stageSettingsView, type StageSeeding } from './settings.ts';
import type { StandingsMatchRow } from './statements.ts';
import { swissNextRound, swissRoundMatches, type StandingRow, type SwissHistoryEntry } from '../tournament/index.ts';

export interface SwissStage {
  id: string;
  bestOf: number;
  format: string;
  status: string;
  settings: unknown;
  seeding: unknown;
}

export interface PairedRound {
  groupId: string | null;
  roundNumber: number;
  matchCount: number;
  statements: SqlStatement[];
}

const FINISHED = new Set(['completed', 'cancelled']);

/**
 * The next round of a group, when every match of it (`matches`, as the report leaves them) is over
 * and rounds remain; else null. `standings`: the group's, ranked, after the report.
 */
export function pairNextSwissRound(eventId: string, stage: SwissStage, groupId: string | null, matches: readonly StandingsMatchRow[], standings: readonly StandingRow[]): PairedRound | null {
  if (stage.format !== 'swiss' || stage.status !== 'running') return null;
  if (!matches.every((m) => FINISHED.has(m.status))) return null;
  const settings = stageSettingsView(stage);
  const roundNumber = Math.max(0, ...matches.map((m) => m.roundNumber ?? 0)) + 1;
  if (roundNumber > (settings.rounds ?? 0)) return null;
  const seeding = stage.seeding as StageSeeding;
  const seedOf = new Map(seeding.participantIds.map((id, index) => [id, index + 1]));
  const history: SwissHistoryEntry[] = matches.filter((m) => m.status === 'completed' && m.participantAId).map((m) => ({ a: m.participantAId!, b: m.participantBId }));
  const pairing = swissNextRound({ standings: standings.map((row) => ({ participantId: row.participantId, points: row.points })), history, roundNumber, rounds: settings.rounds! });
  if (!pairing) return null;
  const { round, matches: paired } = swissRoundMatches(roundNumber, pairing, (id) => seedOf.get(id)!, groupId);
  return { groupId, roundNumber, matchCount: paired.length, statements: generatedStatements(eventId, stage.id, stage.bestOf, { rounds: [round], matches: paired }) };
}
