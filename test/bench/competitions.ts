// Competition benchmarks: player statistics of a completed event (250 matches), computed and cached
// against the hand-written handler; the organisation event
// list's first and a deep page at 100 and at 100,000 events; stage creation through the platform
// against the hand-written Koa + pg transaction.
import pg from 'pg';
import { encodeCursor } from '../../platform/api/pagination.ts';
import { load, printTable, startBenchServer, type LoadResult } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);

/** An organisation with `count` events (one in three private, every other a draft), installed for app_demo. */
export async function insertOrganisationEvents(client: pg.Client, id: string, count: number) {
  await client.query(`INSERT INTO "Organisation" (id, name, slug) VALUES ($1, $1, $1)`, [id]);
  await client.query(`INSERT INTO "Installation" (id, "applicationId", "targetType", "targetId", status) VALUES ($1, 'app_demo', 'organisation', $2, 'active')`, [`ins_${id}`, id]);
  await client.query(
    `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, region, "createdAt", "updatedAt")
     SELECT $1 || '_' || lpad(n::text, 6, '0'), $1, 'Event ' || n, 'event-' || n, 'cup',
            CASE WHEN n % 3 = 0 THEN 'private' ELSE 'public' END, CASE WHEN n % 2 = 0 THEN 'draft' ELSE 'scheduled' END,
            'pc', 'EUR', 'eu', timestamp '2026-01-01' + n * interval '1 second', now()
     FROM generate_series(1, $2::int) AS n`,
    [id, count],
  );
}

/** The event list document the REST route runs, sent to /graphql (the benchmarks' GraphQL event list). */
const eventListQuery = (organisationId: string) =>
  JSON.stringify({
    query: 'query ListOrganisationEvents($organisationId: ID!) { organisationEvents(organisationId: $organisationId) { etag notModified data { id organisationId name slug type visibility state platform currency region bannerUrl description firstStageId completedAt revision } meta { nextCursor hasMore } } }',
    variables: { organisationId },
  });

async function prepare(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [id, count] of [['org_b100', 100], ['org_b100k', 100_000]] as const) await insertOrganisationEvents(client, id, count);
    // One event per writer, so that every write can succeed (If-Match serialises writers of one event).
    await client.query(
      `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, "updatedAt")
       SELECT 'evt_w_' || n, 'org_demo', 'Write ' || n, 'write-' || n, 'cup', 'public', 'draft', 'pc', 'EUR', now() FROM generate_series(0, 63) AS n`,
    );
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** The cursor of the item at `index` (0-based) of an organisation's unfiltered list. */
function cursorAt(organisationId: string, index: number): string {
  const createdAt = new Date(Date.parse('2026-01-01T00:00:00Z') + (index + 1) * 1000).toISOString();
  return encodeCursor(`events|${organisationId}||`, [createdAt, `${organisationId}_${String(index + 1).padStart(6, '0')}`]);
}

export interface WriteRun {
  name: string;
  writes: number;
  perSecond: number;
  failures: number;
}

/** Each worker owns one event (`<prefix><n>`) and creates stages on it, sending the revision it was last given. */
export async function writeLoad(name: string, base: string, workers: number, firstEvent: number, durationMs: number, prefix = 'evt_w_'): Promise<WriteRun> {
  const until = Date.now() + durationMs;
  let writes = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const eventId = `${prefix}${firstEvent + w}`;
      let revision = 1;
      let n = 0;
      while (Date.now() < until) {
        const response = await fetch(`${base}/api/v2/events/${eventId}/stages`, {
          method: 'POST',
          headers: { ...TOKEN, 'content-type': 'application/json', 'if-match': `"${revision}"`, 'idempotency-key': `${name.replace(/[^A-Za-z0-9]+/g, '-')}-${w}-${++n}` },
          body: JSON.stringify({ name: `Stage ${n}`, format: 'swiss', bestOf: 1 }),
        });
        const body = (await response.json()) as { data?: { revision: number } };
        if (response.status === 201 && body.data) {
          revision = body.data.revision;
          writes++;
        } else {
          failures++;
          if (failures === 1) console.error(`${name}: ${eventId} answered ${response.status}: ${JSON.stringify(body)}`);
          break;
        }
      }
    }),
  );
  return { name, writes, perSecond: writes / (durationMs / 1000), failures };
}

