// npm run simulate -- <eventId>: plays an event's started stages live through the public API, so that
// overlays, webhooks and realtime subscribers can be tried without writing code. Each match goes
// live, then takes its maps one by one at the pace asked, then completes; now and then a result is
// corrected the way an organiser fixes a typo. When a stage completes, the stage seeded from it is
// started. With --setup, an event without stages (the demo world's evt_cup) is given a swiss stage
// of 5 rounds and a double-elimination playoff of its top 8 first. Only documented routes are used:
// nothing here knows more of the platform than an API user does.
//
// A run started (or started again) on an event with a live match goes on from the match's stored
// score and maps, so that no score goes back on air.
//
// It outlasts the server's outages and restarts: a 503 or 429 is sent again after its Retry-After, a
// request the network lost (refused, reset, timed out) after a backoff of at most 5 s.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run simulate -- <eventId> [--base URL] [--token TOKEN] [--key API_KEY] [--pace MS] [--corrections PERCENT] [--setup] [--seed N] [--quiet]

  --base         the API (default http://localhost:$PORT, as npm start listens: PORT, else 4000)
  --token        an access token with event.results:manage (default demo-token-app)
  --key          an organisation API key, to read the maps a match is played on (default demo-org-key-0001; "" for none)
  --pace         milliseconds between two writes of a match (default 1500)
  --corrections  percent of completed matches whose result is then corrected (default 10)
  --setup        an event without stages gets a swiss stage (5 rounds, 8 qualify) and a double-elimination playoff
  --seed         the random seed, to replay a run (default: the clock)
  --quiet        print nothing but a failure (not even what it waits for)

A 503 or 429 is retried after its Retry-After, a lost connection after at most 5 s, for up to
10 minutes each; a live match goes on from its stored score.`;

/** How long one request may go unanswered, and how long one request is retried before giving up. */
const REQUEST_TIMEOUT_MS = 30_000;
const GIVE_UP_MS = 10 * 60_000;
/** Backoff after a lost connection: 0.5 s, doubling, at most 5 s. */
const backoffSeconds = (failures: number) => Math.min(5, 0.5 * 2 ** failures);

interface Options {
  eventId: string;
  base: string;
  token: string;
  key: string;
  pace: number;
  corrections: number;
  setup: boolean;
  seed: number;
  quiet: boolean;
}

type Row = Record<string, any>;

interface Answer {
  status: number;
  body: Row | null;
  headers: Headers;
}

/** JSON, or null for an empty body or one that is not JSON (a proxy's error page). */
function parseBody(text: string): Row | null {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The first detail of an error body: REST (`error.details[].issue`) or GraphQL (`extensions.details`). */
function issueOf(body: Row | null): string | undefined {
  return body?.error?.details?.[0]?.issue ?? body?.errors?.[0]?.extensions?.details?.[0]?.issue ?? body?.errors?.[0]?.extensions?.code;
}

/** Retry-After in seconds (the server sends seconds; an HTTP date is honoured too), at most 60. */
function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(60, Math.max(1, Math.ceil(seconds))) : null;
}

/** What a request that got no answer met (ECONNREFUSED, ECONNRESET, socket closed, timeout), or null for any other error. */
function lostConnection(error: unknown): string | null {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  // fetch rejects with "fetch failed" when no answer came, "terminated" when the body broke off.
  if (!(error instanceof TypeError) || !['fetch failed', 'terminated'].includes(error.message)) return null;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code && cause.code !== 'UND_ERR_SOCKET' ? cause.code : (cause?.message ?? error.message);
}

/** The server's address as npm start on this machine listens: PORT (4000 unless set) on localhost. */
function defaultBase(env: NodeJS.ProcessEnv): string {
  const port = env.PORT?.trim() ?? '';
  if (port === '') return 'http://localhost:4000';
  const parsed = Number(port);
  if (!/^\d+$/.test(port) || parsed > 65_535) throw new Error(`PORT takes a whole number from 1 to 65535; it is "${port}". Fix it, or pass --base.`);
  if (parsed === 0) throw new Error('PORT is 0: the server listens on a port it picks; pass the address it printed as --base.');
  return `http://localhost:${parsed}`;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): Options {
  if (argv.includes('--help') || argv.includes('-h')) throw new Usage(USAGE);
  let parsed;
  try {
    parsed = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      base: { type: 'string' },
      token: { type: 'string', default: 'demo-token-app' },
      key: { type: 'string', default: 'demo-org-key-0001' },
      pace: { type: 'string', default: '1500' },
      corrections: { type: 'string', default: '10' },
      setup: { type: 'boolean', default: false },
      seed: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const number = (name: string, value: string, max: number) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > max) throw new Error(`--${name} takes a whole number from 0 to ${max}; it is "${value}".`);
    return parsed;
  };
  if (positionals.length !== 1) throw new Error(USAGE);
  const base = values.base ?? defaultBase(env);
  if (!/^https?:$/.test(URL.canParse(base) ? new URL(base).protocol : '')) throw new Error(`--base takes an http(s) URL; it is "${base}".`);
  return {
    eventId: positionals[0],
    base: base.replace(/\/$/, ''),
    token: values.token!,
    key: values.key!,
    pace: number('pace', values.pace!, 600_000),
    corrections: number('corrections', values.corrections!, 100),
    setup: values.setup!,
    seed: values.seed === undefined ? Date.now() % 2 ** 31 : number('seed', values.seed, 2 ** 31 - 1),
    quiet: values.quiet!,
  };
}

