// A swiss stage's later rounds, paired in the report that completes the round before (in its
// transaction): from the group's standings (computeStandings, the stage's tiebreakers) and every pair
// and bye so far, by the engine's swissNextRound, stored like the rounds generated at start.
import type { SubgraphContext } from '../shared/context.ts';
import type { SqlStatement } from '../shared/db/database.ts';
import { generatedStatements, stageSettingsView, type StageSeeding } from './stage-start.ts';
import { OPEN_GROUP_MATCHES_SQL, SWISS_GROUP_MATCHES_SQL } from './statements.ts';
import { computeStandings, swissNextRound, swissRoundMatches, winnerSlot, type StandingsDuel, type SwissHistoryEntry } from './tournament/index.ts';

export interface SwissStage {
  id: string;
  bestOf: number;
  format: string;
  status: string;
  settings: unknown;
  seeding: unknown;
}

/** The reported match as the report leaves it. */
export interface ReportedMatch {
  id: string;
  groupId: string | null;
  status: string;
  participantAId: string | null;
  participantBId: string | null;
  scoreA: number | null;
  scoreB: number | null;
  forfeit: string | null;
  isFreeWin: boolean;
}

interface SwissMatchRow extends Omit<ReportedMatch, 'groupId'> {
  roundNumber: number;
}

export interface PairedRound {
  groupId: string | null;
  roundNumber: number;
  matchCount: number;
  statements: SqlStatement[];
}

const FINISHED = new Set(['completed', 'cancelled']);

/** The next round of the reported match's group, when the report completed its round and rounds remain; else null. */
export async function pairNextSwissRound(ctx: SubgraphContext, eventId: string, stage: SwissStage, reported: ReportedMatch): Promise<PairedRound | null> {
  if (stage.format !== 'swiss' || stage.status !== 'running' || !FINISHED.has(reported.status)) return null;
  // Most reports leave their round open: one count, and the group's history only when it is over.
  const [{ open }] = await ctx.sql<{ open: number }>(OPEN_GROUP_MATCHES_SQL, [stage.id, reported.groupId, reported.id]);
  if (open > 0) return null;
  const rows = await ctx.sql<SwissMatchRow>(SWISS_GROUP_MATCHES_SQL, [stage.id, reported.groupId]);
  const matches = rows.map((row) => (row.id === reported.id ? { ...row, ...reported } : row));
  if (!matches.every((m) => FINISHED.has(m.status))) return null;
  const settings = stageSettingsView(stage);
  const roundNumber = Math.max(0, ...matches.map((m) => m.roundNumber)) + 1;
  if (roundNumber > (settings.rounds ?? 0)) return null;

  const seeding = stage.seeding as StageSeeding;
  const members = seeding.groups?.find((group) => group.groupId === reported.groupId)?.participantIds ?? seeding.participantIds;
  const seedOf = new Map(seeding.participantIds.map((id, index) => [id, index + 1]));
  const completed = matches.filter((m) => m.status === 'completed');
  const duels: StandingsDuel[] = completed.map((m) => {
    const slot = winnerSlot({ ...m, participantA: m.participantAId, participantB: m.participantBId, forfeit: m.forfeit as 'a' | 'b' | null });
    const isDraw = slot === null && !m.isFreeWin && !m.forfeit && m.scoreA !== null && m.scoreA === m.scoreB;
    return {
      participantA: m.participantAId,
      participantB: m.participantBId,
      scoreA: m.scoreA,
      scoreB: m.scoreB,
      winner: slot === 'a' ? m.participantAId : slot === 'b' ? m.participantBId : null,
      isDraw,
      isFreeWin: m.isFreeWin,
      isForfeit: m.forfeit !== null,
    };
  });
  const standings = computeStandings({ format: 'swiss', settings, participants: members.map((participantId) => ({ participantId, seed: seedOf.get(participantId)! })), matches: duels });
  const history: SwissHistoryEntry[] = completed.filter((m) => m.participantAId).map((m) => ({ a: m.participantAId!, b: m.participantBId }));
  const pairing = swissNextRound({ standings: standings.map((row) => ({ participantId: row.participantId, points: row.points })), history, roundNumber, rounds: settings.rounds! });
  if (!pairing) return null;
  const { round, matches: paired } = swissRoundMatches(roundNumber, pairing, (id) => seedOf.get(id)!, reported.groupId);
  return { groupId: reported.groupId, roundNumber, matchCount: paired.length, statements: generatedStatements(eventId, stage.id, stage.bestOf, { rounds: [round], matches: paired }) };
}
