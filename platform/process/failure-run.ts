// A background task that fails again and again (the database is away, say) must not write the same
// error every second: the first failure of a run is logged, then one line a minute while the run
// lasts, and one when the task works again.
export type TaskLog = (message: string, error?: unknown) => void;

/** While a run of failures lasts, one line per this many ms. */
const LOG_EVERY_MS = 60_000;

export class FailureRun {
  /** Failures in a row since the last success. */
  failures = 0;
  private loggedAt = 0;

  constructor(
    private readonly what: string,
    private readonly log: TaskLog,
  ) {}

  failed(error: unknown): void {
    this.failures++;
    const now = Date.now();
    if (this.failures > 1 && now - this.loggedAt < LOG_EVERY_MS) return;
    this.loggedAt = now;
    this.log(this.failures === 1 ? `${this.what} failed; retrying with backoff` : `${this.what} still failing (${this.failures} tries); retrying with backoff`, error);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log(`${this.what} works again after ${this.failures} failed ${this.failures === 1 ? 'try' : 'tries'}`);
    this.failures = 0;
  }
}

/** Retries of background tasks after a failure: 100 ms, doubling, at most 2 s apart (docs/deployment.md). */
export const BACKGROUND_BACKOFF = { minMs: 100, maxMs: 2_000 };

/** The delay before the retry that follows `failures` failures in a row (BACKGROUND_BACKOFF). */
export const backoffDelay = (failures: number) => {
  const { minMs, maxMs } = BACKGROUND_BACKOFF;
  return failures > 0 ? Math.min(maxMs, minMs * 2 ** Math.min(failures - 1, 20)) : 0;
};
