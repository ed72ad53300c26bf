// The answer's advice on when to come back: Retry-After (seconds or an HTTP date) and the IETF
// RateLimit fields (draft-ietf-httpapi-ratelimit-headers: `"token";r=5987;t=42`).

export interface RateLimit {
  /** The quota's name: token, api_key, anonymous, client, auth_failures. */
  policy: string;
  remaining: number;
  /** Seconds until the window starts over. */
  resetSeconds: number;
}

export function parseRateLimit(value: string | null): RateLimit | null {
  if (!value) return null;
  const match = /^\s*"?([^";]+)"?\s*;(.*)$/.exec(value);
  if (!match) return null;
  const params = Object.fromEntries(
    match[2]
      .split(';')
      .map((part) => part.trim().split('='))
      .filter(([key, number]) => key && number !== undefined && /^\d+$/.test(number))
      .map(([key, number]) => [key, Number(number)]),
  );
  if (params.r === undefined || params.t === undefined) return null;
  return { policy: match[1], remaining: params.r, resetSeconds: params.t };
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
