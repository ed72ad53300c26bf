// Rate limits (docs/errors.md#rate-limits): fixed windows counted by rate-limiter-flexible, in
// memory on the embedded default, in Redis when REDIS_URL is set, else in PostgreSQL, so that every
// instance counts against the same limit.
//
// A shared store is not written on every request: each instance keeps a local tally per key, admits
// a request when what the store last said plus what this instance has added since stays within the
// quota, and adds its tally to the store once per sync interval (RATE_LIMIT_SYNC_MS, default 100 ms),
// reading back the total. One store call per key and interval instead of one per request keeps the
// limiter off the hot path; the price is that instances may together admit, beyond the quota, what
// arrives within one interval.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';
import { createHash } from 'node:crypto';
import type { Database, SqlRunner } from '../../platform/db/database.ts';
import type { RequestScope } from '../../platform/domain/context.ts';
import { resolveAuthority, type Authority } from '../../platform/domain/authority.ts';
import { resolveKeyCredential } from '../../platform/domain/api-keys.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { unavailableOr } from '../../platform/db/unavailable.ts';
import { FailureRun } from '../../platform/process/failure-run.ts';
import { setting, type SettingName } from '../../platform/process/config.ts';

export interface Policy {
  /** The name clients see in RateLimit-Policy. */
  name: string;
  quota: number;
  windowSeconds: number;
}

export interface Decision {
  allowed: boolean;
  policy: Policy;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Returns what an allowed request took, when it could not be served after all (the database was away). */
  giveBack?: () => void;
  /** Counts what a reservation held (the check it held them for failed). */
  keep?: () => void;
}

/** off counts nothing and refuses nothing: RATE_LIMIT=off, to measure what limiting costs (benchmarks). */
export type StoreKind = 'memory' | 'redis' | 'postgresql' | 'off';

export interface StoreOptions {
  kind: StoreKind;
  /** Prepended to every key: deployments (or test runs) sharing one Redis stay apart. */
  prefix?: string;
  /** An ioredis client (redis) or a pg Pool (postgresql). */
  client?: unknown;
  syncMs?: number;
  /** Failures to reach a shared store: logged when they start, once a minute while they last, and when they end. */
  failures?: FailureRun;
}

function limiterFor(policy: Policy, store: StoreOptions): RateLimiterAbstract {
  const options = { points: policy.quota, duration: policy.windowSeconds, keyPrefix: `${store.prefix ?? ''}rl_${policy.name}` };
  switch (store.kind) {
    case 'redis':
      return new RateLimiterRedis({ ...options, storeClient: store.client });
    case 'postgresql':
      // The table is the project's own (prisma/schema.prisma, model RateLimitCounter), created by its
      // migrations rather than by the library at run time.
      return new RateLimiterPostgres({ ...options, storeClient: store.client, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: true });
    default:
      return new RateLimiterMemory(options);
  }
}

const OFF: Omit<Decision, 'policy'> = { allowed: true, remaining: 0, resetSeconds: 0 };

interface Tally {
  /** The store's count when it last answered (what this instance sent included). */
  counted: number;
  /** The net points of the send on its way to the store (one per key at a time), 0 when none is. */
  sending: number;
  /** Whether a send is on its way: the next one waits for its answer, so answers come in order. */
  inFlight: boolean;
  /**
   * The net points added here and not yet taken by the store: taken or given back since the last
   * send, and a send the store could not take (it is sent again once it can). Negative when more was
   * given back than taken since.
   */
  pending: number;
  /** Held here while a check runs (reserve): counted against the quota here, never sent. */
  held: number;
  /** What this instance's sends added to the store's count in its current window: no give-back takes more. */
  sent: number;
  resetAt: number;
  /**
   * Whether resetAt is the store's: a window this instance began locally ends when the store says
   * once its first send arrives (up to a sync interval later), not when it was guessed here.
   */
  confirmed: boolean;
  /** The send a refusal started to learn the store's window end, shared by the refusals behind it. */
  confirming?: Promise<void>;
  /** Refused here since the last sync: ask the store again, another instance may have moved. */
  stale: boolean;
}

const usedOf = (tally: Tally) => tally.counted + tally.sending + tally.pending + tally.held;

