// One reader of the change feed per process: it follows the feed from where the process started and
// hands every batch, in cursor order, to the subscriptions of this process. Each instance has its own
// hub over the same database, so a write through any instance reaches subscribers of every instance.
import type { Database } from '../../platform/db/database.ts';
import { followChanges, headPosition, type FeedChange, type FeedPosition } from '../../platform/domain/change-feed.ts';
import type { TaskLog } from '../../platform/process/failure-run.ts';

// Which read of the feed found a change. Every change a read finds had committed before the read, so
// one read of a resource made after it shows the state after all of them: under load, when a read
// finds many changes, their messages share one resource read instead of one each.
const foundBy = new WeakMap<FeedChange, number>();
let reads = 0;

export function markRead(changes: FeedChange[]): void {
  const read = ++reads;
  for (const change of changes) foundBy.set(change, read);
}

/** The read that found `change` (its cursor when it was not marked). */
export const readOf = (change: FeedChange): string => {
  const read = foundBy.get(change);
  return read === undefined ? change.cursor : `r${read}`;
};

// What a change holds in memory, estimated once per change: its payload's JSON, two bytes a
// character, and its fields and object overhead. A backlog of changes is bounded by these bytes.
const sizes = new WeakMap<FeedChange, number>();
export function changeBytes(change: FeedChange): number {
  let bytes = sizes.get(change);
  if (bytes === undefined) {
    bytes = 512 + 2 * (JSON.stringify(change.payload ?? null).length + change.cursor.length + (change.eventId?.length ?? 0) + (change.resourceId?.length ?? 0) + change.type.length);
    sizes.set(change, bytes);
  }
  return bytes;
}

export type HubListener = (changes: FeedChange[]) => void;

export class ChangeHub {
  private readonly listeners = new Set<HubListener>();
  private follower?: Awaited<ReturnType<typeof followChanges>>;

  constructor(
    private readonly db: Database,
    private readonly log: TaskLog = () => undefined,
  ) {}

  async start(pollMs = 1000): Promise<void> {
    const from: FeedPosition = await headPosition(this.db.sql);
    this.follower = await followChanges(
      this.db,
      from,
      (changes) => {
        markRead(changes);
        for (const listener of this.listeners) listener(changes);
      },
      { pollMs, log: this.log },
    );
  }

  /** Calls `listener` with every batch read after now; answers the unsubscribe. */
  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  async stop(): Promise<void> {
    await this.follower?.stop();
    this.listeners.clear();
  }
}