/** --help: the usage, and nothing wrong. */
class Usage extends Error {}

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Row | null,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body?.error ?? body)}`);
  }
}

export class Simulation {
  private state: number;
  private maps: string[] = [];
  private readonly corrected = new Set<string>();
  readonly played: string[] = [];
  /** Corrections sent: applied, or refused because what the old result fed has been played (409). */
  readonly corrections = { applied: 0, refused: 0 };

  constructor(private readonly options: Options) {
    this.state = options.seed || 1;
  }

  private random(): number {
    this.state = (this.state * 1103515245 + 12345) % 2 ** 31;
    return this.state / 2 ** 31;
  }

  private log(message: string): void {
    if (!this.options.quiet) console.log(`${new Date().toISOString().slice(11, 19)} ${message}`);
  }

  /**
   * One request, sent again until it is answered: after a 503 or 429 once its Retry-After has passed,
   * after a lost connection (refused, reset, closed, timed out) once a backoff has. What it waits for
   * is said once per reason, and when the server answers again.
   */
  private async request(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const started = Date.now();
    let failures = 0;
    let said = '';
    for (;;) {
      let reason: string;
      let seconds: number;
      try {
        const response = await fetch(`${this.options.base}${path}`, {
          method,
          headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        const body = parseBody(text);
        const issue = issueOf(body);
        if (response.status === 503 || response.status === 429) {
          reason = `the server answered ${response.status} (${issue?.replace(/_/g, ' ') ?? (response.status === 503 ? 'unavailable' : 'rate limited')})`;
          seconds = retryAfterSeconds(response.headers.get('retry-after')) ?? backoffSeconds(failures);
        } else if (response.status === 409 && issue === 'idempotency_key_in_use') {
          // The first attempt of this write is still running on the server: its result will be replayed.
          reason = 'the first attempt of this write is still running';
          seconds = 1;
        } else {
          if (said) this.log(`the server answers again after ${Math.round((Date.now() - started) / 1000)} s (${method} ${path.split('?')[0]})`);
          return { status: response.status, body, headers: response.headers };
        }
      } catch (error) {
        const lost = lostConnection(error);
        if (!lost) throw error;
        reason = `the server cannot be reached (${lost})`;
        seconds = backoffSeconds(failures);
      }
      failures++;
      if (Date.now() - started > GIVE_UP_MS) throw new Error(`${method} ${path}: ${reason} for ${Math.round((Date.now() - started) / 60_000)} minutes; giving up.`);
      if (reason !== said) this.log(`${reason}: retrying ${method} ${path.split('?')[0]} in ${seconds} s`);
      said = reason;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }

  private read(path: string) {
    return this.request('GET', path, { headers: { authorization: `Bearer ${this.options.token}` } });
  }

  /** Every row of a list, page by page. */
  private async all(path: string): Promise<Row[]> {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.read(`${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (page.status !== 200) throw new ApiFailure(page.status, page.body, `GET ${path}`);
      rows.push(...page.body!.data);
      cursor = page.body!.meta.nextCursor;
    } while (cursor);
    return rows;
  }

  /**
   * A write at the event's current revision (If-Match), sent again when the revision moved (412): by
   * another writer, or by this write's own first attempt whose answer was lost. Either way the write
   * is sent again as it was, at the revision read anew, which is safe: a creation or a start carries
   * one Idempotency-Key for all its attempts (the server replays its first result), and a match
   * report sets absolute scores, status and maps (a second one changes nothing).
   */
  private async write(method: string, path: string, body?: unknown): Promise<Row> {
    const key = `simulate-${randomUUID()}`;
    for (let attempt = 0; attempt < 20; attempt++) {
      const event = await this.read(`/api/v2/events/${this.options.eventId}`);
      if (event.status !== 200) throw new ApiFailure(event.status, event.body, `GET /api/v2/events/${this.options.eventId}`);
      const headers = { authorization: `Bearer ${this.options.token}`, 'if-match': event.headers.get('etag')!, 'idempotency-key': key };
      const answer = await this.request(method, path, { body, headers });
      if (answer.status === 412) continue;
      if (answer.status >= 300) throw new ApiFailure(answer.status, answer.body, `${method} ${path}`);
      return answer.body!.data;
    }
    throw new Error(`${method} ${path}: the event kept changing; try again.`);
  }

  private async stages(): Promise<Row[]> {
    const answer = await this.request('POST', '/graphql', {
      headers: { authorization: `Bearer ${this.options.token}` },
      body: { query: 'query SimulatedStages($id: ID!) { event(id: $id) { state stages { id name format status position bestOf settings { seeding } } } }', variables: { id: this.options.eventId } },
    });
    if (answer.status !== 200 || answer.body?.errors) throw new ApiFailure(answer.status, answer.body, 'POST /graphql (the event and its stages)');
    return [...answer.body!.data.event.stages].sort((a: Row, b: Row) => a.position - b.position);
  }

  private async loadMaps(): Promise<void> {
    if (!this.options.key) return;
    const answer = await this.request('GET', '/api/v1/maps?limit=100', { headers: { 'x-api-key': this.options.key } });
    if (answer.status === 200) this.maps = answer.body!.data.map((map: Row) => map.id);
    else this.log(`maps not read (${answer.status}): matches are played without maps`);
  }

  /** A swiss stage (5 rounds, 8 qualify) and a double-elimination playoff seeded from it, published and started. */
  private async setUp(): Promise<void> {
    const { eventId } = this.options;
    const swiss = await this.write('POST', `/api/v2/events/${eventId}/stages`, { name: 'Swiss', format: 'swiss', bestOf: 3, settings: { rounds: 5, qualifiers: 8 } });
    await this.write('POST', `/api/v2/events/${eventId}/stages`, { name: 'Playoffs', format: 'double_elimination', bestOf: 3, settings: { seeding: 'previous_stage', grandFinal: 'double' } });
    const event = await this.read(`/api/v2/events/${eventId}`);
    if (['draft'].includes(event.body?.data?.state)) await this.write('POST', `/api/v2/events/${eventId}/publish`);
    await this.write('POST', `/api/v2/events/${eventId}/stages/${swiss.resourceId}/start`);
    this.log('set up: a swiss stage (5 rounds, 8 qualify) and a double-elimination playoff; the swiss stage is started');
  }

  /** Plays until every stage is completed; answers the number of matches played. */
  async run(): Promise<number> {
    await this.loadMaps();
    for (;;) {
      let stages = await this.stages();
      if (stages.length === 0) {
        if (!this.options.setup) throw new Error(`${this.options.eventId} has no stages: create and start one, or run with --setup.`);
        await this.setUp();
        stages = await this.stages();
      }
      const running = stages.filter((stage) => stage.status === 'running');
      if (running.length === 0) {
        const next = stages.find((stage, i) => stage.status === 'pending' && stage.settings?.seeding === 'previous_stage' && stages[i - 1]?.status === 'completed');
        if (next) {
          await this.write('POST', `/api/v2/events/${this.options.eventId}/stages/${next.id}/start`);
          this.log(`${next.name}: started, seeded from the stage before`);
          continue;
        }
        if (stages.every((stage) => stage.status === 'completed')) {
          this.log(`${this.options.eventId}: every stage is completed (${this.played.length} matches played)`);
          return this.played.length;
        }
        throw new Error(`${this.options.eventId} has no running stage: start one (POST /api/v2/events/${this.options.eventId}/stages/{stageId}/start).`);
      }
      let progressed = false;
      for (const stage of running) {
        const matches = await this.all(`/api/v2/events/${this.options.eventId}/stages/${stage.id}/matches`);
        const playable = matches.filter((m) => (m.status === 'scheduled' || m.status === 'live') && m.opponentA?.participantId && m.opponentB?.participantId);
        if (playable.length === 0) continue;
        // A match left live (by a run that stopped, or by someone else) is finished first.
        const live = playable.filter((m) => m.status === 'live');
        const pool = live.length ? live : playable;
        await this.play(stage, pool[Math.floor(this.random() * pool.length)]);
        progressed = true;
        await this.maybeCorrect(stage, matches);
      }
      if (!progressed) await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.options.pace));
  }

  /**
   * Live, then map by map, then completed: the winner takes the majority of a best-of. A match that is
   * live already goes on from its stored score and maps, so that a restarted run never shows a
   * score going back.
   */
  private async play(stage: Row, match: Row): Promise<void> {
    const path = `/api/v2/events/${this.options.eventId}/matches/${match.id}`;
    const bestOf: number = match.bestOf ?? stage.bestOf ?? 1;
    const needed = Math.floor(bestOf / 2) + 1;
    const aWins = this.random() < 0.5;
    const names = `${match.opponentA.name ?? match.opponentA.participantId} vs ${match.opponentB.name ?? match.opponentB.participantId}`;
    let a: number = match.status === 'live' ? (match.opponentA.score ?? 0) : 0;
    let b: number = match.status === 'live' ? (match.opponentB.score ?? 0) : 0;
    const maps: Row[] = match.status === 'live' ? ((match.maps ?? []) as Row[]).map((m) => ({ mapId: m.mapId, scoreA: m.scoreA, scoreB: m.scoreB, winner: m.winner })) : [];
    // Maps go on being added only where there is one per map won so far (another writer may report scores alone).
    const withMaps = this.maps.length > 0 && maps.length === a + b;
    if (match.status !== 'live') await this.write('PATCH', path, { status: 'live' });
    this.log(`${stage.name}: ${names} is live${a || b || maps.length ? `, going on from ${a}–${b}` : ''}`);
    let done = false;
    while (a < needed && b < needed) {
      await this.pause();
      const aTakes = a === needed - 1 && b === needed - 1 ? aWins : this.random() < (aWins ? 0.65 : 0.35);
      if (aTakes) a++;
      else b++;
      if (withMaps) {
        const rounds = 13;
        const other = Math.floor(this.random() * 12);
        maps.push({ mapId: this.maps[(maps.length + Math.floor(this.random() * this.maps.length)) % this.maps.length], scoreA: aTakes ? rounds : other, scoreB: aTakes ? other : rounds, winner: aTakes ? 'a' : 'b' });
      }
      done = a === needed || b === needed;
      await this.write('PATCH', path, { scoreA: a, scoreB: b, ...(withMaps ? { maps } : {}), ...(done ? { status: 'completed' } : {}) });
      this.log(`${stage.name}: ${names} ${a}–${b}${done ? ' (final)' : ''}`);
    }
    // Found live with a deciding score already (a run that stopped just before completing it).
    if (!done) {
      await this.write('PATCH', path, { scoreA: a, scoreB: b, status: 'completed' });
      this.log(`${stage.name}: ${names} ${a}–${b} (final)`);
    }
    this.played.push(match.id);
  }

  /** Now and then, a completed match of the stage has its scores swapped, as an organiser fixes a typo. */
  private async maybeCorrect(stage: Row, matches: Row[]): Promise<void> {
    if (this.random() * 100 >= this.options.corrections) return;
    const candidates = matches.filter((m) => m.status === 'completed' && !this.corrected.has(m.id) && m.opponentA?.score != null && m.opponentB?.score != null);
    if (candidates.length === 0) return;
    const match = candidates[Math.floor(this.random() * candidates.length)];
    this.corrected.add(match.id);
    try {
      const maps = (match.maps as Row[]).map((m) => ({ mapId: m.mapId, scoreA: m.scoreB, scoreB: m.scoreA, winner: m.winner === 'a' ? 'b' : m.winner === 'b' ? 'a' : null }));
      await this.write('PATCH', `/api/v2/events/${this.options.eventId}/matches/${match.id}`, { scoreA: match.opponentB.score, scoreB: match.opponentA.score, maps });
      this.corrections.applied++;
      this.log(`${stage.name}: corrected ${match.id} to ${match.opponentB.score}–${match.opponentA.score}`);
    } catch (error) {
      // What the old result fed has been played: the platform refuses, as it should.
      if (error instanceof ApiFailure && error.status === 409) {
        this.corrections.refused++;
        this.log(`${stage.name}: correction of ${match.id} refused (${error.body?.error?.details?.[0]?.issue ?? error.body?.error?.code})`);
      } else throw error;
    }
  }
}

const invoked = process.argv[1]?.endsWith('simulate.ts');
if (invoked) {
  try {
    await new Simulation(parseOptions(process.argv.slice(2))).run();
  } catch (error) {
    if (error instanceof Usage) console.log(error.message);
    else {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    }
  }
}