/**
 * The key a count is kept under: a client's own string (a client id is whatever the request sent)
 * only while it is short; a longer one by its hash, so that every key held for a window, in memory or
 * in a store, is at most 64 characters.
 */
const storedKey = (key: string) => (key.length <= 64 ? key : createHash('sha256').update(key).digest('hex'));

/** One policy's counter: exact in memory, tallied locally in front of a shared store. */
export class PolicyCounter {
  private readonly limiter: RateLimiterAbstract;
  private readonly tallies = new Map<string, Tally>();
  private readonly loading = new Map<string, Promise<Tally>>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    readonly policy: Policy,
    private readonly store: StoreOptions,
  ) {
    this.limiter = limiterFor(policy, store);
  }

  private decision(allowed: boolean, used: number, resetAt: number, now: number): Decision {
    return {
      allowed,
      policy: this.policy,
      remaining: Math.max(0, this.policy.quota - used),
      // A window is never longer than the policy's, whatever the time a store read took.
      resetSeconds: Math.min(this.policy.windowSeconds, Math.max(0, Math.ceil((resetAt - now) / 1000))),
    };
  }

  /** Takes `points` for `key` unless that would exceed the quota (nothing is taken then). */
  take(rawKey: string, points: number): Promise<Decision> {
    return this.admit(rawKey, points, false);
  }

  /**
   * Holds `points` for `key` while something is being checked, unless that would exceed the quota:
   * `keep` counts them (sent to a shared store like a take), `giveBack` returns them. Held points
   * count against the quota here only: what the store holds is what was kept, never checks that
   * were still running when it last answered (they would stay in its count if it went away).
   */
  reserve(rawKey: string, points: number): Promise<Decision> {
    return this.admit(rawKey, points, true);
  }

  private async admit(rawKey: string, points: number, held: boolean): Promise<Decision> {
    const key = storedKey(rawKey);
    const now = Date.now();
    if (this.store.kind === 'off') return { ...OFF, policy: this.policy, remaining: this.policy.quota };
    if (this.store.kind === 'memory') {
      // consume counts and checks in one step; what it refused is given back, so that a refused
      // request (an expensive operation, say) spends nothing.
      try {
        const result = await this.limiter.consume(key, points);
        const resetAt = now + result.msBeforeNext;
        // Only into the window it was taken from: a new window starts afresh, owing nothing.
        const giveBack = once(() => {
          if (resetAt > Date.now()) void this.limiter.reward(key, points).catch(() => undefined);
        });
        return { ...this.decision(true, result.consumedPoints, resetAt, now), giveBack, keep: () => undefined };
      } catch (refusal) {
        if (refusal instanceof Error) throw refusal;
        const result = await this.limiter.reward(key, points);
        return this.decision(false, result.consumedPoints, now + result.msBeforeNext, now);
      }
    }
    const tally = await this.tallyOf(key, now);
    // The tally's window may have begun while it was read: its reset counts from now, not from before.
    const at = Date.now();
    const used = usedOf(tally);
    if (used + points > this.policy.quota) {
      if (!tally.confirmed) {
        // A refusal's Retry-After must be the store's window end, or a client that honours it
        // exactly is refused again: send now and answer with what the store says (once per window:
        // with the store away, the refusals that follow answer with the local guess).
        tally.stale = true;
        tally.confirming ??= this.flush();
        await tally.confirming;
        return this.decision(false, usedOf(tally), tally.resetAt, Date.now());
      }
      tally.stale = true;
      this.schedule();
      return this.decision(false, used, tally.resetAt, at);
    }
    if (held) tally.held += points;
    else tally.pending += points;
    this.schedule();
    // Only into the window it was taken from: a new window starts from the store's count.
    const current = () => this.tallies.get(key) === tally && tally.resetAt > Date.now();
    let settled = false;
    const giveBack = () => {
      if (settled) return;
      settled = true;
      if (!current()) return;
      if (held) tally.held -= points;
      else tally.pending -= points;
      this.schedule();
    };
    if (!held) return { ...this.decision(true, used + points, tally.resetAt, at), giveBack };
    const keep = () => {
      if (settled) return;
      settled = true;
      if (!current()) return void this.add(rawKey, points).catch(() => undefined);
      tally.held -= points;
      tally.pending += points;
      this.schedule();
    };
    return { ...this.decision(true, used + points, tally.resetAt, at), giveBack, keep };
  }

  /** Adds points whatever the count (a failed authentication), and answers the count after them. */
  async add(rawKey: string, points: number): Promise<Decision> {
    const key = storedKey(rawKey);
    const now = Date.now();
    if (this.store.kind === 'off') return { ...OFF, policy: this.policy, remaining: this.policy.quota };
    if (this.store.kind === 'memory') {
      const result = await this.limiter.penalty(key, points);
      return this.decision(result.consumedPoints <= this.policy.quota, result.consumedPoints, now + result.msBeforeNext, now);
    }
    const tally = await this.tallyOf(key, now);
    tally.pending += points;
    this.schedule();
    const used = usedOf(tally);
    return this.decision(used <= this.policy.quota, used, tally.resetAt, Date.now());
  }

  /** Whether `key` is over its quota now, without taking anything. */
  async over(rawKey: string): Promise<Decision | null> {
    const key = storedKey(rawKey);
    const now = Date.now();
    if (this.store.kind === 'off') return null;
    if (this.store.kind === 'memory') {
      const current = await this.limiter.get(key);
      if (!current || current.msBeforeNext <= 0 || current.consumedPoints < this.policy.quota) return null;
      return this.decision(false, current.consumedPoints, now + current.msBeforeNext, now);
    }
    const tally = await this.tallyOf(key, now);
    const used = usedOf(tally);
    return used >= this.policy.quota ? this.decision(false, used, tally.resetAt, Date.now()) : null;
  }

  /**
   * The local tally of a key in its current window. A key this instance has not counted in this
   * window starts from what the store holds (other instances may have spent some of it): one read
   * per key and window, shared by the requests that arrive while it is on its way.
   */
  private tallyOf(key: string, now: number): Tally | Promise<Tally> {
    const known = this.tallies.get(key);
    if (known && known.resetAt > now) return known;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.limiter
        .get(key)
        .then(
          (current) => {
            this.store.failures?.succeeded();
            return current;
          },
          (error: unknown) => {
            // Unreachable: this instance counts the key alone, from zero (docs/errors.md#rate-limits).
            this.store.failures?.failed(error);
            return null;
          },
        )
        .then((current) => {
          this.loading.delete(key);
          const at = Date.now();
          // What was added here since and not yet sent belongs to the new window; a give-back does not.
          const previous = this.tallies.get(key);
          const tally: Tally = { counted: 0, sending: 0, inFlight: false, pending: Math.max(0, previous?.pending ?? 0), held: 0, sent: 0, resetAt: at + this.policy.windowSeconds * 1000, confirmed: false, stale: false };
          if (current && current.msBeforeNext > 0) {
            tally.counted = current.consumedPoints;
            tally.resetAt = at + current.msBeforeNext;
            tally.confirmed = true;
          }
          this.tallies.set(key, tally);
          return tally;
        });
      this.loading.set(key, loading);
    }
    return loading;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.store.syncMs ?? 100);
    this.timer.unref();
  }

  /** Sends every pending tally to the store and takes back its totals. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    const work = (async () => {
      const now = Date.now();
      const sends: Promise<void>[] = [];
      for (const [key, tally] of this.tallies) {
        if (tally.inFlight) {
          this.schedule();
          continue;
        }
        if (tally.pending === 0 && !tally.stale) {
          if (tally.resetAt <= now) this.tallies.delete(key);
          continue;
        }
        // A give-back takes from the store no more than this instance added to its window; the rest
        // was never there. Nothing pending but refused lately: a penalty of 0 reads the count back.
        const points = Math.max(tally.pending, -tally.sent);
        tally.pending = 0;
        tally.stale = false;
        tally.sending = points;
        tally.inFlight = true;
        sends.push(
          this.limiter.penalty(key, points).then(
            (result: RateLimiterRes) => {
              this.store.failures?.succeeded();
              tally.sending = 0;
              tally.inFlight = false;
              // A window that began with this send: only its points are this instance's there.
              tally.sent = result.isFirstInDuration ? points : tally.sent + points;
              // The store's total includes these points and every other instance's.
              tally.counted = result.consumedPoints;
              tally.resetAt = Date.now() + result.msBeforeNext;
              tally.confirmed = true;
              if (tally.sent < 0) {
                // A give-back reached a window that had begun without its points: put them back.
                tally.pending -= tally.sent;
                this.schedule();
              }
            },
            (error: unknown) => {
              // The store is unreachable: count here meanwhile, so the limit still holds per
              // instance, and send again once it answers.
              tally.sending = 0;
              tally.inFlight = false;
              tally.pending += points;
              this.schedule();
              this.store.failures?.failed(error);
            },
          ),
        );
      }
      await Promise.all(sends);
    })();
    this.flushing = work;
    await work;
    this.flushing = null;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export interface RateLimitConfig {
  /** Per application (and per user, for tokens acting for one): every API request and GraphQL operation. */
  token: Policy;
  /** Per organisation API key (v1 and its gateway). */
  apiKey: Policy;
  /** Per IP address, for requests without a valid credential. */
  anonymous: Policy;
  /** Per client id: its authenticated requests to the token, revocation and introspection endpoints (and their GraphQL fields). */
  client: Policy;
  /** Per IP address: failed client authentications and sign-ins; past it, every check of a secret or password answers 429. */
  authFailures: Policy;
}

