// The tournament generation engine's public API (docs/tournaments.md).
export * from './types.ts';
export * from './settings.ts';
export * from './seeding.ts';
export * from './round-names.ts';
export { generateStage, GROUPED_FORMATS, playsGroups, TooFewParticipantsError, MIN_PARTICIPANTS, MAX_STAGE_PARTICIPANTS, MAX_STAGE_MATCHES, type GenerateStageInput, type StageGroupInput } from './generate.ts';
export { pairSwissRound, swissFirstRound, swissNextRound, swissRoundMatches, type SwissNextRoundInput, type SwissPairing, type SwissStanding, type SwissHistoryEntry } from './swiss.ts';
export { snakeDistribution, rankFfa, type FfaPlacement, type RankedFfaOpponent } from './ffa.ts';
export { progress, winnerSlot, DownstreamStartedError, type BracketMatch, type BracketLink, type MatchOutcome, type Progression } from './progression.ts';
export { resolvedSettingsSchema, stageSeedingSchema } from './views.ts';
export { computeStandings, type ComputeStandingsInput, type MatchTotals, type PointAdjustment, type StandingRow, type StandingsDuel, type StandingsFfaMatch, type StandingsMatch, type StandingsParticipant } from './standings.ts';
