// Tournament benchmarks: starting a 1,024-participant double-elimination stage (about 2,050 matches,
// one transaction with batched inserts) through the API, as the compiled server runs it; and reading a
// stage of more than 512 matches page by page, each page timed, to show the cost per page stays flat
// (keyset pages: the last costs what the first does); and reporting results, each of which recomputes
// the stage's standings in its transaction.
import pg from 'pg';
import { startBenchServer } from './support.ts';

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

export async function tournamentBench(databaseUrl: string) {
  await eventWithTeams(databaseUrl, 'evt_bench_de', 1024);
  await eventWithTeams(databaseUrl, 'evt_bench_league', 33);
  const server = await startBenchServer('platform', databaseUrl);
  try {
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
  } finally {
    await server.stop();
  }
}
