// The changes one subscription receives: with `after`, the feed's changes after that cursor read from
// the database, then the hub's live batches, with no gap and no duplicate at the switch.
//
// The hub listener is registered before the replay starts, so every change the hub reads from then
// on is queued; the replay reads every settled change up to the moment it finds no more, which
// includes everything the hub had read before the listener existed. Where the two overlap, a change
// at or before the last position handed out is skipped.
//
// A hand-written iterator rather than an async generator: return() (the client unsubscribed, the
// socket closed) must end it at once, also while it waits for the next change.
import type { Database } from '../../subgraphs/shared/db/database.ts';
import { comparePositions, readChanges, type FeedChange, type FeedPosition } from '../../subgraphs/shared/change-feed.ts';
import type { ChangeHub } from './hub.ts';

export interface StreamOptions {
  hub: ChangeHub;
  db: Database;
  after: FeedPosition | null;
  filter: (change: FeedChange) => boolean;
  /** Live changes this subscription may hold unsent before it is given up as too slow. */
  maxQueued: number;
  onOverflow: () => void;
}

export function changeStream(options: StreamOptions): AsyncGenerator<FeedChange> {
  const queue: FeedChange[] = [];
  const replayed: FeedChange[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  let overflowed = false;
  // A cursor from another instance may be ahead of this hub: nothing at or before it is sent again.
  let last: FeedPosition | null = options.after;
  let replaying = options.after !== null;
  const unsubscribe = options.hub.subscribe((changes) => {
    if (overflowed || finished) return;
    for (const change of changes) if (options.filter(change)) queue.push(change);
    if (queue.length > options.maxQueued) {
      overflowed = true;
      queue.length = 0;
      options.onOverflow();
    }
    wake?.();
  });
  const finish = (): IteratorReturnResult<undefined> => {
    finished = true;
    unsubscribe();
    wake?.();
    return { done: true, value: undefined };
  };

  async function next(): Promise<IteratorResult<FeedChange, undefined>> {
    while (replaying && !replayed.length && !finished) {
      const changes = await readChanges(options.db.sql, last!, 500);
      if (!changes.length) {
        replaying = false;
        break;
      }
      last = changes[changes.length - 1].position;
      for (const change of changes) if (options.filter(change)) replayed.push(change);
    }
    if (finished) return { done: true, value: undefined };
    const fromReplay = replayed.shift();
    if (fromReplay) return { done: false, value: fromReplay };
    for (;;) {
      if (finished || overflowed) return finish();
      const change = queue.shift();
      if (!change) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      if (last && comparePositions(change.position, last) <= 0) continue;
      last = change.position;
      return { done: false, value: change };
    }
  }

  const iterator: AsyncGenerator<FeedChange> = {
    next,
    return: async () => finish(),
    throw: async (error: unknown) => {
      finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
