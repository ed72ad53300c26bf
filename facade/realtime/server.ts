// The realtime gateway: graphql-ws (graphql-transport-ws) at /graphql for access tokens and at
// /api/v1/gateway for organisation API keys. The credential comes in connection_init; every
// subscription is checked (cursor, access) before it starts and answers an error message of its own
// when it cannot, leaving the socket open. Sockets are pinged, bounded and closed when their
// credential is revoked or expires.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { requestIdOf } from '../http/request-id.ts';
import {
  getArgumentValues,
  getVariableValues,
  GraphQLError,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { ApolloGateway } from '@apollo/gateway';
import type { Database } from '../../platform/db/database.ts';
import { sha256 } from '../../platform/api/crypto.ts';
import { ApiError, notFound, type ErrorDetail } from '../../platform/api/errors.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS, unavailableOr } from '../../platform/db/unavailable.ts';
import { coalesce } from '../../platform/process/coalesce.ts';
import { FailureRun } from '../../platform/process/failure-run.ts';
import { resolveAuthorities, resolveAuthority, type Authority } from '../../platform/domain/authority.ts';
import { resolveKeyCredential, touchApiKey, touchOverlayToken, usableApiKeys, usableOverlayTokens } from '../../platform/domain/api-keys.ts';
import { assertRetained, decodeCursor } from '../../platform/domain/change-feed.ts';
import { prepareOperation, type OperationRunner, type PreparedOperation } from '../graphql/operations.ts';
import { ChangeHub } from './hub.ts';
import { asGraphQLError, deliverSubscription } from './subscription-messages.ts';
import { CoalescingTransport } from './transport.ts';
import { realtimeSchema } from './schema.ts';
import { subscriptionSpec, type SubscriptionSpec } from './subscriptions.ts';
import type { Credential, RealtimeLimits, SocketState, SubscriptionContext } from './types.ts';
import { admitGraphQLRequest, chargeRest, type Admission } from '../graphql/admission.ts';
import { InFlightBytes, inFlightDocuments, registerMemoryBudget, type Hold } from '../graphql/document-memory.ts';
import { nextTurn } from '../http/turns.ts';
import { addressKey, rateLimitedMessage, tokenQuotaKey, type Decision, type RateLimits } from '../http/rate-limits.ts';
import { refuseBusyHandshake, refuseHandshake } from '../http/client-errors.ts';
import { clientAddress } from '../http/client-address.ts';
import { setting } from '../../platform/process/config.ts';
import { findUnsafeValue, MAX_REQUEST_VALUES } from '../../platform/api/input-safety.ts';
import { beginCredentialCheck } from '../http/credential-checks.ts';

export const CLOSE_CODES = {
  /** The credential in connection_init is missing or invalid, or was revoked or expired since. */
  forbidden: 4403,
  /** This key or token already holds the most sockets allowed on this instance. */
  tooManySockets: 4029,
  /** The subscriber fell too far behind: reconnect and resume from the last cursor received. */
  slowConsumer: 4008,
  /**
   * The socket sent more messages than the limit allows (GATEWAY_MESSAGE_LIMIT). graphql-ws uses the
   * same code for a second connection_init, and its client does not reconnect after it: a client that
   * floods has a bug to fix first.
   */
  tooManyMessages: 4429,
  /** The credential could not be checked (the database away): reconnect after a few seconds (RFC 6455 "Try Again Later"). */
  tryAgainLater: 1013,
} as const;

export const GATEWAY_PATHS = { token: '/graphql', key: '/api/v1/gateway' } as const;

/** GATEWAY_MESSAGE_LIMIT="<messages>/<seconds>": incoming messages a socket may send per window. */
function messageLimit() {
  const { count, seconds } = setting('GATEWAY_MESSAGE_LIMIT');
  return { messages: count, windowMs: seconds * 1000, closeCode: CLOSE_CODES.tooManyMessages };
}

export function realtimeLimits(): RealtimeLimits {
  return {
    maxSubscriptionsPerSocket: setting('GATEWAY_MAX_SUBSCRIPTIONS_PER_SOCKET'),
    maxSocketsPerCredential: setting('GATEWAY_MAX_SOCKETS_PER_CREDENTIAL'),
    maxPendingSubscribes: setting('GATEWAY_MAX_PENDING_SUBSCRIBES'),
    maxDistinctPerCredential: setting('GATEWAY_MAX_DISTINCT_SUBSCRIPTIONS_PER_CREDENTIAL'),
    maxAwaitingInitPerAddress: setting('GATEWAY_MAX_UNINITIALISED_SOCKETS_PER_ADDRESS'),
    maxQueued: setting('GATEWAY_MAX_QUEUED'),
    maxQueuedBytes: setting('GATEWAY_MAX_QUEUED_KB') * 1024,
    slowConsumerCode: CLOSE_CODES.slowConsumer,
  };
}

/** What the gateway's subscriptions may hold in all, and per key or token (GATEWAY_MEMORY_MB, GATEWAY_MEMORY_PER_CREDENTIAL_MB). */
export const subscriptionMemory = new InFlightBytes(setting('GATEWAY_MEMORY_MB') * 1024 * 1024, setting('GATEWAY_MEMORY_PER_CREDENTIAL_MB') * 1024 * 1024);
registerMemoryBudget('gateway_subscriptions', subscriptionMemory.maxBytes, () => subscriptionMemory.bytes);

/**
 * What one running subscription holds besides its document and its backlog: its stream, its
 * delivery loop, graphql-ws's bookkeeping and its share of its socket (measured at 8–12 KiB per
 * subscriber, docs/benchmarks.md#realtime-gateway).
 */
export const SUBSCRIPTION_BYTES = 12 * 1024;

/**
 * What a subscribe message holds while it waits for its turn to start: graphql-ws's bookkeeping and
 * its promises (measured at about 3 KiB in a heap snapshot of 14,000 waiting), and its text and
 * variables, charged before it waits (waitingBytes).
 */
export const WAITING_SUBSCRIBE_BYTES = 4 * 1024;

/**
 * What an open socket holds: its ws and graphql-ws state and its share of the transport (measured at
 * about 6 KiB in a heap snapshot of 1,000 idle sockets), charged from the handshake, before any
 * credential is known, to the client's address.
 */
export const SOCKET_BYTES = 8 * 1024;

/** What the gateway's open sockets may hold in all, and per client address (GATEWAY_SOCKETS_MB, GATEWAY_SOCKETS_PER_ADDRESS_MB). */
export const socketMemory = new InFlightBytes(setting('GATEWAY_SOCKETS_MB') * 1024 * 1024, setting('GATEWAY_SOCKETS_PER_ADDRESS_MB') * 1024 * 1024);
registerMemoryBudget('gateway_sockets', socketMemory.maxBytes, () => socketMemory.bytes);

/**
 * The bytes a waiting subscribe message is charged: its share, and its text and variables as parsed
 * JSON; or why its variables are refused (nested too deep, too many values, text that cannot be
 * stored), found first by one bounded walk, as /graphql refuses them, so that measuring them is safe.
 */
function waitingBytes(payload: { query?: unknown; operationName?: unknown; variables?: unknown }): number | GraphQLError {
  const text = (typeof payload.query === 'string' ? payload.query.length : 0) + (typeof payload.operationName === 'string' ? payload.operationName.length : 0);
  if (payload.variables == null) return WAITING_SUBSCRIBE_BYTES + 2 * text;
  const unsafe = findUnsafeValue(payload.variables, '', MAX_REQUEST_VALUES);
  if (unsafe) {
    const detail = unsafe.field ? unsafe : { ...unsafe, field: 'variables' };
    return new GraphQLError(`The request is not valid: ${detail.field} ${detail.issue}.`, { extensions: { code: 'validation_failed', details: [detail] } });
  }
  // The message was at most 64 KiB of JSON: measuring its variables again costs no more than that.
  return WAITING_SUBSCRIBE_BYTES + 2 * text + 3 * JSON.stringify(payload.variables).length;
}

// Documents held by running subscriptions, each counted once however many subscriptions share it
// (a thousand overlays sending one text share one parse): held from the first subscription's
// reservation until the last one ends.
const heldDocuments = new Map<DocumentNode, { subscriptions: number; hold: Hold }>();

/**
 * Reserves what a starting subscription holds (its share, and its document when no running
 * subscription holds that already); the reservation's release ends both, once.
 */
function holdSubscription(credential: string, document: DocumentNode, documentBytes: number): Hold | 'client' | 'total' {
  let entry = heldDocuments.get(document);
  let documentHold: Hold | null = null;
  if (!entry) {
    const held = subscriptionMemory.reserve(credential, documentBytes);
    if (typeof held === 'string') return held;
    documentHold = held;
  }
  const own = subscriptionMemory.reserve(credential, SUBSCRIPTION_BYTES);
  if (typeof own === 'string') {
    documentHold?.release();
    return own;
  }
  if (!entry) heldDocuments.set(document, (entry = { subscriptions: 0, hold: documentHold! }));
  entry.subscriptions++;
  const counted = entry;
  return alsoOnRelease(own, () => {
    if (--counted.subscriptions === 0) {
      heldDocuments.delete(document);
      counted.hold.release();
    }
  });
}

/** The reservation `held`, whose release also runs `then`, once however often it is released. */
function alsoOnRelease(held: Hold, then: () => void): Hold {
  let released = false;
  return {
    resize: (bytes) => held.resize(bytes),
    get bytes() {
      return held.bytes;
    },
    release: () => {
      held.release();
      if (released) return;
      released = true;
      then();
    },
  };
}

// A subscription refused for the gateway's memory: the credential's share (rate_limited) or everyone's
// (service_unavailable). Made once, as a flood may be refused thousands of times.
const MEMORY_REFUSALS = {
  client: new GraphQLError('This key or token holds too much in subscriptions being started or running: retry later.', {
    extensions: { code: 'rate_limited', details: [{ issue: 'memory_limit' }], retryAfter: 1 },
  }),
  total: new GraphQLError('The gateway holds too much in subscriptions: retry later.', { extensions: { code: 'service_unavailable', details: [{ issue: 'memory_limit' }], retryAfter: 1 } }),
};
const memoryRefusal = (which: 'client' | 'total'): GraphQLError => MEMORY_REFUSALS[which];

/** Where a socket comes from, and whether it still waits for its connection_init. */
interface SocketOrigin {
  address: string;
  /** Its address's key (addressKey: an IPv6 /64). */
  key: string;
  awaitingInit: boolean;
}

interface Socket extends SocketState {
  ws: WebSocket;
  alive: boolean;
}

export interface RealtimeOptions {
  db: Database;
  gateway: ApolloGateway;
  runner: OperationRunner;
  /** Each subscription spends its estimated cost from its credential's quota, as a /graphql operation does. */
  rateLimits: RateLimits;
  /** Proxies trusted in front (TRUST_PROXY): whose address a handshake's X-Forwarded-For names. */
  trustedProxies?: number;
  log: (message: string, error?: unknown) => void;
  pingMs?: number;
  sweepMs?: number;
}

export class RealtimeGateway {
  readonly hub: ChangeHub;
  readonly limits = realtimeLimits();
  private readonly schema: GraphQLSchema;
  private readonly servers: Record<'token' | 'key', WebSocketServer>;
  private readonly transport: CoalescingTransport;
  private readonly sockets = new Set<Socket>();
  private readonly socketOf = new WeakMap<WebSocket, Socket>();
  private readonly perCredential = new Map<string, number>();
  private readonly accessChecks = new Map<string, PreparedOperation>();
  /** By credential: the last subscription being prepared (the next one waits for it); none when idle. */
  private readonly preparing = new Map<string, Promise<void>>();
  /** By credential: its subscribe messages waiting for their turn or being prepared; none when idle. */
  private readonly waiting = new Map<string, number>();
  /** By address key: its sockets that have not sent connection_init yet; none when idle. */
  private readonly awaitingInit = new Map<string, number>();
  private readonly origins = new WeakMap<WebSocket, SocketOrigin>();
  /** By credential: the distinct signatures of its running subscriptions, and how many run each. */
  private readonly signatures = new Map<string, Map<string, number>>();
  // Made once: a flood is refused thousands of times, and an error's stack trace costs more than its message.
  private readonly tooManyPending = [
    new GraphQLError(`At most ${this.limits.maxPendingSubscribes} subscriptions of one key or token wait to start at once: retry later.`, {
      extensions: { code: 'rate_limited', details: [{ issue: 'too_many_pending' }], retryAfter: 1 },
    }),
  ];
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: RealtimeOptions) {
    this.hub = new ChangeHub(options.db, options.log);
    this.schema = realtimeSchema(options.gateway.schema!);
    this.transport = new CoalescingTransport({ log: options.log, messageLimit: messageLimit() });
    this.servers = { token: this.serve('token'), key: this.serve('key') };
  }

  /** The check of open sockets' credentials: while the database is away it backs off, and closes nothing. */
  private readonly sweeping = coalesce(() => this.sweep(), { failures: new FailureRun('the gateway\'s credential check', (message, error) => this.options.log(message, error)) });

  async start(): Promise<void> {
    await this.hub.start();
    const ping = setInterval(() => this.ping(), this.options.pingMs ?? setting('GATEWAY_PING_MS'));
    const sweep = setInterval(() => void this.sweeping(), this.options.sweepMs ?? 500);
    ping.unref();
    sweep.unref();
    this.timers = [ping, sweep];
  }

  /** Takes WebSocket upgrades of the gateway paths on this HTTP server; any other upgrade goes to `elsewhere`. */
  attach(server: http.Server, elsewhere: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void): void {
    server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(request.url ?? '/', 'http://gateway').pathname;
      const kind = path === GATEWAY_PATHS.token ? 'token' : path === GATEWAY_PATHS.key ? 'key' : null;
      // A WebSocket is opened by GET (RFC 6455 §4.1); anything else is an HTTP request that may ignore its Upgrade.
      if (!kind || request.method !== 'GET' || request.headers.upgrade?.toLowerCase() !== 'websocket') return elsewhere(request, socket, head);
      // Charged before the handshake is read further: an address that opens sockets without ever
      // naming a credential holds its share of the budget, not the process's heap.
      const address = clientAddress(request, this.options.trustedProxies ?? 0);
      const key = addressKey(address);
      // A socket without a credential yet holds one of its address's few places for those.
      const uninitialised = this.awaitingInit.get(key) ?? 0;
      if (uninitialised >= this.limits.maxAwaitingInitPerAddress) return refuseBusyHandshake(socket, 'client');
      const held = socketMemory.reserve(key, SOCKET_BYTES);
      if (typeof held === 'string') return refuseBusyHandshake(socket, held);
      this.awaitingInit.set(key, uninitialised + 1);
      const origin: SocketOrigin = { address, key, awaitingInit: true };
      socket.once('close', () => {
        held.release();
        this.initialised(origin);
      });
      // A burst of handshakes takes turns (a few each millisecond), as expensive steps do: /healthz
      // and everyone else are answered between them.
      void nextTurn().then(() => {
        if (!socket.destroyed) this.transport.upgrade(this.servers[kind], request, socket, head, (ws) => this.origins.set(ws, origin));
      });
    });
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.sweeping.cancel();
    for (const socket of this.sockets) socket.ws.close(1001, 'Server shutting down: reconnect and resume from your last cursor.');
    await this.hub.stop();
    await Promise.all(Object.values(this.servers).map((wss) => new Promise((resolve) => wss.close(resolve))));
  }

  private serve(kind: 'token' | 'key'): WebSocketServer {
    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    wss.on('wsClientError', (error, socket) => refuseHandshake(error, socket));
    // The handshake's answer carries x-request-id like every other response (it bypasses Koa).
    wss.on('headers', (headers, request) => headers.push(`x-request-id: ${requestIdOf(request.headers['x-request-id'])}`));
    this.transport.serve(wss, {
      schema: this.schema,
      connectionInitWaitTimeout: 10_000,
      subscribe: deliverSubscription,
      onConnect: async (ctx) => {
        const origin = this.origins.get(ctx.extra.socket);
        if (origin) this.initialised(origin);
        // The socket takes its credential's place before the credential is read, so that a key or
        // token that holds its sockets (open or being checked) is refused before it costs a database
        // read; a credential found invalid gives its place back.
        const claimed = this.secretHash(kind, ctx.connectionParams ?? {});
        const count = this.perCredential.get(claimed) ?? 0;
        if (count >= this.limits.maxSocketsPerCredential) {
          ctx.extra.socket.close(CLOSE_CODES.tooManySockets, 'Too many sockets for this credential.');
          return false;
        }
        // A credential that is not found counts as a failed sign-in of the address, as a wrong client
        // secret does over HTTP: an address past its quota is refused before the database is asked.
        // A quota that cannot be read (its store away) leaves the check to the lookup, which then says so.
        const admitted = await beginCredentialCheck(this.options.rateLimits, origin?.address ?? '').catch(() => null);
        if (admitted && 'refused' in admitted) {
          ctx.extra.socket.close(CLOSE_CODES.tryAgainLater, `Too many credentials that were not found from this address: retry in ${Math.max(1, admitted.refused.resetSeconds)} s.`);
          return false;
        }
        this.perCredential.set(claimed, count + 1);
        const credential = await this.authenticate(kind, ctx.connectionParams ?? {}).catch((error: unknown) => {
          this.giveBackPlace(claimed);
          void admitted?.check.settle('unknown');
          throw error;
        });
        void admitted?.check.settle(credential === null ? 'failed' : credential === 'unavailable' ? 'unknown' : 'authenticated');
        if (!credential || credential === 'unavailable' || ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) this.giveBackPlace(claimed);
        if (credential === 'unavailable') {
          // Not a bad credential: one that cannot be checked now. Clients retry 1013 by themselves.
          ctx.extra.socket.close(CLOSE_CODES.tryAgainLater, `The database cannot be reached: reconnect in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s.`);
          return false;
        }
        if (!credential || ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
        const socket: Socket = { ws: ctx.extra.socket, credential, alive: true, close: (code, reason) => ctx.extra.socket.close(code, reason) };
        this.sockets.add(socket);
        this.socketOf.set(ctx.extra.socket, socket);
        ctx.extra.socket.on('pong', () => (socket.alive = true));
        return true;
      },
      onClose: (ctx) => this.forget(ctx.extra.socket),
      onDisconnect: (ctx) => this.forget(ctx.extra.socket),
      onSubscribe: async (ctx, id, payload) => {
        const socket = this.socketOf.get(ctx.extra.socket);
        if (!socket) return [new GraphQLError('The connection is not initialised.')];
        if (Object.keys(ctx.subscriptions).length > this.limits.maxSubscriptionsPerSocket) {
          return [new GraphQLError(`A socket holds at most ${this.limits.maxSubscriptionsPerSocket} subscriptions.`, { extensions: { code: 'too_many_subscriptions' } })];
        }
        // One at a time per key or token (across its sockets), each in a turn of the event loop of its
        // own: a burst of subscribe messages is prepared one after another, with other requests
        // answered between them. What waits is bounded, in messages and in bytes, and charged before
        // it waits: past the bounds a message is refused at once.
        const credential = socket.credential.hash;
        const waitingNow = this.waiting.get(credential) ?? 0;
        if (waitingNow >= this.limits.maxPendingSubscribes) return this.tooManyPending;
        const bytes = waitingBytes(payload);
        if (bytes instanceof GraphQLError) return [bytes];
        const held = subscriptionMemory.reserve(`gateway:${credential}`, bytes);
        if (typeof held === 'string') return [memoryRefusal(held)];
        this.waiting.set(credential, waitingNow + 1);
        const previous = this.preparing.get(credential) ?? Promise.resolve();
        let done!: () => void;
        const mine = new Promise<void>((resolve) => (done = resolve));
        this.preparing.set(credential, mine);
        try {
          await previous;
          await nextTurn();
          if (!(id in ctx.subscriptions)) return [new GraphQLError('The subscription was completed before it started.')];
          return await this.prepare(socket, id, payload);
        } catch (error) {
          if (!(error instanceof ApiError) && !(error instanceof GraphQLError) && !isDatabaseUnavailable(error)) this.options.log('subscription failed to start', error);
          return [asGraphQLError(error)];
        } finally {
          held.release();
          const left = (this.waiting.get(credential) ?? 1) - 1;
          if (left > 0) this.waiting.set(credential, left);
          else this.waiting.delete(credential);
          done();
          if (this.preparing.get(credential) === mine) this.preparing.delete(credential);
        }
      },
    });
    return wss;
  }

  /** The hash the credential in these connection parameters is known by once checked (authenticate), as sent. */
  private secretHash(kind: 'token' | 'key', params: Record<string, unknown>): string {
    const { authorization, apiKey, overlayToken } = params;
    const secret =
      kind === 'token'
        ? typeof authorization === 'string' && authorization.slice(0, 1000).replace(/^Bearer\s+/i, '')
        : typeof apiKey === 'string' && apiKey
          ? apiKey
          : typeof overlayToken === 'string' && overlayToken;
    return sha256(typeof secret === 'string' ? secret : '');
  }

  /** The socket has sent its connection_init, or closed: it gives back its address's place for sockets without one. */
  private initialised(origin: SocketOrigin): void {
    if (!origin.awaitingInit) return;
    origin.awaitingInit = false;
    const left = (this.awaitingInit.get(origin.key) ?? 1) - 1;
    if (left > 0) this.awaitingInit.set(origin.key, left);
    else this.awaitingInit.delete(origin.key);
  }

  private giveBackPlace(hash: string): void {
    const count = (this.perCredential.get(hash) ?? 1) - 1;
    if (count > 0) this.perCredential.set(hash, count);
    else this.perCredential.delete(hash);
  }

  /** The socket's credential; null when it is not valid, 'unavailable' when it could not be checked. */
  private async authenticate(kind: 'token' | 'key', params: Record<string, unknown>): Promise<Credential | null | 'unavailable'> {
    try {
      if (kind === 'token') {
        const authorization = typeof params.authorization === 'string' ? params.authorization.slice(0, 1000) : undefined;
        const resolved = await resolveAuthority(this.options.db.sql, authorization);
        const token = authorization!.replace(/^Bearer\s+/i, '');
        // The reads made for a socket's subscriptions take the credential as the sweep last found it
        // (at most 500 ms ago; a revoked or expired one has its sockets closed) rather than looking it
        // up again for every change: a round trip before each fan-out, and one statement per change
        // and credential.
        let authority = Promise.resolve(resolved);
        return {
          kind,
          hash: sha256(token),
          scope: () => ({ authorization, authority }),
          checked: (found) => {
            if (found) authority = Promise.resolve(found);
          },
          quota: { policy: 'token', key: tokenQuotaKey(resolved) },
        };
      }
      const apiKey = typeof params.apiKey === 'string' ? params.apiKey : undefined;
      const overlayToken = !apiKey && typeof params.overlayToken === 'string' ? params.overlayToken : undefined;
      const found = await resolveKeyCredential(this.options.db.sql, { apiKey, overlayToken });
      // A key's organisation (an overlay token's event) never changes; the sweep keeps its lastUsedAt current.
      const keyOrganisation = Promise.resolve(found);
      return {
        kind,
        overlay: Boolean(overlayToken),
        hash: sha256((overlayToken ?? apiKey)!),
        scope: () => (overlayToken ? { overlayToken, keyOrganisation } : { apiKey, keyOrganisation }),
        checked: () => (overlayToken ? touchOverlayToken : touchApiKey)(this.options.db.sql, found.keyId),
        quota: { policy: 'apiKey', key: found.keyId },
      };
    } catch (error) {
      if (isDatabaseUnavailable(error)) return 'unavailable';
      if (!(error instanceof ApiError)) this.options.log('gateway authentication failed', error);
      return null;
    }
  }

  /**
   * Parses, measures, validates and checks a subscription; answers its execution arguments. In the
   * order of /graphql's admission (admission.ts), so that nothing a client sends costs work before it
   * has paid for it: 1 from its credential's quota before the text is parsed, the parse's bytes
   * reserved while it is prepared, the limits before validation, the rest of its cost before it starts.
   */
  private async prepare(socket: Socket, subscriptionId: string, payload: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null }) {
    const { policy, key } = socket.credential.quota;
    const rateLimited = (quota: Decision) => [
      new GraphQLError(rateLimitedMessage(quota), { extensions: { code: 'rate_limited', details: [{ issue: 'rate_limit_exceeded' }], retryAfter: Math.max(1, quota.resetSeconds) } }),
    ];
    const entry = await this.options.rateLimits.take(policy, key, 1);
    if (!entry.allowed) return rateLimited(entry);
    const busy = memoryRefusal;
    const credential = `gateway:${socket.credential.hash}`;
    // Parsed, measured and validated in one synchronous step (nothing else runs while the parse is
    // held uncounted), then held in the in-flight budget while the subscription is prepared. Parsed
    // once per text, as for /graphql, and shared: a thousand overlays sending the same text hold one
    // parse tree (and share the resource queries built from it), not one each.
    let admission: Admission;
    try {
      // The limits of /graphql (depth, aliases, fields, estimated cost), before validation reads it.
      admission = admitGraphQLRequest(this.schema, payload);
      if (admission.syntaxError) return [admission.syntaxError];
      const errors = validate(this.schema, admission.document!);
      if (errors.length) return errors;
      if (!admission.operation) return [new GraphQLError('Unable to identify the operation.')];
      if (admission.operation.operation !== 'subscription') return [new GraphQLError('The gateway takes subscriptions only; send queries and mutations over HTTP.')];
    } catch (error) {
      return [asGraphQLError(error)];
    }
    const { bytes, variables } = admission;
    const document = admission.document!;
    const operation = admission.operation!;
    const preparing = inFlightDocuments.reserve(credential, bytes);
    if (typeof preparing === 'string') return [busy(preparing)];
    try {
      let quota: Decision;
      try {
        quota = await chargeRest(entry, admission.cost, (points) => this.options.rateLimits.take(policy, key, points));
        if (!quota.allowed) return rateLimited(quota);
        admission.remember();
      } catch (error) {
        return [asGraphQLError(error)];
      }
      const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], variables);
      if (coerced.errors) return coerced.errors;
      const fieldNode = operation.selectionSet.selections[0];
      if (fieldNode.kind !== 'Field') return [new GraphQLError('Select one subscription field.')];
      const field = fieldNode.name.value;
      // Validated above against the schema built from the same table: the field is one of its rows.
      const spec = subscriptionSpec(field)!;
      const args = getArgumentValues(this.schema.getSubscriptionType()!.getFields()[field], fieldNode, coerced.coerced);
      const after = typeof args.after === 'string' ? decodeCursor(args.after, 'after') : null;
      try {
        if (after) await assertRetained(this.options.db.sql, after, 'after');
        if (spec.access !== 'public') await this.checkAccess(socket, spec.access, args);
        else if (socket.credential.overlay) throw notFound('The resource');
      } catch (error) {
        // A subscription the database could not check spends nothing: the client subscribes again.
        const answered = unavailableOr(error);
        if (answered instanceof ApiError && answered.status === 503) quota.giveBack?.();
        throw answered;
      }
      const signature = sha256(`${payload.query}\u0000${payload.operationName ?? ''}\u0000${JSON.stringify(payload.variables ?? {})}\u0000${socket.credential.hash}`);
      // Each distinct signature costs a read of its resource for every change it follows (alike ones
      // share it): a credential runs a bounded number of them, however many subscriptions share each.
      const distinct = this.signatures.get(socket.credential.hash);
      if (!distinct?.has(signature) && (distinct?.size ?? 0) >= this.limits.maxDistinctPerCredential) {
        return [
          new GraphQLError(`A key or token runs at most ${this.limits.maxDistinctPerCredential} distinct subscriptions (text and variables) at once on a server; alike ones share one.`, {
            extensions: { code: 'too_many_subscriptions', details: [{ issue: 'distinct_limit' }] },
          }),
        ];
      }
      // What the subscription holds while it runs: its share, its document (once, however many
      // subscriptions share it) and its backlog as it grows (stream.ts).
      const held = holdSubscription(credential, document, bytes);
      if (typeof held === 'string') return [busy(held)];
      const memory = this.countSignature(socket.credential.hash, signature, held);
      const contextValue: SubscriptionContext = {
        socket,
        hub: this.hub,
        db: this.options.db,
        runner: this.options.runner,
        limits: this.limits,
        after,
        signature,
        subscriptionId,
        outlet: this.transport.outlet(socket.ws),
        memory,
      };
      return { schema: this.schema, document, operationName: payload.operationName, variableValues: payload.variables ?? {}, contextValue };
    } finally {
      preparing.release();
    }
  }

  /** Counts a running subscription's signature for its credential until the subscription's reservation is released. */
  private countSignature(credential: string, signature: string, held: Hold): Hold {
    let distinct = this.signatures.get(credential);
    if (!distinct) this.signatures.set(credential, (distinct = new Map()));
    distinct.set(signature, (distinct.get(signature) ?? 0) + 1);
    const counted = distinct;
    return alsoOnRelease(held, () => {
      const left = (counted.get(signature) ?? 1) - 1;
      if (left > 0) counted.set(signature, left);
      else counted.delete(signature);
      if (counted.size === 0 && this.signatures.get(credential) === counted) this.signatures.delete(credential);
    });
  }

  /** The caller may see the event (and the match, playday or stage named): asked of the graph with its credential. */
  private async checkAccess(socket: Socket, access: Exclude<SubscriptionSpec['access'], 'public'>, args: Record<string, unknown>): Promise<void> {
    const child = access.child && args[access.child.arg] != null ? access.child.field : null;
    const viaKey = socket.credential.kind === 'key';
    const key = `${viaKey}|${child}`;
    let operation = this.accessChecks.get(key);
    if (!operation) {
      const inner = child ? `{ ${child}(id: $id) { id } }` : '{ id }';
      const event = `event(id: $eventId) ${inner}`;
      operation = prepareOperation(`query RealtimeAccess($eventId: ID!${child ? ', $id: ID!' : ''}) { ${viaKey ? `apiKey { ${event} }` : event} }`);
      this.options.runner.check(operation);
      this.accessChecks.set(key, operation);
    }
    const variables = { eventId: args.eventId, ...(child ? { id: args[access.child!.arg] } : {}) };
    const { errors } = await this.options.runner.run(operation, variables, { scope: { ...socket.credential.scope(), requestId: 'rt_access', deadline: Date.now() + 10_000 } });
    if (errors?.length) {
      const { code, details } = errors[0].extensions ?? {};
      if (code === 'service_unavailable') throw new ApiError('service_unavailable', errors[0].message, details as ErrorDetail[] | undefined);
      throw new GraphQLError(errors[0].message, { extensions: errors[0].extensions });
    }
  }

  private forget(ws: WebSocket): void {
    const socket = this.socketOf.get(ws);
    if (!socket || !this.sockets.delete(socket)) return;
    this.giveBackPlace(socket.credential.hash);
  }

  private ping(): void {
    for (const socket of this.sockets) {
      if (!socket.alive) {
        socket.ws.terminate();
        this.forget(socket.ws);
        continue;
      }
      socket.alive = false;
      socket.ws.ping();
    }
  }

  /**
   * Closes the sockets whose key or token was revoked or has expired, and hands the others' credentials
   * what it found: a token's authority as it is now (its application's entitlements may have changed).
   */
  private async sweep(): Promise<void> {
    if (this.sockets.size === 0) return;
    // Only the sockets open when the check starts are judged by it: one that connects while the check
    // waits for the database has had its credential checked just now, and the next sweep includes it.
    const judged = [...this.sockets];
    const hashes = { key: new Set<string>(), overlay: new Set<string>(), token: new Set<string>() };
    for (const socket of judged) hashes[socket.credential.overlay ? 'overlay' : socket.credential.kind].add(socket.credential.hash);
    const [keys, overlays, tokens] = await Promise.all([
      hashes.key.size ? usableApiKeys(this.options.db.sql, [...hashes.key]) : new Set<string>(),
      hashes.overlay.size ? usableOverlayTokens(this.options.db.sql, [...hashes.overlay]) : new Set<string>(),
      hashes.token.size ? resolveAuthorities(this.options.db.sql, [...hashes.token]) : new Map<string, Authority>(),
    ]);
    const valid = new Set<string>([...keys, ...overlays, ...tokens.keys()]);
    for (const socket of judged) {
      if (!this.sockets.has(socket)) continue;
      const { credential } = socket;
      if (!valid.has(credential.hash)) socket.ws.close(CLOSE_CODES.forbidden, 'The credential was revoked or has expired.');
      else credential.checked(tokens.get(credential.hash));
    }
  }
}
