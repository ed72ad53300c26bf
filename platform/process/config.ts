// Every environment variable the platform reads, declared once: its zod schema, its default, what a
// value must look like and what it means. Each entry point imports settings-check.ts first, which
// parses them all, so that a bad value stops the start with one sentence naming the variable before
// anything is opened; code reads a setting with setting(name), parsed once per value (tests change
// the environment between servers of one process). docs/deployment.md's table of variables is
// printed from this list by `npm run schema` (settingsTable), and a test keeps the two equal.
import { z } from 'zod';
import { SUBGRAPH_NAMES, type SubgraphName } from './subgraph-names.ts';
import { StartupError } from './startup.ts';

interface Setting<T> {
  /** Parses the variable's text (trimmed; unset or empty takes the default). */
  schema: z.ZodType<T, string>;
  /** The default as text, parsed by the schema; none: the setting is absent unless set. */
  default?: string;
  /** The default as the table shows it (markdown), when not `default` itself. */
  shown?: string;
  /** The end of the sentence "<NAME> must be …" that refuses a bad value; absent: any text is taken. */
  expects?: string;
  /** The table's "meaning" cell (markdown). */
  meaning: string;
  /** Never echoed in a refusal (its length is). */
  secret?: boolean;
}

// A setting with a default is never absent: the overload keeps that in its type.
function define<T>(setting: Setting<T> & { default: string }): Setting<T> & { default: string };
function define<T>(setting: Setting<T>): Setting<T>;
function define<T>(setting: Setting<T>) {
  return setting;
}

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max));
/** Milliseconds a Node.js timer can wait (it fires at once beyond 2^31 − 1). */
const MAX_TIMER_MS = 2_147_483_647;
const milliseconds = (min: number, max = MAX_TIMER_MS) => wholeNumber(min, max);
const msText = (min: number, max = MAX_TIMER_MS) => `a whole number of milliseconds from ${min} to ${max}`;
const positiveNumber = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,6})?$/)
  .transform(Number)
  .pipe(z.number().positive());
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values) as unknown as z.ZodType<T[number], string>;
const onOff = (on: string, off: string) => z.enum([on, off]).transform((value) => value === on);
/** "<count>/<seconds>", both whole numbers from 1. */
const perWindow = z
  .string()
  .regex(/^\d{1,12}\/\d{1,9}$/)
  .transform((value) => value.split('/').map(Number) as [number, number])
  .refine(([count, seconds]) => count >= 1 && seconds >= 1)
  .transform(([count, seconds]) => ({ count, seconds }));
/** A URL of one of these schemes, as written (no whitespace or control character the parser would drop). */
const urlOf = (value: string, schemes: RegExp) => !/[\s\x00-\x1f\x7f]/.test(value) && URL.canParse(value) && schemes.test(new URL(value).protocol) && new URL(value).hostname !== '';
const httpUrl = (value: string) => urlOf(value, /^https?:$/);

const rateLimit = (fallback: string, who: string) =>
  define({ schema: perWindow, default: fallback, expects: `<requests>/<seconds>, e.g. ${fallback}`, meaning: `requests per window of seconds ${who} ([rate limits](errors.md#rate-limits))` });

