// Values of the competitions subgraph that other parts name too (the webhook catalogue describes its
// changes): declared once here, used by the engine, the inputs and the catalogue.

/** A stage's brackets, in the order a stage's matches are listed. */
export const BRACKET_ORDER = ['winners', 'losers', 'grand_final', 'third_place'] as const;

/** How a stage's participants are seeded at its start. */
export const SEEDING_METHODS = ['registration', 'random', 'manual', 'previous_stage'] as const;

/** A match's status. */
export const MATCH_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;
