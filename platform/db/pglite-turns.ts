// PGlite runs in the server's own thread, and the queries waiting for it ran back to back, each
// started in the microtask that ended the one before: 24 heavy queries queued at once held the event
// loop for 1.3 s, /healthz with it. Every call to the client now waits its turn in one queue and
// yields to the event loop (setImmediate) before it runs, so I/O waiting behind the queue is served
// between two queries. PGlite already runs one call at a time (a query waits for an open
// transaction), so the queue changes no order, only when the loop gets a turn.
import type { PGlite } from '@electric-sql/pglite';

const METHODS = ['query', 'exec', 'transaction'] as const;

export function yieldBetweenQueries(client: PGlite): void {
  let last: Promise<unknown> = Promise.resolve();
  for (const name of METHODS) {
    const original = (client[name] as (...args: unknown[]) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      // PGlite's own start runs queries through these methods while it waits to be ready: not queued.
      if (!client.ready) return original(...args);
      const run = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => original(...args));
      last = run.catch(() => undefined);
      return run;
    };
  }
}
