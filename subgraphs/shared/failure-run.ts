// A background task that fails again and again (the database is away, say) must not write the same
// error every second: the first failure of a run is logged, then one line a minute while the run
// lasts, and one when the task works again.
export type TaskLog = (message: string, error?: unknown) => void;

export class FailureRun {
  /** Failures in a row since the last success. */
  failures = 0;
  private loggedAt = 0;

  constructor(
    private readonly what: string,
    private readonly log: TaskLog,
    private readonly everyMs = 60_000,
  ) {}

  failed(error: unknown): void {
    this.failures++;
    const now = Date.now();
    if (this.failures > 1 && now - this.loggedAt < this.everyMs) return;
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

export const backoffDelay = (failures: number, { minMs, maxMs } = BACKGROUND_BACKOFF) => (failures > 0 ? Math.min(maxMs, minMs * 2 ** Math.min(failures - 1, 20)) : 0);
