// Counts the SQL statements a database handle sends, for tests that assert batching (countQueries).
// The total includes background work (the change feed's poll, the webhook worker), which on a busy
// machine lands inside any request's window; so each statement is also counted for the request whose
// async work sent it (within), and a test reads one request's own cost by its x-request-id.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Requests remembered: a test reads its request's count right after the answer. */
const REQUESTS_KEPT = 1_000;

export class QueryCounter {
  total = 0;
  private readonly scope = new AsyncLocalStorage<string>();
  private readonly byRequest = new Map<string, number>();

  add(statements = 1): void {
    this.total += statements;
    const request = this.scope.getStore();
    if (request === undefined) return;
    if (!this.byRequest.has(request) && this.byRequest.size >= REQUESTS_KEPT) this.byRequest.delete(this.byRequest.keys().next().value!);
    this.byRequest.set(request, (this.byRequest.get(request) ?? 0) + statements);
  }

  /** Runs `work` with every statement its async work sends counted for `request` too. */
  within<T>(request: string, work: () => T): T {
    return this.scope.run(request, work);
  }

  /** The statements counted for one request; 0 for one never seen. */
  of(request: string): number {
    return this.byRequest.get(request) ?? 0;
  }
}

/** A database handle's queryCount and (when counting) countingFor, the same for every driver. */
export function countingFields(counter: QueryCounter | undefined) {
  if (!counter) return { queryCount: () => 0 };
  return {
    queryCount: (requestId?: string) => (requestId === undefined ? counter.total : counter.of(requestId)),
    countingFor: <T>(requestId: string, work: () => T) => counter.within(requestId, work),
  };
}
