// v1 benchmarks: an event's match list, first and deep page, at 100 and at 100,000 matches; and the
// page of 20 matches through the facade against the hand-written Koa + pg handler doing the same reads.
import pg from 'pg';
import { encodeCursor } from '../../platform/api/pagination.ts';
import { load, printTable, startBenchServer, type LoadResult } from './support.ts';

const KEY = { 'x-api-key': 'demo-org-key-0001' };
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);
const SIZES = [
  ['evt_m100', 100],
  ['evt_m100k', 100_000],
] as const;
const TEAMS = ['team_alpha', 'team_bravo', 'team_charlie', 'team_delta'];

/** Two events of the demo organisation, with four participants and completed best-of-3 matches of two maps each. */
async function prepare(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [eventId, count] of SIZES) {
      await client.query(
        `INSERT INTO "Event" (id, "organisationId", name, slug, type, visibility, state, platform, currency, "updatedAt")
         VALUES ($1, 'org_demo', $1, $1, 'cup', 'public', 'live', 'pc', 'EUR', now())`,
        [eventId],
      );
      await client.query(`INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position) VALUES ($1, $2, 'Main', 'swiss', 3, 1)`, [`stg_${eventId}`, eventId]);
      await client.query(
        `INSERT INTO "Participant" (id, "eventId", "teamId", status, "selectedGroupIds", "updatedAt")
         SELECT $1 || '_' || t.n, $1, t.team, 'approved', '{}', now() FROM unnest($2::text[]) WITH ORDINALITY AS t(team, n)`,
        [eventId, TEAMS],
      );
      await client.query(
        `INSERT INTO "Match" (id, "eventId", "stageId", "participantAId", "participantBId", "scoreA", "scoreB", "bestOf", status,
                              "scheduledAt", "startedAt", "completedAt", "streamUrl", "createdAt", "updatedAt")
         SELECT $1 || '_' || lpad(n::text, 6, '0'), $1, $2, $1 || '_' || (n % 4 + 1), $1 || '_' || ((n + 1) % 4 + 1), 2, 1, 3, 'completed',
                ts, ts + interval '5 minutes', ts + interval '1 hour', 'https://twitch.example.test/' || $1, ts, ts
         FROM generate_series(1, $3::int) AS n, LATERAL (SELECT timestamp '2026-01-01' + n * interval '1 second' AS ts) t`,
        [eventId, `stg_${eventId}`, count],
      );
      await client.query(
        `INSERT INTO "MatchMap" ("matchId", position, "mapId", "scoreA", "scoreB", winner)
         SELECT m.id, p, CASE p WHEN 1 THEN 'map_mirage' ELSE 'map_inferno' END, 13, 9 + p, 'a'
         FROM "Match" m, generate_series(1, 2) AS p WHERE m."eventId" = $1`,
        [eventId],
      );
    }
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** The cursor after the match at `index` (0-based) of an event's unfiltered list. */
function cursorAt(eventId: string, index: number): string {
  const createdAt = new Date(Date.parse('2026-01-01T00:00:00Z') + (index + 1) * 1000).toISOString();
  return encodeCursor(`matches|${eventId}||||`, [createdAt, `${eventId}_${String(index + 1).padStart(6, '0')}`]);
}

export async function v1Bench(databaseUrl: string) {
  await prepare(databaseUrl);
  const platform = await startBenchServer('platform', databaseUrl);
  const baseline = await startBenchServer('baseline', databaseUrl);
  try {
    // First and deep page at 100 and at 100,000 matches.
    const pageTargets: Record<string, string> = {};
    for (const [eventId, size] of SIZES) {
      pageTargets[`${size} matches, first page`] = `${platform.url}/api/v1/events/${eventId}/matches`;
      pageTargets[`${size} matches, deep page`] = `${platform.url}/api/v1/events/${eventId}/matches?cursor=${cursorAt(eventId, size - 21)}`;
    }
    for (const [name, url] of Object.entries(pageTargets)) {
      const check = await fetch(url, { headers: KEY });
      const body = (await check.json()) as { data: unknown[] };
      if (check.status !== 200 || body.data.length !== 20) throw new Error(`${name}: ${check.status}, ${body.data?.length} matches`);
      await load({ name, url, headers: KEY, seconds: 1 });
    }
    // Best of two rounds each, so that no target pays for warming up alone.
    const pages: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of Object.entries(pageTargets)) {
        const result = await load({ name, url, headers: KEY, seconds: Math.max(2, seconds() - 2) });
        if (!pages[name] || result.rps > pages[name].rps) pages[name] = result;
      }
    }
    printTable('GET /api/v1/events/{eventId}/matches (page of 20), 32 connections', Object.values(pages), pages['100 matches, first page']);
    const ratio = (a: string, b: string) => (pages[a].rps / pages[b].rps).toFixed(2);
    console.log(
      `100,000/100 matches: first page = ${ratio('100000 matches, first page', '100 matches, first page')}, deep page = ${ratio('100000 matches, deep page', '100 matches, deep page')} (target ≥ 0.83, i.e. within 1.2×)`,
    );

    // The page of 20 side by side with the hand-written handler: same statements, same bytes, same ETag.
    const path = '/api/v1/events/evt_m100/matches';
    const [ours, theirs] = await Promise.all([platform.url, baseline.url].map((base) => fetch(`${base}${path}`, { headers: KEY })));
    const [ourBody, theirBody] = await Promise.all([ours.text(), theirs.text()]);
    if (ourBody !== theirBody) throw new Error('the hand-written match list does not answer the same bytes');
    if (ours.headers.get('etag') !== theirs.headers.get('etag')) throw new Error('the hand-written match list does not answer the same ETag');
    const targets = { 'v1 REST facade': `${platform.url}${path}`, 'hand-written': `${baseline.url}${path}` };
    for (const [name, url] of Object.entries(targets)) await load({ name, url, headers: KEY, seconds: 1 });
    const runs: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of Object.entries(targets)) {
        const result = await load({ name, url, headers: KEY, seconds: seconds() });
        if (!runs[name] || result.rps > runs[name].rps) runs[name] = result;
      }
    }
    printTable(`GET ${path} (page of 20), 32 connections`, Object.values(runs), runs['hand-written']);
    console.log(`v1 match list REST / hand-written = ${(runs['v1 REST facade'].rps / runs['hand-written'].rps).toFixed(2)} (target ≥ 0.5)`);
    const failures = [...Object.values(pages), ...Object.values(runs)].reduce((t, r) => t + r.non2xx, 0);
    if (failures) throw new Error(`${failures} requests failed during the benchmark`);
  } finally {
    await platform.stop();
    await baseline.stop();
  }
}
