// A task woken from many places (notifications, timers, finished work) that must never run twice
// at once: a wake-up while it runs makes it run once more when it finishes, however many came.
export interface Coalesced {
  (): Promise<void>;
  /** True while the task runs. */
  readonly running: boolean;
}

export function coalesce(task: () => Promise<void>, onError: (error: unknown) => void = () => undefined): Coalesced {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  return Object.defineProperty(run, 'running', { get: () => running }) as Coalesced;
}
