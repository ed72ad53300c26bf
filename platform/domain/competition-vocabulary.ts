// Values of the competitions subgraph that other parts name too (the webhook catalogue describes its
// changes): declared once here, used by the engine, the inputs and the catalogue.

/** A stage's brackets, in the order a stage's matches are listed. */
export const BRACKET_ORDER = ['winners', 'losers', 'grand_final', 'third_place'] as const;

/** How a stage's participants are seeded at its start. */
export const SEEDING_METHODS = ['registration', 'random', 'manual', 'previous_stage'] as const;

/** A match's status. */
export const MATCH_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;

/** Who may see an event, and where it is in its life. */
export const EVENT_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const EVENT_STATES = ['draft', 'scheduled', 'live', 'completed', 'cancelled'] as const;

/** A player's statistics in an event: the totals counted and the rates computed from them. */
export const PLAYER_TOTALS = ['matchesPlayed', 'roundsPlayed', 'roundsWon', 'kills', 'deaths', 'assists', 'headshots', 'openingKills', 'openingDeaths', 'plants', 'defuserDisables', 'clutchSituations', 'clutchWins'] as const;
export const PLAYER_RATES = ['kdr', 'kpr', 'kostPercent', 'winRate', 'headshotPercent', 'survivalPercent', 'plantPercent', 'defusePercent', 'rating'] as const;

/** The formats a stage is played in. */
export const STAGE_FORMATS = ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'league', 'ffa'] as const;

/** What breaks a tie in standings, in the order a stage may list them. */
export const TIEBREAKERS = ['points', 'head_to_head', 'score_difference', 'score_for', 'wins', 'buchholz', 'seed'] as const;
