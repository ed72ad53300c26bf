// One reader of the change feed per process: it follows the feed from where the process started and
// hands every batch, in cursor order, to the subscriptions of this process. Each instance has its own
// hub over the same database, so a write through any instance reaches subscribers of every instance.
import type { Database } from '../../subgraphs/shared/db/database.ts';
import { followChanges, headPosition, type FeedChange, type FeedPosition } from '../../subgraphs/shared/change-feed.ts';

export type HubListener = (changes: FeedChange[]) => void;

export class ChangeHub {
  private readonly listeners = new Set<HubListener>();
  private follower?: Awaited<ReturnType<typeof followChanges>>;

  constructor(private readonly db: Database) {}

  async start(pollMs = 1000): Promise<void> {
    const from: FeedPosition = await headPosition(this.db.sql);
    this.follower = await followChanges(
      this.db,
      from,
      (changes) => {
        for (const listener of this.listeners) listener(changes);
      },
      { pollMs },
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