const policy = (name: string, variable: SettingName & `RATE_LIMIT_${string}`): Policy => {
  const { count, seconds } = setting(variable as 'RATE_LIMIT_TOKEN');
  return { name, quota: count, windowSeconds: seconds };
};

/** The limits, from the environment (docs/errors.md#rate-limits lists them with their defaults). */
export function rateLimitConfig(): RateLimitConfig {
  return {
    token: policy('token', 'RATE_LIMIT_TOKEN'),
    apiKey: policy('api_key', 'RATE_LIMIT_API_KEY'),
    anonymous: policy('anonymous', 'RATE_LIMIT_ANONYMOUS'),
    client: policy('client', 'RATE_LIMIT_CLIENT'),
    authFailures: policy('auth_failures', 'RATE_LIMIT_AUTH_FAILURES'),
  };
}

/** The IETF RateLimit-Policy and RateLimit fields of a decision (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(decision: Decision): Record<string, string> {
  const { name, quota, windowSeconds } = decision.policy;
  return {
    'RateLimit-Policy': `"${name}";q=${quota};w=${windowSeconds}`,
    RateLimit: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

export class RateLimits {
  private readonly counters: Record<keyof RateLimitConfig, PolicyCounter>;

  constructor(
    readonly config: RateLimitConfig,
    store: StoreOptions,
  ) {
    this.counters = Object.fromEntries(Object.entries(config).map(([name, value]) => [name, new PolicyCounter(value, store)])) as Record<keyof RateLimitConfig, PolicyCounter>;
  }

  /** Takes points from the credential's quota (or the IP's, without one). */
  take(which: 'token' | 'apiKey' | 'anonymous', key: string, points: number): Promise<Decision> {
    return this.counters[which].take(key, points);
  }

  /**
   * One failed authentication of the address, held while the secret or password is checked (kept
   * through the decision's keep if it was wrong, given back otherwise); refused past the address's quota.
   */
  reserveAuthFailure(ip: string): Promise<Decision> {
    return this.counters.authFailures.reserve(addressKey(ip), 1);
  }

  /** A client past its quota of authenticated requests, or null. */
  clientOver(clientId: string): Promise<Decision | null> {
    return this.counters.client.over(clientId);
  }

  /** Counts a request of a client that authenticated. */
  chargeClient(clientId: string): Promise<Decision> {
    return this.counters.client.add(clientId, 1);
  }

  /** Writes what is tallied to the store (for tests and shutdown). */
  async flush(): Promise<void> {
    await Promise.all(Object.values(this.counters).map((counter) => counter.flush()));
  }

  async stop(): Promise<void> {
    for (const counter of Object.values(this.counters)) counter.stop();
    await this.flush();
  }
}

