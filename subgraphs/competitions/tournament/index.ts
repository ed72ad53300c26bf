// The tournament generation engine's public API (docs/tournaments.md).
export * from './types.ts';
export * from './settings.ts';
export * from './seeding.ts';
export * from './round-names.ts';
export { generateStage, TooFewParticipantsError, MIN_PARTICIPANTS, MAX_STAGE_PARTICIPANTS, MAX_STAGE_MATCHES, type GenerateStageInput, type StageGroupInput } from './generate.ts';
export { pairSwissRound, swissFirstRound, swissNextRound, swissRoundMatches, type SwissNextRoundInput, type SwissPairing, type SwissStanding, type SwissHistoryEntry } from './swiss.ts';
export { snakeDistribution } from './ffa.ts';
export { computeStandings, type ComputeStandingsInput, type PointAdjustment, type StandingRow, type StandingsDuel, type StandingsFfaMatch, type StandingsMatch, type StandingsParticipant } from './standings.ts';