export const SETTINGS = {
  // ── the server ──
  PORT: define({
    schema: wholeNumber(0, 65_535),
    shown: '`4000` (`npm start`, `npm run router`), `4001` (`npm run start:subgraph`)',
    expects: 'a whole number from 0 to 65535 (0 picks a free port)',
    meaning: 'the port to listen on; `0` picks a free one',
  }),
  HOST: define({
    // An IPv6 address may come in URL brackets ([::1]); listen() wants it bare.
    schema: z.string().transform((value) => value.replace(/^\[(.*)\]$/, '$1')),
    default: '127.0.0.1',
    meaning: 'the address to listen on, an address or name of this machine (one it cannot listen on stops the start); the default accepts connections from this machine only, `0.0.0.0` (or `::`) from every network ([exposure](#exposure))',
  }),
  PUBLIC_URL: define({
    schema: z.string().refine(publicOrigin).transform((value) => new URL(value).origin),
    shown: 'the address it listens on (`http://127.0.0.1:4000`)',
    expects: 'the origin clients call, e.g. https://api.example.com (http or https, no path, query or fragment)',
    meaning:
      'the OAuth issuer ([metadata and `iss`](authentication.md#access-tokens-v2-and-graphql)): the http(s) origin clients call, no path; set it behind a proxy, on a domain, or with `HOST` widened (listening on every interface without it logs a warning)',
  }),
  TRUST_PROXY: define({
    schema: wholeNumber(0, 99),
    default: '0',
    expects: 'the number of proxies in front of the server (0, 1, 2, …)',
    meaning:
      "the number of proxies in front that add to `X-Forwarded-For`: the client's address (per-IP rate limits) is the n-th from the right, what the outermost trusted proxy saw; `X-Forwarded-Proto` is trusted too (secure cookies)",
  }),
  // npm start exits 1.5 s after the drain's limit at the latest: that timer must fit too.
  SHUTDOWN_DRAIN_MS: define({ schema: milliseconds(0, MAX_TIMER_MS - 1_500), default: '8000', expects: msText(0, MAX_TIMER_MS - 1_500), meaning: 'how long SIGTERM waits for requests in flight' }),
  REQUEST_TIMEOUT_MS: define({ schema: milliseconds(1), default: '10000', expects: msText(1), meaning: "a request's time budget (metered reads past it answer 503, unmetered)" }),
  LOG_LEVEL: define({
    schema: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    expects: 'one of fatal, error, warn, info, debug, trace, silent',
    meaning: 'the pino level; logs are JSON lines on stdout with `requestId`',
  }),

  // ── the database ──
  DATABASE_URL: define({
    schema: z.string().refine((value) => urlOf(value, /^postgres(ql)?:$/)),
    shown: 'unset: embedded PGlite in `./data/pglite`',
    expects: 'a PostgreSQL connection URL (postgresql://…), or unset for the embedded PGlite',
    meaning: '`postgresql://…` switches to PostgreSQL',
  }),
  PGLITE_DATA_DIR: define({ schema: z.string(), shown: '`./data/pglite`', meaning: 'the directory the embedded database lives in' }),
  PGLITE_SHARED_BUFFERS: define({
    schema: z
      .string()
      .regex(/^\d{1,9}(kB|MB|GB)$/)
      .refine((value) => {
        const kB = Number.parseInt(value, 10) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[value.slice(-2) as 'kB' | 'MB' | 'GB'];
        return kB >= 128 && kB <= 1024 * 1024;
      }),
    default: '16MB',
    expects: 'a size from 128kB to 1GB in kB, MB or GB, e.g. 16MB',
    meaning: "PGlite's `shared_buffers` (its default of 128 MB is most of its memory)",
  }),
  DATABASE_POOL_SIZE: define({ schema: wholeNumber(1, 1000), default: '10', expects: 'a whole number from 1 to 1000', meaning: 'PostgreSQL connections per process' }),
  DATABASE_CONNECT_TIMEOUT_MS: define({
    schema: milliseconds(1),
    default: '10000',
    expects: msText(1),
    meaning: 'how long a request waits for a PostgreSQL connection (a server that does not answer, a pool busy that long) before it is answered 503 ([database outages](#database-outages))',
  }),
  SEED_DEMO_WORLD: define({ schema: onOff('1', '0'), default: '1', shown: 'loads into an empty database', expects: '1 or 0', meaning: '`0` never loads the demo world (production)' }),
  CHANGE_FEED_RETENTION_DAYS: define({ schema: positiveNumber.pipe(z.number().max(36_500)), default: '30', expects: 'a number of days above 0, at most 36500', meaning: 'how long the change log keeps changes (and so how far back a resume can go)' }),

  // ── the distributed topology ──
  SUBGRAPH_URLS: define({
    schema: z.string().transform((value, ctx) => {
      const urls: Partial<Record<SubgraphName, string>> = {};
      for (const pair of value.split(',')) {
        const at = pair.indexOf('=');
        const [name, url] = at < 0 ? [pair.trim(), ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        const problem = !SUBGRAPH_NAMES.includes(name as SubgraphName) || !url || !httpUrl(url) ? 'cannot be read' : urls[name as SubgraphName] ? 'names the subgraph a second time' : null;
        if (problem) {
          ctx.addIssue({ code: 'custom', message: `"${pair.trim()}" ${problem}`, params: { detail: true } });
          return z.NEVER;
        }
        urls[name as SubgraphName] = url;
      }
      return urls;
    }),
    shown: "unset: subgraphs in-process (`npm run router`: `router.yaml`'s addresses)",
    expects: `name=http://… or name=https://… for each of ${SUBGRAPH_NAMES.join(', ')}, comma-separated, each name once`,
    meaning: '`competitions=http://…/graphql,esports=…,developer=…` (http or https addresses): `npm start` needs all three, `npm run router` takes the others from `router.yaml`',
  }),
  SUBGRAPH_SECRET: define({
    schema: z.string().regex(/^[\x21-\x7e]{32,}$/),
    shown: 'none (required with `SUBGRAPH_URLS`, by `npm run start:subgraph` and by `npm run router`)',
    expects: 'at least 32 visible ASCII characters (e.g. the output of `openssl rand -hex 32`), the same for the subgraphs and the gateway or router in front of them',
    meaning: "the subgraphs' shared secret ([distributed topology](#distributed-topology))",
    secret: true,
  }),

  // ── rate limits ──
  RATE_LIMIT: define({ schema: onOff('on', 'off'), default: 'on', expects: 'on or off', meaning: '`off` turns every rate limit off (measurements only)' }),
  RATE_LIMIT_TOKEN: rateLimit('6000/60', 'per application (and user) token'),
  RATE_LIMIT_API_KEY: rateLimit('6000/60', 'per organisation API key'),
  RATE_LIMIT_ANONYMOUS: rateLimit('600/60', 'per address, without a credential'),
  RATE_LIMIT_CLIENT: rateLimit('120/60', 'per client id at the token, revocation and introspection endpoints'),
  RATE_LIMIT_AUTH_FAILURES: rateLimit('20/600', 'of failed client authentications and sign-ins per address'),
  REDIS_URL: define({
    schema: z.string().refine((value) => urlOf(value, /^rediss?:$/)),
    shown: 'unset',
    expects: 'a redis:// or rediss:// URL',
    meaning: 'rate-limit counters in Redis (else in PostgreSQL, or in memory on PGlite)',
  }),
  RATE_LIMIT_SYNC_MS: define({ schema: milliseconds(1), default: '100', expects: msText(1), meaning: 'how often an instance sends its tallies to the shared store' }),
  RATE_LIMIT_PREFIX: define({ schema: z.string().regex(/^[\x21-\x7e]{1,64}$/), shown: 'none', expects: 'up to 64 visible ASCII characters', meaning: 'a key prefix in Redis' }),

  // ── OAuth ──
  REFRESH_TOKEN_REUSE_SECONDS: define({
    schema: wholeNumber(0, 9999),
    default: '10',
    expects: 'a whole number of seconds (0–9999)',
    meaning: 'how long a spent refresh token still works for a retry of its own client ([refresh tokens](authentication.md#refresh-tokens)); `0` turns it off',
  }),

  // ── GraphQL ──
  GRAPHQL_TRUSTED_DOCUMENTS: define({
    schema: oneOf(['off', 'allow', 'require']),
    default: 'allow',
    expects: 'off, allow or require',
    meaning:
      "`off`: `/graphql` takes document texts only; `allow`: a document of the platform's manifest by its hash, or any text; `require`: manifest documents only, except for `GRAPHQL_ANY_DOCUMENT_CLIENTS` ([trusted documents](graphql.md#trusted-documents))",
  }),
  GRAPHQL_ANY_DOCUMENT_CLIENTS: define({
    schema: z.string().transform((value, ctx) => {
      const applications = new Set<string>();
      const organisations = new Set<string>();
      for (const client of value.split(',').map((part) => part.trim()).filter(Boolean)) {
        if (/^app_[A-Za-z0-9_-]+$/.test(client)) applications.add(client);
        else if (/^org_[A-Za-z0-9_-]+$/.test(client)) organisations.add(client);
        else {
          ctx.addIssue({ code: 'custom', message: `"${client}" is neither`, params: { detail: true } });
          return z.NEVER;
        }
      }
      return { applications: applications as ReadonlySet<string>, organisations: organisations as ReadonlySet<string> };
    }),
    default: '',
    shown: 'none',
    expects: 'application ids (app_…) and organisation ids (org_…), comma-separated',
    meaning: 'with `require`, who may still send any document: application ids (their tokens) and organisation ids (their API keys)',
  }),
  GRAPHQL_DOCUMENT_CACHE_MB: define({ schema: positiveNumber, default: '4', expects: 'a number of MiB above 0', meaning: "bytes of parsed documents each of `/graphql`'s two document caches keeps ([memory](#memory))" }),
  GRAPHQL_INFLIGHT_MB: define({ schema: positiveNumber, default: '16', expects: 'a number of MiB above 0', meaning: 'bytes of documents that requests being answered (and subscriptions being started) may hold, all clients together' }),
  GRAPHQL_INFLIGHT_PER_CLIENT_MB: define({ schema: positiveNumber, default: '8', expects: 'a number of MiB above 0', meaning: 'the same, per client address or gateway credential' }),

  // ── the realtime gateway ──
  GATEWAY_MEMORY_MB: define({ schema: wholeNumber(1, 1_048_576), default: '20', expects: 'a whole number of MiB from 1 to 1048576', meaning: "bytes the gateway's running subscriptions may hold (their share, documents, backlogs), in all ([realtime](#realtime-gateway))" }),
  GATEWAY_MEMORY_PER_CREDENTIAL_MB: define({ schema: wholeNumber(1, 1_048_576), default: '16', expects: 'a whole number of MiB from 1 to 1048576', meaning: 'the same, per key or token' }),
  GATEWAY_MESSAGE_LIMIT: define({ schema: perWindow, default: '100/10', expects: '<messages>/<seconds>, e.g. 100/10', meaning: 'messages a gateway socket may send per window of seconds; past it the socket is closed with 4429' }),
  GATEWAY_MAX_QUEUED: define({ schema: wholeNumber(1, 1_000_000_000), default: '1000', expects: 'a whole number from 1 to 1000000000', meaning: "a slow subscription's backlog in changes before its socket is closed with 4008" }),
  GATEWAY_MAX_QUEUED_KB: define({ schema: wholeNumber(1, 1_073_741_824), default: '1024', expects: 'a whole number of KiB from 1 to 1073741824', meaning: 'the same in KiB' }),
  GATEWAY_MAX_SUBSCRIPTIONS_PER_SOCKET: define({ schema: wholeNumber(1, 1_000_000_000), default: '50', expects: 'a whole number from 1 to 1000000000', meaning: 'subscriptions one socket may run at once' }),
  GATEWAY_MAX_SOCKETS_PER_CREDENTIAL: define({ schema: wholeNumber(1, 1_000_000_000), default: '100', expects: 'a whole number from 1 to 1000000000', meaning: 'sockets one key or token may hold open at once; past it a socket is closed with 4029' }),
  GATEWAY_MAX_PENDING_SUBSCRIBES: define({ schema: wholeNumber(1, 1_000_000_000), default: '100', expects: 'a whole number from 1 to 1000000000', meaning: 'subscribe messages of one key or token waiting for their turn to start, all its sockets together; past it one is refused at once (`rate_limited`, `too_many_pending`)' }),
  GATEWAY_MAX_DISTINCT_SUBSCRIPTIONS_PER_CREDENTIAL: define({ schema: wholeNumber(1, 1_000_000_000), default: '50', expects: 'a whole number from 1 to 1000000000', meaning: 'distinct subscriptions (text and variables) one key or token may run at once; alike ones share one read per change and count once (`too_many_subscriptions`, `distinct_limit`)' }),
  GATEWAY_MAX_UNINITIALISED_SOCKETS_PER_ADDRESS: define({ schema: wholeNumber(1, 1_000_000_000), default: '64', expects: 'a whole number from 1 to 1000000000', meaning: 'sockets of one client address (an IPv6 /64) open without a connection_init yet; past it a handshake is answered 429' }),
  GATEWAY_SOCKETS_MB: define({ schema: wholeNumber(1, 1_048_576), default: '16', expects: 'a whole number of MiB from 1 to 1048576', meaning: "bytes the gateway's open sockets may hold (8 KiB each), in all; past it a handshake is answered 503 ([realtime](#realtime-gateway))" }),
  GATEWAY_SOCKETS_PER_ADDRESS_MB: define({ schema: wholeNumber(1, 1_048_576), default: '8', expects: 'a whole number of MiB from 1 to 1048576', meaning: 'the same, per client address (an IPv6 /64); past it a handshake is answered 429' }),
  GATEWAY_PING_MS: define({ schema: milliseconds(10), default: '15000', expects: msText(10), meaning: 'how often the gateway pings each socket' }),

  // ── webhooks ──
  WEBHOOK_WORKER: define({ schema: onOff('on', 'off'), default: 'on', expects: 'on or off', meaning: '`off`: this process delivers no webhooks (run `npm run worker` instead, [webhook workers](#webhook-workers))' }),
  WEBHOOK_CONCURRENCY: define({ schema: wholeNumber(1, 10_000), default: '64', expects: 'a whole number from 1 to 10000', meaning: 'deliveries a worker sends at once' }),
  // A receiver that hangs holds at most this many of the workers' slots while the others' deliveries
  // go on: a quarter of a worker's 64, so that one busy receiver still gets them at the worker's pace.
  WEBHOOK_ENDPOINT_CONCURRENCY: define({ schema: wholeNumber(1, 10_000), default: '16', expects: 'a whole number from 1 to 10000', meaning: 'deliveries in flight to one endpoint, all workers together (1 while it is failing)' }),
  WEBHOOK_TIMEOUT_MS: define({ schema: milliseconds(1, 86_400_000), default: '15000', expects: msText(1, 86_400_000), meaning: "an attempt's time limit" }),
  WEBHOOK_LEASE_MS: define({ schema: milliseconds(1), default: '60000', expects: msText(1), meaning: 'how long a claim on a delivery lasts (at least `WEBHOOK_TIMEOUT_MS` + 1 s)' }),
  WEBHOOK_RETRY_SCHEDULE: define({
    schema: z
      .string()
      .regex(/^\d{1,6}(\s*,\s*\d{1,6}){0,19}$/)
      .transform((value) => value.split(',').map((part) => Number(part.trim()))),
    default: '5,300,1800,7200,18000,36000,36000',
    expects: 'up to 20 comma-separated whole numbers of seconds, e.g. 5,300,1800',
    meaning: 'the waits before each retry of a failed delivery ([retries](webhooks.md#deliveries-retries-and-the-log))',
  }),
  WEBHOOKS_ALLOW_LOCAL: define({ schema: onOff('1', '0'), default: '0', expects: '1 or 0', meaning: '`1` lets webhook endpoints be loopback and private addresses (local development and tests only)' }),

  // ── esports data ──
  ESPORTS_METERING: define({ schema: onOff('on', 'off'), default: 'on', expects: 'on or off', meaning: '`off` stops counting published esports reads against quotas (measurements only)' }),

  // ── tools ──
  PRISMA_ENGINE_DEBUG: define({ schema: z.string(), shown: 'unset', meaning: 'set: the migration tools print what the schema engine says (debugging them)' }),
} satisfies Record<string, Setting<unknown>>;

/** The OAuth issuer's shape: an http(s) origin with nothing after it. */
function publicOrigin(value: string): boolean {
  if (!urlOf(value, /^https?:$/)) return false;
  const url = new URL(value);
  return /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.search && !url.hash && url.pathname === '/';
}

export type SettingName = keyof typeof SETTINGS;
type Value<S> = S extends Setting<infer T> ? T : never;
/** A setting's value: absent (undefined) only for a setting without a default. */
export type SettingValue<K extends SettingName> = (typeof SETTINGS)[K] extends { default: string } ? Value<(typeof SETTINGS)[K]> : Value<(typeof SETTINGS)[K]> | undefined;
export type Config = { [K in SettingName]: SettingValue<K> };

type Environment = Readonly<Record<string, string | undefined>>;

function parse<K extends SettingName>(name: K, raw: string | undefined): SettingValue<K> {
  const spec: Setting<unknown> = SETTINGS[name];
  // Blank is unset; a secret is otherwise taken as it is (router.yaml inserts it untrimmed).
  const text = raw?.trim() ? (spec.secret ? raw : raw.trim()) : undefined;
  const input = text ?? spec.default;
  if (input === undefined) return undefined as SettingValue<K>;
  const result = spec.schema.safeParse(input);
  if (result.success) return result.data as SettingValue<K>;
  const issue = result.error.issues.find((i) => i.code === 'custom' && i.params?.detail)?.message;
  const given = spec.secret ? `it is ${raw!.length} characters long` : `it is ${JSON.stringify(shown(raw!))}`;
  throw new StartupError(`${name} must be ${spec.expects}; ${issue ? shown(issue) : given}.`);
}

/** A refused value as a refusal quotes it: a URL's user and password hidden, at most 200 characters. */
function shown(raw: string): string {
  const masked = raw.replace(/\/\/[^@\s]*@/g, '//***@');
  return masked.length > 200 ? `${masked.slice(0, 200)}…` : masked;
}

const parsed = new Map<SettingName, { raw: string | undefined; value: unknown }>();

/** The setting's value, parsed once per value of the variable; a bad value throws a StartupError. */
export function setting<K extends SettingName>(name: K, env: Environment = process.env): SettingValue<K> {
  const raw = env[name];
  const known = parsed.get(name);
  if (known && known.raw === raw) return known.value as SettingValue<K>;
  const value = parse(name, raw);
  parsed.set(name, { raw, value });
  return value;
}

/** Every setting, parsed: the first bad one throws its one sentence (a StartupError). */
export function readConfig(env: Environment = process.env): Config {
  const config: Partial<Record<SettingName, unknown>> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) config[name] = setting(name, env);
  return config as Config;
}

/** docs/deployment.md's table of variables, in declaration order. */
export function settingsTable(): string {
  const rows = (Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]).map(([name, spec]) => {
    const shown = spec.shown ?? (spec.default === undefined ? 'unset' : spec.default === '' ? 'none' : `\`${spec.default}\``);
    const accepted = spec.expects ? spec.expects.replace(/</g, '&lt;').replace(/>/g, '&gt;') : 'any text';
    return `| \`${name}\` | ${shown} | ${accepted} | ${spec.meaning} |`;
  });
  return ['| variable | default | accepted (anything else stops the start) | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

const TABLE_START = '<!-- The table of variables is written by `npm run schema` from platform/process/config.ts. -->';
const TABLE_END = '<!-- End of the table of variables. -->';

/** docs/deployment.md with its table of variables replaced by settingsTable(). */
export function withSettingsTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/deployment.md has lost the markers around its table of variables (${TABLE_START} … ${TABLE_END}).`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${markdown.slice(end)}`;
}