export async function competitionBench(databaseUrl: string) {
  await prepare(databaseUrl);
  const platform = await startBenchServer('platform', databaseUrl);
  const baseline = await startBenchServer('baseline', databaseUrl);
  try {
    // Player statistics of a completed event with 250 matches (2,500 player rows). Computed: every
    // request a new page size, so nothing is cached (one client, sequential); cached: the same page
    // under load (pages are kept per event revision).
    const statsUrl = `${platform.url}/api/v2/events/evt_done/statistics/players`;
    const computed: number[] = [];
    for (let limit = 1; limit <= 100; limit++) {
      const started = performance.now();
      const response = await fetch(`${statsUrl}?limit=${limit}`, { headers: TOKEN });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`statistics answered ${response.status}`);
      computed.push(performance.now() - started);
    }
    computed.sort((a, b) => a - b);
    console.log(`\nGET /api/v2/events/evt_done/statistics/players computed (100 page sizes, 1 client): p50 ${computed[49].toFixed(1)} ms, p99 ${computed[98].toFixed(1)} ms`);
    // The cached page side by side with the hand-written handler (same statements, same cache, same bytes).
    const statsPath = '/api/v2/events/evt_done/statistics/players';
    const [platformStats, baselineStats] = await Promise.all(
      [platform.url, baseline.url].map(async (base) => (await fetch(`${base}${statsPath}`, { headers: TOKEN })).text()),
    );
    if (platformStats !== baselineStats) throw new Error('the hand-written player statistics do not answer the same bytes');
    const statsTargets = { 'REST facade': `${platform.url}${statsPath}`, 'hand-written': `${baseline.url}${statsPath}` };
    for (const [name, url] of Object.entries(statsTargets)) await load({ name, url, headers: TOKEN, seconds: 1 });
    const statsRuns: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of Object.entries(statsTargets)) {
        const result = await load({ name, url, headers: TOKEN, seconds: seconds() });
        if (!statsRuns[name] || result.rps > statsRuns[name].rps) statsRuns[name] = result;
      }
    }
    const stats = statsRuns['REST facade'];
    printTable('GET /api/v2/events/evt_done/statistics/players (first page of 20, cached), 32 connections', Object.values(statsRuns), statsRuns['hand-written']);
    console.log(`player statistics cached page REST / hand-written = ${(stats.rps / statsRuns['hand-written'].rps).toFixed(2)}`);

    // Organisation event list: first and deep page, at 100 and at 100,000 events.
    const pages: Record<string, LoadResult> = {};
    for (const [organisationId, size] of [['org_b100', 100], ['org_b100k', 100_000]] as const) {
      const deep = cursorAt(organisationId, size - 21);
      const targets = {
        [`${size} events, first page`]: `${platform.url}/api/v2/organisations/${organisationId}/events`,
        [`${size} events, deep page`]: `${platform.url}/api/v2/organisations/${organisationId}/events?cursor=${deep}`,
      };
      for (const [name, url] of Object.entries(targets)) {
        await load({ name, url, headers: TOKEN, seconds: 1 });
        pages[name] = await load({ name, url, headers: TOKEN, seconds: Math.max(2, seconds() - 2) });
      }
    }
    const first100 = pages['100 events, first page'];
    printTable('GET /api/v2/organisations/{id}/events, 32 connections', Object.values(pages), first100);
    const ratio = (a: string, b: string) => (pages[a].rps / pages[b].rps).toFixed(2);
    console.log(`deep/first at 100 events = ${ratio('100 events, deep page', '100 events, first page')}; at 100,000 = ${ratio('100000 events, deep page', '100000 events, first page')}`);
    console.log(`100,000/100 events: first page = ${ratio('100000 events, first page', '100 events, first page')}, deep page = ${ratio('100000 events, deep page', '100 events, deep page')} (flat ≈ 1.00)`);

    // The event list page of 20 items, side by side: REST, the same operation on /graphql, and the
    // hand-written Koa + pg handler sending the same four statements and the same bytes.
    const listPath = '/api/v2/organisations/org_b100/events';
    const [platformBody, baselineBody] = await Promise.all(
      [platform.url, baseline.url].map(async (base) => (await fetch(`${base}${listPath}`, { headers: TOKEN })).text()),
    );
    if (platformBody !== baselineBody) throw new Error('the hand-written event list does not answer the same bytes');
    const listQuery = eventListQuery('org_b100');
    const listTargets = {
      'REST facade': { url: `${platform.url}${listPath}`, headers: TOKEN },
      '/graphql': { url: `${platform.url}/graphql`, method: 'POST' as const, headers: { ...TOKEN, 'content-type': 'application/json' }, body: listQuery },
      'hand-written': { url: `${baseline.url}${listPath}`, headers: TOKEN },
    };
    for (const [name, target] of Object.entries(listTargets)) await load({ name, ...target, seconds: 1 });
    const lists: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, target] of Object.entries(listTargets)) {
        const result = await load({ name, ...target, seconds: seconds() });
        if (!lists[name] || result.rps > lists[name].rps) lists[name] = result;
      }
    }
    printTable('GET /api/v2/organisations/org_b100/events (page of 20), 32 connections', Object.values(lists), lists['hand-written']);
    console.log(`event list REST / hand-written = ${(lists['REST facade'].rps / lists['hand-written'].rps).toFixed(2)} (target ≥ 0.5); /graphql / hand-written = ${(lists['/graphql'].rps / lists['hand-written'].rps).toFixed(2)}`);

    // Writes: stage creation, 32 writers each on its own event.
    const duration = seconds() * 1000;
    await writeLoad('warm-platform', platform.url, 8, 0, 1000);
    await writeLoad('warm-baseline', baseline.url, 8, 8, 1000);
    const facade = await writeLoad('platform', platform.url, 24, 16, duration);
    const hand = await writeLoad('baseline', baseline.url, 24, 40, duration);
    console.log('\nPOST /api/v2/events/{id}/stages (If-Match + Idempotency-Key), 24 writers on 24 events');
    console.log('| target | writes/s | vs baseline | failures |');
    console.log('|---|---|---|---|');
    for (const run of [facade, hand]) console.log(`| ${run.name} | ${run.perSecond.toFixed(0)} | ${(run.perSecond / hand.perSecond).toFixed(2)} | ${run.failures} |`);
    console.log(`stage creation platform / hand-written = ${(facade.perSecond / hand.perSecond).toFixed(2)} (target ≥ 0.5)`);
    const failures = stats.non2xx + Object.values(pages).reduce((t, r) => t + r.non2xx, 0) + facade.failures + hand.failures;
    if (failures) throw new Error(`${failures} requests failed during the benchmark`);
  } finally {
    await platform.stop();
    await baseline.stop();
  }
}