/** The token quota's key: the application, or the application and the user a token acts for. */
export const tokenQuotaKey = (authority: Authority) => (authority.actor.type === 'user' ? `${authority.applicationId}:${authority.actor.userId}` : authority.applicationId);

/**
 * The key of an address's quotas: the address itself for IPv4, its /64 network for IPv6, since one
 * machine is routinely given a whole /64 and could otherwise take a fresh quota per address.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return ip;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Whose quota a request spends: its application (with its user), its API key or overlay token (first
 * on the v1 routes, prefer 'key'), or its IP address.
 * Only a credential found invalid makes a request anonymous: one that could not be checked (the
 * database away) fails the request with 503 service_unavailable, spending nobody's quota.
 */
export async function chargeCaller(limits: RateLimits, sql: SqlRunner, scope: RequestScope, ip: string, points: number, prefer: 'token' | 'key' = 'token'): Promise<Decision> {
  const viaToken = async () => {
    if (!scope.authorization) return null;
    // The same memoised lookup the subgraphs use: the token is read once per request.
    const authority = await checked(scope.authority ??= resolveAuthority(sql, scope.authorization));
    return authority ? limits.take('token', tokenQuotaKey(authority), points) : null;
  };
  const viaKey = async () => {
    if (!scope.apiKey && !scope.overlayToken) return null;
    const key = await checked(scope.keyOrganisation ??= resolveKeyCredential(sql, scope));
    return key ? limits.take('apiKey', key.keyId, points) : null;
  };
  // The credential the route reads with pays; another one sent beside it only when that one is absent.
  const [first, second] = prefer === 'key' ? [viaKey, viaToken] : [viaToken, viaKey];
  return (await first()) ?? (await second()) ?? limits.take('anonymous', addressKey(ip), points);
}

