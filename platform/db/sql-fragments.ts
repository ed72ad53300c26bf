// SQL fragments every statement module uses. Timestamps are stored without a zone, in UTC.
export const NOW = `(now() AT TIME ZONE 'UTC')`;
/** A timestamp column as the API's ISO 8601 string, read as text so that no driver re-zones it. */
export const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
