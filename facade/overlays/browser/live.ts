// Follows the gateway for an overlay: one socket with the overlay token, any number of feeds
// (subscriptions), each resumed from the cursor of the last message it handled whenever the socket
// comes back, so a dropped connection loses nothing and repeats nothing. graphql-ws's own retry is
// off on purpose: it would subscribe again with the variables of the first subscribe, not from the
// last cursor. A feed that has no cursor yet (it has received nothing) starts from "now", so its
// resource is read again over HTTP once the subscription runs: the change that may fall between
// the read and the start is not missed.
import { createClient, type Client } from 'graphql-ws';
import { showStatus, REFUSED } from './status.ts';
import type { Row } from './api.ts';

export interface Feed {
  /** A subscription document with an $after variable; its root field's messages carry cursor. */
  query: string;
  variables: Record<string, unknown>;
  /** Called with the root field's value of each message. */
  onMessage(message: Row): void;
  /** Reads the feed's resource again (it may have changed while the feed had no cursor). */
  reread(): void;
}

interface Running {
  feed: Feed;
  cursor: string | null;
  dispose?: () => void;
}

const REREAD_AFTER_MS = 1000;

export class Live {
  private client: Client | null = null;
  private readonly running = new Set<Running>();
  private attempts = 0;
  private stopped = false;

  constructor(private readonly token: string) {}

  /** Starts a feed, from `after` when given (a cursor of another feed of this socket will do). */
  follow(feed: Feed, after: string | null = null): () => void {
    const entry: Running = { feed, cursor: after };
    this.running.add(entry);
    if (this.client) this.subscribe(entry);
    else this.connect();
    return () => {
      entry.dispose?.();
      this.running.delete(entry);
    };
  }

  stop(message: string): void {
    this.stopped = true;
    for (const entry of this.running) entry.dispose?.();
    this.running.clear();
    void this.client?.dispose();
    this.client = null;
    showStatus('stopped', message);
  }

  private connect(): void {
    if (this.client || this.stopped) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/gateway`;
    const client = createClient({
      url,
      connectionParams: { overlayToken: this.token },
      retryAttempts: 0,
      lazy: false,
      // Closes are handled by closed() below; graphql-ws would print them too.
      onNonLazyError: () => undefined,
      on: {
        connected: () => {
          this.attempts = 0;
          showStatus('live');
        },
        closed: (event) => this.closed(client, (event as CloseEvent | undefined)?.code),
      },
    });
    this.client = client;
    for (const entry of this.running) this.subscribe(entry);
  }

  private closed(client: Client, code: number | undefined): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    for (const entry of this.running) entry.dispose = undefined;
    if (code === 4403) return this.stop(REFUSED);
    showStatus('reconnecting', 'Reconnecting…');
    const delay = Math.min(10_000, 500 * 2 ** this.attempts++) * (0.75 + Math.random() / 2);
    setTimeout(() => this.connect(), delay);
  }

  private subscribe(entry: Running): void {
    const client = this.client!;
    const fromNow = entry.cursor === null;
    entry.dispose = client.subscribe<Row>(
      { query: entry.feed.query, variables: { ...entry.feed.variables, after: entry.cursor } },
      {
        next: (result) => {
          const message = result.data && Object.values(result.data)[0];
          if (message) {
            entry.cursor = message.cursor ?? entry.cursor;
            entry.feed.onMessage(message);
          } else if (result.errors?.length) this.refused(entry, result.errors[0] as Row);
        },
        // A socket that closes errors every subscription: closed() reconnects them all.
        error: (error) => {
          if (Array.isArray(error)) this.refused(entry, error[0] as Row);
        },
        complete: () => undefined,
      },
    );
    if (fromNow) setTimeout(() => this.running.has(entry) && entry.feed.reread(), REREAD_AFTER_MS);
  }

  /** The gateway refused one subscription (the socket stays open). */
  private refused(entry: Running, error: Row): void {
    const code = error.extensions?.code;
    entry.dispose = undefined;
    if (code === 'not_found' || code === 'forbidden') return this.stop(error.message ?? 'Not found.');
    if (code === 'invalid_token') return this.stop(REFUSED);
    // An expired cursor: read the state again and follow from now. Anything else (an outage, a
    // rate limit) is tried again after the pause the gateway asks for.
    if (error.extensions?.details?.some?.((d: Row) => d.issue === 'cursor_expired')) {
      entry.cursor = null;
      entry.feed.reread();
    }
    const seconds = Number(error.extensions?.retryAfter) || 2;
    setTimeout(() => {
      if (this.running.has(entry) && this.client && !entry.dispose) this.subscribe(entry);
    }, seconds * 1000);
  }
}
