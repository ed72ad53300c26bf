// The changes one subscription receives: with `after`, the feed's changes after that cursor read from
// the database, then the hub's live batches, with no gap and no duplicate at the switch.
//
// The hub listener is registered before the replay starts, so every change the hub reads from then
// on is queued; the replay reads every settled change up to the moment it finds no more, which
// includes everything the hub had read before the listener existed. Where the two overlap, a change
// at or before the last position handed out is skipped.
//
// Changes are taken synchronously (take), and the stream calls onReady when more may be there: the
// delivery loop sends everything that is ready in one go, without a promise per change.
import type { Database } from '../../platform/db/database.ts';
import { comparePositions, readChanges, type FeedChange, type FeedPosition } from '../../platform/domain/change-feed.ts';
import { changeBytes, markRead, type ChangeHub } from './hub.ts';
import type { Hold } from '../graphql/document-memory.ts';

// Replays read the feed a page at a time, a few pages at once in the whole process: a thousand
// subscriptions resuming together (or a client that subscribes a hundred times with an old cursor)
// read their pages in turn, never a thousand pages at once, and each page is charged to its
// subscription's reservation as soon as it has been read.
const REPLAY_READS_AT_ONCE = 2;
let replayReads = 0;
const waitingForRead: (() => void)[] = [];

/** Resolves with the release of a replay read's place, when one is free. */
function replayReadPlace(): Promise<() => void> {
  return new Promise((resolve) => {
    const take = () => {
      replayReads++;
      let freed = false;
      resolve(() => {
        if (freed) return;
        freed = true;
        replayReads--;
        waitingForRead.shift()?.();
      });
    };
    if (replayReads < REPLAY_READS_AT_ONCE) take();
    else waitingForRead.push(take);
  });
}

export interface StreamOptions {
  hub: ChangeHub;
  db: Database;
  after: FeedPosition | null;
  filter: (change: FeedChange) => boolean;
  /** Live changes this subscription may hold unsent before it is given up as too slow. */
  maxQueued: number;
  /** The same in bytes (changeBytes). */
  maxQueuedBytes: number;
  /**
   * The subscription's reservation of the gateway's memory: grown as its backlog grows, shrunk once
   * it has drained, released when the stream ends. A backlog it cannot grow into is too slow.
   */
  memory: Hold;
  onOverflow: () => void;
}

export class ChangeStream implements AsyncIterableIterator<FeedChange> {
  private readonly queue: FeedChange[] = [];
  /** Estimated bytes of the queue and of the replayed page, and what the reservation held beyond the subscription's own share when it started. */
  private queuedBytes = 0;
  private replayedBytes = 0;
  private readonly baseBytes: number;
  private replayed: FeedChange[] = [];
  private replaying: boolean;
  private loading = false;
  private finished = false;
  // A cursor from another instance may be ahead of this hub: nothing at or before it is sent again.
  private last: FeedPosition | null;
  private readonly unsubscribe: () => void;
  private wake: (() => void) | null = null;

  /** Called when changes may be ready to take, and when the stream ends. */
  onReady: () => void = () => undefined;

  constructor(private readonly options: StreamOptions) {
    this.last = options.after;
    this.replaying = options.after !== null;
    this.baseBytes = options.memory.bytes;
    this.unsubscribe = options.hub.subscribe((changes) => {
      if (this.finished) return;
      for (const change of changes) {
        if (!options.filter(change)) continue;
        this.queue.push(change);
        this.queuedBytes += changeBytes(change);
      }
      if (this.queue.length > options.maxQueued || this.queuedBytes > options.maxQueuedBytes || !this.reserveBacklog()) {
        this.finish();
        options.onOverflow();
        return;
      }
      this.ready();
    });
  }

  get done(): boolean {
    return this.finished;
  }

  /** The next change ready to send, or undefined: then onReady is called when there may be more. */
  take(): FeedChange | undefined {
    if (this.finished) return undefined;
    if (this.replaying) {
      const change = this.replayed.shift();
      if (change) {
        this.replayedBytes -= changeBytes(change);
        if (this.replayed.length === 0) this.reserveBacklog();
        return change;
      }
      this.loadReplay();
      return undefined;
    }
    for (let change = this.queue.shift(); change; change = this.queue.shift()) {
      this.queuedBytes -= changeBytes(change);
      if (this.last && comparePositions(change.position, this.last) <= 0) continue;
      this.last = change.position;
      if (this.queue.length === 0) this.reserveBacklog();
      return change;
    }
    return undefined;
  }

  /**
   * Keeps the reservation at the subscription's share plus its backlog (grown as the backlog grows,
   * back to the share once it is gone); false when the budgets cannot take the backlog. Each
   * subscription counts the change records it holds, though subscribers share them: an upper bound.
   */
  private reserveBacklog(): boolean {
    const { memory } = this.options;
    const held = this.queuedBytes + this.replayedBytes;
    const wanted = this.baseBytes + held;
    if (wanted > memory.bytes || held === 0) return memory.resize(wanted);
    return true;
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.replayed = [];
    this.replayedBytes = 0;
    this.unsubscribe();
    this.options.memory.release();
    this.ready();
  }

  private ready(): void {
    this.onReady();
    this.wake?.();
  }

  /**
   * Reads the next page of the replay, when a replay read's place is free; an empty page ends it. The
   * page's changes for this subscription are charged to its reservation: a page the budgets cannot
   * take ends the subscription as a backlog that cannot grow does.
   */
  private loadReplay(): void {
    if (this.loading) return;
    this.loading = true;
    void replayReadPlace().then((free) => {
      if (this.finished) {
        free();
        this.loading = false;
        return;
      }
      readChanges(this.options.db.sql, this.last!, 500)
        .finally(free)
        .then(
          (changes) => {
            this.loading = false;
            if (this.finished) return;
            if (!changes.length) this.replaying = false;
            else {
              this.last = changes[changes.length - 1].position;
              markRead(changes);
              this.replayed = changes.filter(this.options.filter);
              this.replayedBytes = this.replayed.reduce((sum, change) => sum + changeBytes(change), 0);
              if (!this.reserveBacklog()) {
                this.finish();
                this.options.onOverflow();
                return;
              }
            }
            this.ready();
          },
          (error: unknown) => {
            this.loading = false;
            this.fail(error);
          },
        );
    });
  }

  private failure: unknown;
  private fail(error: unknown): void {
    this.failure = error;
    this.finish();
  }

  /** The error that ended the stream, if one did. */
  get error(): unknown {
    return this.failure;
  }

  // The async-iterator face graphql-js asks a subscription's source stream to have.
  async next(): Promise<IteratorResult<FeedChange, undefined>> {
    for (;;) {
      const change = this.take();
      if (change) return { done: false, value: change };
      if (this.finished) {
        if (this.failure) throw this.failure;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  async return(): Promise<IteratorResult<FeedChange, undefined>> {
    this.finish();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
