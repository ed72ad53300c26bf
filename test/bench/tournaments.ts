// Tournament benchmarks: starting a 1,024-participant double-elimination stage (about 2,050 matches,
// one transaction with batched inserts) through the API, as the compiled server runs it; and reading a
// stage of more than 512 matches page by page, each page timed, to show the cost per page stays flat
// (keyset pages: the last costs what the first does); reporting results, each of which recomputes
// the stage's standings in its transaction, side by side with reports no stage engine follows; and
// the standings read side by side with a hand-written Koa + pg handler.
// BENCH_TOURNAMENT_PART=standings runs the side-by-side parts alone.
import pg from 'pg';
import { load, printTable, startBenchServer, type LoadResult } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app', 'content-type': 'application/json' };

/** A scheduled event of org_demo with `count` registered teams, registered in order, written straight to the database. */
async function eventWithTeams(databaseUrl: string, eventId: string, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, "updatedAt")
       VALUES ($1, 'org_demo', $1, $1, 'cup', 'public', 'scheduled', 'pc', 'EUR', now())`,
      [eventId],
    );
    await client.query(`INSERT INTO "Team" (id, name) SELECT $1 || '_t' || n, 'Team ' || n FROM generate_series(1, $2::int) AS n`, [eventId, count]);
    await client.query(
      `INSERT INTO "Participant" (id, "eventId", "teamId", status, "selectedGroupIds", "createdAt", "updatedAt")
       SELECT $1 || '_p' || n, $1, $1 || '_t' || n, 'registered', '{}', timestamp '2026-01-01' + n * interval '1 second', now()
       FROM generate_series(1, $2::int) AS n`,
      [eventId, count],
    );
  } finally {
    await client.end();
  }
}

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { method, headers: { ...TOKEN, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text ? JSON.parse(text) : null };
}

/** Creates a stage on the event and starts it: the start's wall time (ms) on localhost and its matches. */
async function startStage(base: string, eventId: string, format: string, settings: Record<string, unknown> = {}) {
  const created = await send(base, 'POST', `/api/v2/events/${eventId}/stages`, { name: 'Bench stage', format, bestOf: 1, settings }, { 'if-match': '"1"', 'idempotency-key': `bench-${eventId}-create` });
  if (created.status !== 201) throw new Error(`stage creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const stageId = created.body.data.resourceId as string;
  const started = performance.now();
  const answer = await send(base, 'POST', `/api/v2/events/${eventId}/stages/${stageId}/start`, undefined, { 'if-match': `"${created.body.data.revision}"`, 'idempotency-key': `bench-${eventId}-start` });
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`start answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { stageId, ms };
}

/** Reports the first `count` playable matches of the stage (slot a wins 1–0), each timed (ms). */
async function reportAll(base: string, eventId: string, stageId: string, count: number): Promise<number[]> {
  const times: number[] = [];
  let revision = Number(JSON.parse((await send(base, 'GET', `/api/v2/events/${eventId}`)).etag ?? '"0"'));
  while (times.length < count) {
    const page = await send(base, 'GET', `/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100`);
    let playable = (page.body.data as { id: string; status: string; opponentA: unknown; opponentB: unknown }[]).filter((m) => m.status === 'scheduled' && m.opponentA && m.opponentB);
    for (let cursor = page.body.meta.nextCursor; !playable.length && cursor; ) {
      const next = await send(base, 'GET', `/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100&cursor=${encodeURIComponent(cursor)}`);
      playable = (next.body.data as typeof playable).filter((m) => m.status === 'scheduled' && m.opponentA && m.opponentB);
      cursor = next.body.meta.nextCursor;
    }
    if (!playable.length) break;
    for (const match of playable.slice(0, count - times.length)) {
      const started = performance.now();
      const answer = await send(base, 'PATCH', `/api/v2/events/${eventId}/matches/${match.id}`, { status: 'completed', scoreA: 1, scoreB: 0 }, { 'if-match': `"${revision}"` });
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`report answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      revision = answer.body.data.revision;
    }
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Every match of a stage (paged through the API). */
async function stageMatches(base: string, eventId: string, stageId: string) {
  const matches: { id: string; status: string; opponentA: unknown; opponentB: unknown }[] = [];
  let cursor: string | null = null;
  do {
    const page = await send(base, 'GET', `/api/v2/events/${eventId}/stages/${stageId}/matches?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    matches.push(...page.body.data);
    cursor = page.body.meta.nextCursor;
  } while (cursor);
  return matches;
}

/** `count` scheduled matches between the event's participants in a stage nobody started: reports of them run no stage engine. */
async function plainMatches(databaseUrl: string, eventId: string, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position) VALUES ($1 || '_stage', $1, 'Hand-kept', 'round_robin', 1, 1)`, [eventId]);
    await client.query(
      `INSERT INTO "Match" (id, "eventId", "stageId", "participantAId", "participantBId", "bestOf", status, "createdAt", "updatedAt")
       SELECT $1 || '_m' || n, $1, $1 || '_stage', $1 || '_p' || (n % 64 + 1), $1 || '_p' || ((n + 1) % 64 + 1), 1, 'scheduled', now(), now()
       FROM generate_series(1, $2::int) AS n`,
      [eventId, count],
    );
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "Match" WHERE "eventId" = $1 ORDER BY id`, [eventId]);
    await client.query('ANALYZE');
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * Every result of a 64-participant round robin (2,016 matches, one group) reported in turn, each
 * beside a report of a match that no stage engine follows (same event size, same body): the cost of
 * propagation, standings and follow-ups, side by side in one run.
 */
async function reportsSideBySide(base: string, databaseUrl: string) {
  const rr = await startStage(base, 'evt_bench_rr', 'round_robin');
  const engine = (await stageMatches(base, 'evt_bench_rr', rr.stageId)).map((m) => m.id);
  const plain = await plainMatches(databaseUrl, 'evt_bench_plain', engine.length);
  const revisions = { evt_bench_rr: Number(JSON.parse((await send(base, 'GET', '/api/v2/events/evt_bench_rr')).etag!)), evt_bench_plain: Number(JSON.parse((await send(base, 'GET', '/api/v2/events/evt_bench_plain')).etag!)) };
  const report = async (eventId: keyof typeof revisions, matchId: string) => {
    const started = performance.now();
    const answer = await send(base, 'PATCH', `/api/v2/events/${eventId}/matches/${matchId}`, { status: 'completed', scoreA: 2, scoreB: 1 }, { 'if-match': `"${revisions[eventId]}"` });
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`report answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    revisions[eventId] = answer.body.data.revision;
    return ms;
  };
  const times = { engine: [] as number[], plain: [] as number[] };
  for (let i = 0; i < engine.length; i++) {
    // Alternating which goes first, so that neither always follows the other.
    if (i % 2) times.plain.push(await report('evt_bench_plain', plain[i]));
    times.engine.push(await report('evt_bench_rr', engine[i]));
    if (!(i % 2)) times.plain.push(await report('evt_bench_plain', plain[i]));
  }
  const med = (values: number[]) => percentile(values, 0.5);
  const lastEngine = times.engine.slice(-200);
  const lastPlain = times.plain.slice(-200);
  console.log(
    `\nReporting all 2,016 results of a 64-participant round robin (propagation, standings of 64 from up to 2,016 results, follow-ups), each beside a report of a match no stage engine follows:\n` +
      `  median ${med(times.engine).toFixed(1)} ms against ${med(times.plain).toFixed(1)} ms: ${(med(times.engine) / med(times.plain)).toFixed(2)}× (target ≤ 1.5×); ` +
      `last 200 (the most results to count): ${(med(lastEngine) / med(lastPlain)).toFixed(2)}×; p90 ${percentile(times.engine, 0.9).toFixed(1)} against ${percentile(times.plain, 0.9).toFixed(1)} ms`,
  );
  return rr.stageId;
}