/** A credential's lookup: null when the credential is not valid; a lookup that failed is thrown (as 503 when the database was away). */
async function checked<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_token') return null;
    throw unavailableOr(error);
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

/** A GraphQL operation spends a tenth of its estimated cost (docs/graphql.md), at least 1. */
export const operationPoints = (cost: number) => Math.max(1, Math.ceil(cost / 10));

export const rateLimitedMessage = (decision: Decision) =>
  `Too many requests for the ${decision.policy.name} limit (${decision.policy.quota} per ${decision.policy.windowSeconds} s): retry in ${decision.resetSeconds} s.`;

/** The headers of a refusal: the limit fields and Retry-After. */
export const refusalHeaders = (decision: Decision): Record<string, string> => ({
  ...rateLimitHeaders(decision),
  'Retry-After': String(Math.max(1, decision.resetSeconds)),
});

/**
 * Where the counters live: Redis when REDIS_URL is set, else the platform's PostgreSQL (its
 * rate_limits table), else (the embedded PGlite, one process) memory.
 */
export function openRateLimitStore(
  db: Database,
  log: (message: string, error?: unknown) => void,
  { redisUrl = setting('REDIS_URL'), prefix = setting('RATE_LIMIT_PREFIX') }: { redisUrl?: string; prefix?: string } = {},
): { store: StoreOptions; close(): Promise<void> } {
  const syncMs = setting('RATE_LIMIT_SYNC_MS');
  const failures = new FailureRun('rate-limit store', log);
  if (!setting('RATE_LIMIT')) return { store: { kind: 'off' }, close: async () => undefined };
  if (redisUrl) {
    // No offline queue: while Redis is away a write fails at once and the instance counts alone.
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', (error) => failures.failed(error));
    return { store: { kind: 'redis', client: redis, syncMs, failures, prefix }, close: async () => void (await redis.quit().catch(() => redis.disconnect())) };
  }
  if (db.kind === 'postgresql') {
    // The library's pool interface, on the platform's own pool.
    const client = {
      query: async ({ text, values }: { text: string; values?: unknown[] }) => {
        const result = await db.query(text, values);
        return { rows: result.rows, rowCount: result.rows.length };
      },
    };
    return { store: { kind: 'postgresql', client, syncMs, failures }, close: async () => undefined };
  }
  return { store: { kind: 'memory' }, close: async () => undefined };
}
