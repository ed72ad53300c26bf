// How a subscription's messages reach its socket. graphql-ws runs the protocol (subscribe, complete,
// errors); the `next` messages of a running subscription are sent from here, because a change fans
// out to every subscriber at once and its cost per subscriber decides how many one process serves:
//
// - a change is executed once per subscription signature (query, variables, credential) and its
//   payload serialised and UTF-8 encoded once, so that a thousand overlays subscribed alike cost one
//   execution and one JSON.stringify per change, and a frame each: one copy of the payload behind the
//   subscription's id and the frame header (transport.ts);
// - a subscription sends every change that is ready in one synchronous loop, without a promise per
//   change, for as long as its socket is below its high-water mark (then it waits for the socket to
//   drain, and its backlog stays in its change stream, which bounds it).
import { createSourceEventStream, execute, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { FeedChange } from '../../platform/domain/change-feed.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, unavailableOr } from '../../platform/db/unavailable.ts';
import { backoffDelay } from '../../platform/process/failure-run.ts';
import { responseKeyResolver } from './schema.ts';
import type { ChangeStream } from './stream.ts';
import { textFrame } from './transport.ts';
import type { SubscriptionContext } from './types.ts';

/**
 * What a subscriber is told when its subscription fails or cannot start: the API's code (and, when the
 * database was away, service_unavailable with retryAfter), never the text of an internal error.
 */
export function asGraphQLError(error: unknown, fallback = 'The subscription could not start.'): GraphQLError {
  const known = unavailableOr(error);
  if (known instanceof ApiError) {
    const retryAfter = known.status === 503 ? { retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS } : {};
    return new GraphQLError(known.message, { extensions: { code: known.code, details: known.details, ...retryAfter } });
  }
  if (known instanceof GraphQLError) return known;
  return new GraphQLError(fallback, { extensions: { code: 'internal_error' } });
}

/** A change's payload for one signature: its JSON as UTF-8, or the error, once known. */
interface Rendered {
  json?: Buffer;
  error?: unknown;
  /** Subscribers waiting for it, called in one synchronous loop when it is known. */
  waiting: (() => void)[];
}
// By change cursor, then subscription signature: no key to build per subscriber, and shared by
// subscriptions that replay the same changes (a thousand overlays resuming from one cursor).
const rendered = new Map<string, Map<string, Rendered>>();

const serialise = ({ errors, ...result }: ExecutionResult): Buffer =>
  Buffer.from(JSON.stringify(errors ? { ...result, errors: errors.map((e) => e.toJSON()) } : result));

const CLOSE_BRACE = Buffer.from('}');

/**
 * How long a change whose resource cannot be read (the database away) is tried again before its
 * subscriptions end with service_unavailable (their subscribers resume from their last cursor).
 */
const RENDER_RETRY_MS = 60_000;

/** A change's message: the resource read again, with backoff, while the database cannot be reached. */
async function executeChange(args: ExecutionArgs, change: FeedChange): Promise<ExecutionResult> {
  const giveUp = Date.now() + RENDER_RETRY_MS;
  for (let failures = 1; ; failures++) {
    const result = await execute({ ...args, rootValue: change, fieldResolver: responseKeyResolver });
    const unavailable = result.errors?.find((error) => error.extensions?.code === 'service_unavailable');
    if (!unavailable) return result;
    if (Date.now() >= giveUp) throw unavailable;
    await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures)));
  }
}

function render(args: ExecutionArgs, change: FeedChange): Rendered {
  const signature = (args.contextValue as SubscriptionContext).signature;
  let bySignature = rendered.get(change.cursor);
  if (!bySignature) {
    rendered.set(change.cursor, (bySignature = new Map()));
    // Long enough for every subscriber of this instance to have taken the change, even one behind.
    setTimeout(() => rendered.delete(change.cursor), 5_000).unref();
  }
  let entry = bySignature.get(signature);
  if (!entry) {
    const created: Rendered = { waiting: [] };
    const settle = () => {
      const waiting = created.waiting;
      created.waiting = [];
      for (const wake of waiting) wake();
    };
    executeChange(args, change)
      .then(serialise)
      .then(
        (json) => {
          created.json = json;
          settle();
        },
        (error: unknown) => {
          created.error = error;
          settle();
        },
      );
    entry = created;
    bySignature.set(signature, entry);
  }
  return entry;
}

/**
 * graphql-ws's subscribe: the source stream of the subscription, delivered by this module. The answer
 * is an iterator that yields nothing and ends when the subscription does: graphql-ws ends it on
 * `complete` and on close; it ends itself when its stream is closed as too slow or fails.
 */
export async function deliverSubscription(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  let source: Awaited<ReturnType<typeof createSourceEventStream>>;
  try {
    source = await createSourceEventStream(args);
  } finally {
    // No stream, no subscription: what was reserved for it goes back (a stream releases it when it ends).
    if (!source! || !(Symbol.asyncIterator in source)) (args.contextValue as SubscriptionContext).memory.release();
  }
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const stream = source as unknown as ChangeStream;
  const { outlet, subscriptionId } = args.contextValue as SubscriptionContext;
  const prefix = Buffer.from(`{"id":${JSON.stringify(subscriptionId)},"type":"next","payload":`);
  let ended: ((result: IteratorResult<ExecutionResult, undefined>) => void) | null = null;
  let failure: unknown = null;
  const endedPromise = new Promise<IteratorResult<ExecutionResult, undefined>>((resolve) => (ended = resolve));

  const end = (error?: unknown) => {
    if (error !== undefined) failure = error;
    stream.finish();
    ended?.({ done: true, value: undefined });
  };

  // The change being rendered, and the one function (not one per change) that resumes when it is.
  let awaiting: Rendered | null = null;
  const resume = () => {
    const payload = awaiting!;
    awaiting = null;
    send(payload);
    pump();
  };
  const pump = (): void => {
    if (awaiting) return;
    while (outlet.writable()) {
      const change = stream.take();
      if (!change) break;
      const payload = render(args, change);
      if (payload.json === undefined && payload.error === undefined) {
        awaiting = payload;
        payload.waiting.push(resume);
        return;
      }
      send(payload);
    }
    if (stream.done) end(stream.error ?? undefined);
    else if (!outlet.writable()) outlet.whenWritable(pump);
  };
  const send = (payload: Rendered) => {
    if (payload.error !== undefined) end(payload.error);
    else if (!stream.done) outlet.push(textFrame(prefix, payload.json!, CLOSE_BRACE));
  };
  stream.onReady = pump;
  pump();

  const iterator: AsyncGenerator<ExecutionResult> = {
    next: async () => {
      const result = await endedPromise;
      // graphql-ws answers a thrown error as this subscription's `error` message: in the API's words.
      if (failure) throw asGraphQLError(failure, 'The subscription failed: subscribe again with your last cursor.');
      return result;
    },
    return: async () => {
      end();
      return { done: true, value: undefined };
    },
    throw: async (error: unknown) => {
      end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