/** The v1 standings page of the round robin through the facade and through the hand-written handler, side by side. */
async function standingsReadSideBySide(base: string, databaseUrl: string, stageId: string) {
  const baseline = await startBenchServer('baseline', databaseUrl);
  try {
    const KEY = { 'x-api-key': 'demo-org-key-0001' };
    const path = `/api/v1/events/evt_bench_rr/standings?stageId=${stageId}`;
    const [ours, theirs] = await Promise.all([base, baseline.url].map((url) => fetch(`${url}${path}`, { headers: KEY })));
    const [ourBody, theirBody] = await Promise.all([ours.text(), theirs.text()]);
    if (ourBody !== theirBody) throw new Error(`the hand-written standings do not answer the same bytes:\n${ourBody.slice(0, 400)}\n${theirBody.slice(0, 400)}`);
    if (ours.headers.get('etag') !== theirs.headers.get('etag')) throw new Error('the hand-written standings do not answer the same ETag');
    const targets = { 'v1 REST facade': `${base}${path}`, 'hand-written': `${baseline.url}${path}` };
    for (const [name, url] of Object.entries(targets)) await load({ name, url, headers: KEY, seconds: 1 });
    const runs: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of Object.entries(targets)) {
        const result = await load({ name, url, headers: KEY, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
        if (!runs[name] || result.rps > runs[name].rps) runs[name] = result;
      }
    }
    printTable('GET /api/v1/events/{eventId}/standings?stageId=… (page of 20 of 64), 32 connections', Object.values(runs), runs['hand-written']);
    console.log(`v1 standings REST / hand-written = ${(runs['v1 REST facade'].rps / runs['hand-written'].rps).toFixed(2)} (target ≥ 0.5)`);
    const failures = Object.values(runs).reduce((total, run) => total + run.non2xx, 0);
    if (failures) throw new Error(`${failures} requests failed during the benchmark`);
  } finally {
    await baseline.stop();
  }
}

