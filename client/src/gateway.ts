// Gateway subscriptions (graphql-ws) that survive their socket: each message's cursor is kept in the
// subscription's own `after` variable, which graphql-ws sends again when it reconnects, so the
// gateway resumes right after the last message taken — no change lost, none twice. A subscription
// the gateway refuses for the moment (rate_limited, service_unavailable) is asked again after its
// retryAfter; one refused for good (not_found, forbidden, cursor_expired…) ends with a GatewayError.
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { print, type DocumentNode } from 'graphql';
import type { TadaDocumentNode } from 'gql.tada';
import { GatewayError, type GraphQLErrorEntry } from './errors.ts';
import type { Authorizer } from './auth.ts';
import { sleep } from './transport.ts';

export interface GatewayOptions {
  /** ws(s)://…/api/v1/gateway for an API key or overlay token, ws(s)://…/graphql for an access token. */
  url: string;
  /** A WebSocket implementation, e.g. `ws`'s (Node 20 has none of its own). */
  webSocketImpl?: unknown;
  /** Reconnections in a row before giving up (default 10; each successful connection starts the count again). */
  maxReconnects?: number;
  /** Wait before reconnection number `retries` (from 0): default 0.5 s doubling to 30 s, randomised by half. */
  reconnectDelayMs?: (retries: number) => number;
  /**
   * Messages a subscription holds that its loop has not taken yet (default 10,000): past it the
   * subscription ends with a GatewayError (code consumer_too_slow); resume from its `cursor`.
   */
  maxQueued?: number;
  /** graphql-ws events (connected, closed, …), to watch the socket. */
  on?: Parameters<typeof createWsClient>[0]['on'];
}

/** Close codes after which reconnecting cannot help (docs/realtime.md): a refused credential, a client at fault. */
const FINAL_CLOSE_CODES = new Set([4403, 4429, 4400, 4406, 4409, 4500]);
/** Subscription errors that pass: subscribe again after retryAfter. */
const TRANSIENT_CODES = new Set(['rate_limited', 'service_unavailable']);

/** A subscription whose messages are the root field's value, each with its cursor. */
export interface ResumableSubscription<T> extends AsyncIterableIterator<T> {
  /** The cursor of the last message the loop took (null before the first): keep it to resume later, in this process or another. */
  readonly cursor: string | null;
  /** Stops the subscription (the loop over it ends). */
  close(): void;
}

type Cursored = Record<string, { cursor: string }>;
type WithoutAfter<V> = Omit<V, 'after'>;

export class Gateway {
  private readonly client: WsClient;
  private readonly maxQueued: number;

  constructor(options: GatewayOptions, auth: Authorizer) {
    const webSocketImpl = options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
    if (!webSocketImpl) throw new TypeError("This runtime has no WebSocket: pass webSocketImpl (e.g. `import WebSocket from 'ws'`).");
    this.maxQueued = options.maxQueued ?? 10_000;
    const delay = options.reconnectDelayMs ?? ((retries: number) => Math.min(30_000, 500 * 2 ** retries) * (0.5 + Math.random() / 2));
    this.client = createWsClient({
      url: options.url,
      webSocketImpl,
      connectionParams: () => auth.connectionParams(),
      retryAttempts: options.maxReconnects ?? 10,
      retryWait: (retries) => sleep(delay(retries)),
      // Refused connections (a server restarting) are worth another try too, not only closes.
      shouldRetry: (event) => !(isCloseEvent(event) && FINAL_CLOSE_CODES.has(event.code)),
      on: options.on,
    });
  }

  /**
   * Subscribes to one of the gateway's subscriptions. The document declares `$after: String`, passes
   * it to the field's `after` and selects `cursor`; `after` starts from a cursor kept earlier.
   */
  subscribe<Result extends Cursored, Variables extends { after?: string | null }>(
    document: TadaDocumentNode<Result, Variables> | DocumentNode | string,
    variables: WithoutAfter<Variables>,
    options: { after?: string | null; signal?: AbortSignal } = {},
  ): ResumableSubscription<Result[keyof Result]> {
    const payload = { query: typeof document === 'string' ? document : print(document), variables: { ...variables, after: options.after ?? null } as Record<string, unknown> };
    const queue: Result[keyof Result][] = [];
    let failure: Error | undefined;
    let finished = false;
    let wake: (() => void) | undefined;
    let unsubscribe = () => undefined as void;
    let taken = options.after ?? null;
    // Refusals for the moment in a row: each waits longer, and the tenth ends the subscription.
    let refusals = 0;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      failure = error;
      unsubscribe();
      notify();
    };
    const start = () => {
      unsubscribe = this.client.subscribe<Result>(payload, {
        next: (message) => {
          if (finished) return;
          const data = message.data as Result | null | undefined;
          const field = data && (Object.keys(data)[0] as keyof Result);
          const value = field ? data[field] : undefined;
          if (!value || typeof value.cursor !== 'string') {
            finish(new GatewayError('A gateway message without a cursor: select `cursor` on the subscription field.', 'validation_failed'));
            return;
          }
          // The next (re)subscription resumes after this message, even before the loop takes it.
          payload.variables.after = value.cursor;
          refusals = 0;
          if (queue.length >= this.maxQueued) {
            finish(new GatewayError(`More than ${this.maxQueued} messages waited for the loop: subscribe again from the subscription's cursor.`, 'consumer_too_slow'));
            return;
          }
          queue.push(value);
          notify();
        },
        error: (error) => {
          if (finished) return;
          if (Array.isArray(error)) {
            const first = (error as GraphQLErrorEntry[])[0];
            const code = first?.extensions?.code ?? 'graphql_error';
            if (TRANSIENT_CODES.has(code) && ++refusals < 10) {
              // A retryAfter that is missing, not a number or out of range waits 1 s to 60 s, doubling.
              const asked = Number(first.extensions?.retryAfter);
              const wait = (Number.isFinite(asked) && asked >= 1 ? Math.min(asked, 60) : Math.min(60, 2 ** (refusals - 1))) * 1000;
              sleep(wait + Math.random() * Math.min(1000, wait / 10), options.signal).then(() => !finished && start(), () => undefined);
              return;
            }
            finish(new GatewayError(first?.message ?? 'The gateway refused the subscription.', code, first?.extensions?.details ?? []));
          } else if (isCloseEvent(error)) {
            finish(new GatewayError(`The gateway closed the socket (${error.code}${error.reason ? `: ${error.reason}` : ''}).`, 'closed', [], error.code));
          } else {
            finish(error instanceof Error ? error : new GatewayError(String(error), 'connection_failed'));
          }
        },
        complete: () => finish(),
      });
    };
    start();
    options.signal?.addEventListener('abort', () => finish(), { once: true });
    const iterator: ResumableSubscription<Result[keyof Result]> = {
      get cursor() {
        return taken;
      },
      close: () => finish(),
      async next() {
        for (;;) {
          if (queue.length) {
            const value = queue.shift()!;
            taken = value.cursor;
            return { value, done: false };
          }
          if (finished) {
            if (failure) {
              const error = failure;
              failure = undefined;
              throw error;
            }
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
      async return() {
        finish();
        queue.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return iterator;
  }

  /** Closes the socket and every subscription on it. */
  async dispose(): Promise<void> {
    await this.client.dispose();
  }
}

function isCloseEvent(value: unknown): value is { code: number; reason: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number' && 'reason' in value;
}
