// Values of the esports subgraph that its REST routes name too: declared once here.

/** The counts of a match's statistics (besides kost and eps). */
export const MATCH_STATISTICS_COUNTS = [
  'matchesPlayed', 'mapsPlayed', 'roundsPlayed', 'kills', 'deaths', 'survivedRounds', 'openingKills', 'openingDeaths', 'headshots',
  'plants', 'defuses', 'clutches', 'clutchOpportunities', 'impactRounds', 'doubleKills', 'tripleKills', 'quadKills', 'aces',
] as const;

/** What metered usage counts. */
export const METRICS = ['esports_calls'] as const;

/** A published stage's and match's status. */
export const ESPORTS_STAGE_STATUSES = ['upcoming', 'running', 'completed'] as const;
export const ESPORTS_MATCH_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;