export async function tournamentBench(databaseUrl: string) {
  await eventWithTeams(databaseUrl, 'evt_bench_de', 1024);
  await eventWithTeams(databaseUrl, 'evt_bench_league', 33);
  await eventWithTeams(databaseUrl, 'evt_bench_rr', 64);
  await eventWithTeams(databaseUrl, 'evt_bench_plain', 64);
  const server = await startBenchServer('platform', databaseUrl, {}, { profile: Boolean(process.env.BENCH_PROFILE) });
  try {
    if (process.env.BENCH_TOURNAMENT_PART !== 'standings') {
    const base = server.url;
    const cpu = server.cpuMs();
    const de = await startStage(base, 'evt_bench_de', 'double_elimination');
    const deCpu = server.cpuMs() - cpu;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Match" WHERE "stageId" = $1`, [de.stageId]);
    await client.end();
    console.log(`\nStarting a double-elimination stage of 1,024 participants (${rows[0].count} matches, one transaction): ${de.ms.toFixed(0)} ms wall, ${deCpu.toFixed(0)} ms of server CPU (target < 1 s on PostgreSQL)`);

    // A league of 33: 528 matches, read 100 at a time; each page read 20 times, the median kept.
    const league = await startStage(base, 'evt_bench_league', 'league');
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/v2/events/evt_bench_league/stages/${league.stageId}/matches?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const times: number[] = [];
      let next: string | null = null;
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const page = await send(base, 'GET', path);
        times.push(performance.now() - started);
        if (page.status !== 200) throw new Error(`page answered ${page.status}`);
        next = page.body.meta.nextCursor;
      }
      pages.push(median(times));
      cursor = next;
    } while (cursor);
    // The last page holds 28: the fifth is the deepest full one.
    console.log(`Reading a 528-match stage 100 at a time: median per page ${pages.map((ms) => ms.toFixed(1)).join(', ')} ms; fifth page / first page = ${(pages[4] / pages[0]).toFixed(2)} (flat: about 1)`);

    // Every result of the league reported in turn: each recomputes and stores the 33-row table from
    // every completed match in the report's transaction, so the last reports read the most.
    const reports = await reportAll(base, 'evt_bench_league', league.stageId, 528);
    const early = median(reports.slice(0, 50));
    const late = median(reports.slice(-50));
    console.log(`Reporting the league's 528 results one by one (standings recomputed in each): median ${early.toFixed(1)} ms for the first 50, ${late.toFixed(1)} ms for the last 50; last / first = ${(late / early).toFixed(2)}`);
    // And 64 first-round results of the 1,024-participant double elimination (2,046 matches in the stage).
    const deReports = await reportAll(base, 'evt_bench_de', de.stageId, 64);
    console.log(`Reporting 64 results in the 1,024-participant double elimination: median ${median(deReports).toFixed(1)} ms per report`);
    }
    const stageId = await reportsSideBySide(server.url, databaseUrl);
    await standingsReadSideBySide(server.url, databaseUrl, stageId);
  } finally {
    await server.stop();
  }
}
