// A task woken from many places (notifications, timers, finished work) that must never run twice
// at once: a wake-up while it runs makes it run once more when it finishes, however many came.
// After a failure it backs off: it runs again by itself after a delay that doubles with each failure
// in a row (BACKGROUND_BACKOFF), and wake-ups before then wait for that retry instead of hammering a
// database that is away.
import { backoffDelay, type FailureRun } from './failure-run.ts';

export interface Coalesced {
  (): Promise<void>;
  /** True while the task runs. */
  readonly running: boolean;
  /** Drops a pending retry (when the task's owner stops). */
  cancel(): void;
}

export interface CoalesceOptions {
  /** Where its failures are reported: the first of a run is logged, not each. */
  failures?: FailureRun;
}

export function coalesce(task: () => Promise<void>, { failures }: CoalesceOptions = {}): Coalesced {
  let running = false;
  let again = false;
  let failed = 0;
  let retryAt = 0;
  let retry: NodeJS.Timeout | null = null;
  const later = (ms: number) => {
    retry ??= setTimeout(() => {
      retry = null;
      void run();
    }, ms);
    retry.unref();
  };
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    const wait = retryAt - Date.now();
    if (wait > 0) return later(wait);
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
      failed = 0;
      retryAt = 0;
      failures?.succeeded();
    } catch (error) {
      failed++;
      failures?.failed(error);
      const delay = backoffDelay(failed);
      retryAt = Date.now() + delay;
      later(delay);
    } finally {
      running = false;
    }
  };
  return Object.defineProperties(run, {
    running: { get: () => running },
    cancel: {
      value: () => {
        if (retry) clearTimeout(retry);
        retry = null;
      },
    },
  }) as Coalesced;
}
