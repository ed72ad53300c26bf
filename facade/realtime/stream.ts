// The changes one subscription receives: with `after`, the feed's changes after that cursor read from
// the database, then the hub's live batches, with no gap and no duplicate at the switch.
//
// The hub listener is registered before the replay starts, so every change the hub reads from then
// on is queued; the replay reads every settled change up to the moment it finds no more, which
// includes everything the hub had read before the listener existed. Where the two overlap, a change
// at or before the last position handed out is skipped.
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

export async function* changeStream(options: StreamOptions): AsyncGenerator<FeedChange> {
  const queue: FeedChange[] = [];
  let wake: (() => void) | null = null;
  let overflowed = false;
  const unsubscribe = options.hub.subscribe((changes) => {
    if (overflowed) return;
    for (const change of changes) if (options.filter(change)) queue.push(change);
    if (queue.length > options.maxQueued) {
      overflowed = true;
      queue.length = 0;
      options.onOverflow();
    }
    wake?.();
  });
  try {
    // A cursor from another instance may be ahead of this hub: nothing at or before it is sent again.
    let last: FeedPosition | null = options.after;
    if (options.after) {
      let position = options.after;
      for (;;) {
        const changes = await readChanges(options.db.sql, position, 500);
        if (!changes.length) break;
        for (const change of changes) if (options.filter(change)) yield change;
        position = changes[changes.length - 1].position;
        last = position;
      }
    }
    while (!overflowed) {
      const change = queue.shift();
      if (!change) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      if (last && comparePositions(change.position, last) <= 0) continue;
      last = change.position;
      yield change;
    }
  } finally {
    unsubscribe();
  }
}
