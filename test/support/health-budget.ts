// How a test holds a server to "/healthz answers within a second" while it floods it, on a machine
// that may be busy with other work (two cores shared with other test files and other people's jobs).
//
// A slow answer is the server's fault when its event loop was busy for that long: a stall (a
// synchronous walk, a parse, garbage collection on the main thread) spends the server's CPU time. A
// slow answer while the server's main thread was not running (other processes had the cores) is the
// machine's. So each /healthz sample (health-watcher.mjs) records both its wall time and the CPU time
// the server's main thread spent meanwhile (Linux /proc), and the budget holds the smaller of the
// two: a real stall fails it however idle or busy the machine is; a busy machine alone does not.
// test/health-budget.test.ts shows both on a server that stalls on purpose.
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';

export interface HealthSample {
  /** When it was asked (ms since the watch began). */
  atMs: number;
  /** From asking to the end of the answer. */
  wallMs: number;
  /** CPU time the server's main thread spent meanwhile (NaN where /proc cannot tell). */
  cpuMs: number;
}

export interface Watched {
  samples: HealthSample[];
  healthFailures: string[];
  /** When metrics are read: the most heap used (MiB), budgets seen over their limit, the most each budget held (bytes). */
  heapMiB: number;
  overBudget: string[];
  mostUsed: Record<string, number>;
}

/** The time an answer took that the server itself is answerable for: its wall time, but no more than its main thread ran. */
export function ownMs(sample: HealthSample): number {
  return Number.isNaN(sample.cpuMs) ? sample.wallMs : Math.min(sample.wallMs, sample.cpuMs);
}

/** The samples over the budget: answers the server's own work made slower than `limitMs`. */
export function overLatencyBudget(samples: HealthSample[], limitMs: number): HealthSample[] {
  return samples.filter((sample) => ownMs(sample) >= limitMs);
}

/** The slowest answer the server is answerable for (ms). */
export const slowestOwnMs = (samples: HealthSample[]) => Math.max(0, ...samples.map(ownMs));

/** For a failure message: the slow answers, [asked at, wall, CPU] in ms. */
export const slowAnswers = (samples: HealthSample[], overMs = 500) =>
  samples.filter((sample) => sample.wallMs > overMs).slice(0, 20).map((s) => [s.atMs, Math.round(s.wallMs), Math.round(s.cpuMs)]);

let tickMs: number | undefined;

/**
 * Watches `base` (the server process `pid`): /healthz every 100 ms, and /metrics every 250 ms when
 * `metrics`. Answers once the watch runs; stop() answers what it saw.
 */
export async function watchHealth(base: string, pid: number, options: { metrics?: boolean } = {}): Promise<{ stop(): Promise<Watched> }> {
  tickMs ??= 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
  const worker = new Worker(new URL('./health-watcher.mjs', import.meta.url), { workerData: { base, pid, metrics: options.metrics ?? false, tickMs } });
  const result = new Promise<Watched>((resolve, reject) => {
    worker.on('message', (message) => message !== 'ready' && resolve(message));
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message) => message === 'ready' && resolve());
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const seen = await result;
      await worker.terminate();
      return seen;
    },
  };
}
