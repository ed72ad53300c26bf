// Sends one logical request: adds the credential, waits while the last RateLimit field said the quota
// is spent, and retries what may be retried — 429 and 503 after their Retry-After (else an
// exponential backoff with full jitter), and a failed connection — within bounds the caller sets.
// Each attempt sends a copy of the same request, so an Idempotency-Key set once is sent on every retry.
import { ApiConnectionError } from './errors.ts';
import type { Authorizer } from './auth.ts';
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rate-limits.ts';

export interface RetryOptions {
  /** Retries after the first attempt (default 2); 0 sends each request once. */
  maxRetries?: number;
  /** The longest wait accepted before a retry (default 30,000 ms): an answer asking for longer is returned (thrown) at once. */
  maxDelayMs?: number;
  /** The backoff when an answer says nothing of when to retry (default 500 ms), doubled per retry, with full jitter. */
  baseDelayMs?: number;
  /** Wait before sending while the last answer's RateLimit said the quota is spent (default true). */
  waitForQuota?: boolean;
  /** Told before every wait: what failed and how long the client waits. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** The answer's status, or null when the connection failed (or for a wait for the quota, 0). */
  status: number | null;
  delayMs: number;
  reason: 'retry_after' | 'backoff' | 'quota' | 'connection';
}

export interface SendOptions {
  retry?: RetryOptions | false;
  /** May the request be sent again after a 503 or a failed connection? (a safe method, or a write with an Idempotency-Key or If-Match) */
  repeatable: boolean;
}

export interface Sent {
  response: Response;
  attempts: number;
}

const RETRY_STATUSES = new Set([429, 503]);

export class Transport {
  /** The quota as the last answer told it. */
  private quota: { rateLimit: RateLimit; resetAt: number } | undefined;
  private readonly sent = new WeakMap<Response, number>();

  constructor(
    private readonly fetch: (request: Request) => Promise<Response>,
    private readonly auth: Authorizer,
    private readonly defaults: RetryOptions,
    private readonly extraHeaders: Record<string, string>,
  ) {}

  /** How many attempts a response took (for responses this transport answered). */
  attemptsOf(response: Response): number {
    return this.sent.get(response) ?? 1;
  }

  async send(request: Request, options: SendOptions): Promise<Response> {
    // retry: false sends this call once, now: no retry, and no wait for the quota either.
    const retry = options.retry === false ? { maxRetries: 0, waitForQuota: false } : { ...this.defaults, ...options.retry };
    const maxRetries = retry.maxRetries ?? 2;
    const maxDelayMs = retry.maxDelayMs ?? 30_000;
    const baseDelayMs = retry.baseDelayMs ?? 500;
    for (const [name, value] of Object.entries(this.extraHeaders)) if (!request.headers.has(name)) request.headers.set(name, value);
    await this.authorize(request);
    let reauthorized = false;
    for (let attempt = 1; ; attempt++) {
      if (retry.waitForQuota !== false) {
        const wait = this.quotaWait();
        if (wait > 0 && wait <= maxDelayMs) {
          retry.onRetry?.({ attempt: attempt - 1, status: 0, delayMs: wait, reason: 'quota' });
          await sleep(wait, request.signal);
        }
      }
      let response: Response;
      try {
        response = await this.fetch(request.clone());
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason ?? error;
        if (!options.repeatable || attempt > maxRetries) {
          throw new ApiConnectionError(`${request.method} ${new URL(request.url).pathname} got no answer after ${attempt} attempt(s): ${(error as Error).message}`, attempt, { cause: error });
        }
        const delayMs = backoff(attempt, baseDelayMs, maxDelayMs);
        retry.onRetry?.({ attempt, status: null, delayMs, reason: 'connection' });
        await sleep(delayMs, request.signal);
        continue;
      }
      this.observe(response);
      if (response.status === 401 && !reauthorized && this.auth.invalidate()) {
        // A cached client-credentials token was revoked or expired early: fetch another, once.
        reauthorized = true;
        await response.body?.cancel();
        await this.authorize(request);
        attempt--;
        continue;
      }
      const retryable = RETRY_STATUSES.has(response.status) && (response.status === 429 || options.repeatable);
      if (!retryable || attempt > maxRetries) {
        this.sent.set(response, attempt);
        return response;
      }
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const delayMs = retryAfter === null ? backoff(attempt, baseDelayMs, maxDelayMs) : retryAfter * 1000 + jitter(retryAfter * 1000);
      if (delayMs > maxDelayMs) {
        this.sent.set(response, attempt);
        return response;
      }
      await response.body?.cancel();
      retry.onRetry?.({ attempt, status: response.status, delayMs, reason: retryAfter === null ? 'backoff' : 'retry_after' });
      await sleep(delayMs, request.signal);
    }
  }

  private async authorize(request: Request) {
    for (const [name, value] of Object.entries(await this.auth.headers())) request.headers.set(name, value);
  }

  private observe(response: Response) {
    // A refused credential's answer counts the address's failures (auth_failures, anonymous), not the
    // quota this client's credential spends: it must not hold back the calls that follow.
    if (response.status === 401) return;
    const rateLimit = parseRateLimit(response.headers.get('ratelimit'));
    if (rateLimit) this.quota = { rateLimit, resetAt: Date.now() + rateLimit.resetSeconds * 1000 };
  }

  private quotaWait(): number {
    if (!this.quota || this.quota.rateLimit.remaining > 0) return 0;
    const wait = this.quota.resetAt - Date.now();
    return wait > 0 ? wait + jitter(wait) : 0;
  }
}

/** Full jitter: a random wait up to base·2^(attempt−1), at most the cap. */
function backoff(attempt: number, baseDelayMs: number, capMs: number): number {
  return Math.round(Math.random() * Math.min(capMs, baseDelayMs * 2 ** (attempt - 1)));
}

/** Added to a wait the server named, so that clients told the same moment do not all come back at it: up to 10 %, between 50 ms and 1 s. */
function jitter(waitMs: number): number {
  return Math.round(Math.random() * Math.min(1000, Math.max(50, waitMs / 10)));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const rateLimitOf = (headers: Headers) => parseRateLimit(headers.get('ratelimit'));
export const retryAfterOf = (headers: Headers) => parseRetryAfter(headers.get('retry-after'));
