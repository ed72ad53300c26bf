// Publishing esports data: a provider's file (or GraphQL input) is validated record by record and
// upserted by key in one transaction, idempotently (an unchanged record is left alone), with a
// change-log row that says what changed. Published records are never deleted, so the references the
// file makes to them are checked before the transaction. The demo world's esports data comes through here too.
import { z } from 'zod';
import type { Db, WriteAccess } from '../../../platform/db/database.ts';
import { upsertChangedSql } from '../../../platform/db/upsert.ts';
import { failWith, guardFailure } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { ApiError, type ErrorDetail } from '../../../platform/api/errors.ts';
import { isoTimestamp, zodDetails } from '../../../platform/api/validation.ts';
import { assertStorable } from '../../../platform/api/input-safety.ts';
import { CHANGE_LOG_INSERT, NOTIFY_CHANGES } from '../../../platform/domain/change-log.ts';
import { ESPORTS_MATCH_STATUSES, ESPORTS_STAGE_STATUSES } from '../vocabulary.ts';
import type { ChangeType } from '../../../platform/domain/change-catalogue.ts';

const id = z.string().min(1).max(128);
const text = z.string().min(1).max(200);
const optionalText = z.string().max(500).nullish();
const url = z.url().max(2000).nullish();
const timestamp = isoTimestamp;
const count = z.number().int().min(0).max(10_000_000);


const team = z.object({ id, name: text, logoUrl: url, score: z.number().min(0).max(1000).nullish() }).strict();

export const esportsImport = z
  .object({
    events: z
      .array(
        z
          .object({
            id, name: text, shortName: optionalText, region: optionalText, phase: optionalText, location: optionalText,
            imageUrl: url, darkImageUrl: url, currency: z.string().length(3).nullish(), startsAt: timestamp.nullish(), endsAt: timestamp.nullish(),
          })
          .strict(),
      )
      .default([]),
    stages: z
      .array(
        z
          .object({
            id, eventId: id, name: text, status: z.enum(ESPORTS_STAGE_STATUSES), format: text, translationKey: optionalText,
            startsAt: timestamp.nullish(), endsAt: timestamp.nullish(), position: count,
          })
          .strict(),
      )
      .default([]),
    groups: z
      .array(z.object({ id, eventId: id, stageId: id, name: text, position: count, standingCount: count, roundCount: count }).strict())
      .default([]),
    matches: z
      .array(
        z
          .object({
            id, eventId: id, scheduledAt: timestamp, status: z.enum(ESPORTS_MATCH_STATUSES), bestOf: z.number().int().min(1).max(9),
            teamA: team, teamB: team, isFreeWin: z.boolean().default(false), watchUrl: url, youtubeUrl: url,
          })
          .strict(),
      )
      .default([]),
    matchStatistics: z
      .array(
        z
          .object({
            matchId: id,
            ...Object.fromEntries(
              ['matchesPlayed', 'mapsPlayed', 'roundsPlayed', 'kills', 'deaths', 'survivedRounds', 'openingKills', 'openingDeaths', 'headshots', 'plants', 'defuses', 'clutches', 'clutchOpportunities', 'impactRounds', 'doubleKills', 'tripleKills', 'quadKills', 'aces'].map((name) => [name, count]),
            ),
            kost: z.number().min(0).max(100),
            eps: z.number().min(0).max(1000),
          })
          .strict(),
      )
      .default([]),
    mapStatistics: z
      .array(z.object({ eventId: id, mapId: id, name: text, matchesPlayed: count, mapsPlayed: count, roundsPlayed: count, attackWins: count, defenseWins: count }).strict())
      .default([]),
  })
  .strict()
  .meta({ id: 'EsportsImport' });

export type EsportsImport = z.infer<typeof esportsImport>;

export interface ImportResult {
  importId: string;
  created: number;
  updated: number;
  unchanged: number;
}

const date = (value: string | null | undefined) => (value == null ? null : new Date(value));

/** Record by record, what the database rows look like (without timestamps it maintains itself). */
function rowsOf(data: EsportsImport) {
  return {
    esportsEvent: data.events.map((e) => ({ ...e, shortName: e.shortName ?? null, region: e.region ?? null, phase: e.phase ?? null, location: e.location ?? null, imageUrl: e.imageUrl ?? null, darkImageUrl: e.darkImageUrl ?? null, currency: e.currency ?? null, startsAt: date(e.startsAt), endsAt: date(e.endsAt) })),
    esportsStage: data.stages.map((s) => ({ ...s, translationKey: s.translationKey ?? null, startsAt: date(s.startsAt), endsAt: date(s.endsAt) })),
    esportsGroup: data.groups,
    esportsMatch: data.matches.map(({ teamA, teamB, ...m }) => ({
      ...m,
      scheduledAt: new Date(m.scheduledAt),
      teamAId: teamA.id, teamAName: teamA.name, teamALogo: teamA.logoUrl ?? null, teamAScore: teamA.score ?? null,
      teamBId: teamB.id, teamBName: teamB.name, teamBLogo: teamB.logoUrl ?? null, teamBScore: teamB.score ?? null,
      watchUrl: m.watchUrl ?? null, youtubeUrl: m.youtubeUrl ?? null,
    })),
    esportsMatchStatistics: data.matchStatistics,
    esportsMapStatistics: data.mapStatistics,
  };
}

/** Every reference must point at a record of the file or one already published. */
async function checkReferences(db: Db, data: EsportsImport) {
  const details: ErrorDetail[] = [];
  const known = async (model: 'esportsEvent' | 'esportsStage' | 'esportsMatch', ids: string[]) => {
    if (!ids.length) return new Set<string>();
    const rows = await (db[model] as unknown as { findMany(args: unknown): Promise<{ id: string; eventId?: string }[]> }).findMany({ where: { id: { in: ids } }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  };
  const events = new Set([...data.events.map((e) => e.id), ...(await known('esportsEvent', [...data.stages, ...data.groups, ...data.matches, ...data.mapStatistics].map((r) => r.eventId)))]);
  const stageEvent = new Map(data.stages.map((s) => [s.id, s.eventId]));
  const dbStages = data.groups.filter((g) => !stageEvent.has(g.stageId)).map((g) => g.stageId);
  if (dbStages.length) {
    for (const row of await db.esportsStage.findMany({ where: { id: { in: dbStages } }, select: { id: true, eventId: true } })) stageEvent.set(row.id, row.eventId);
  }
  const matches = new Set([...data.matches.map((m) => m.id), ...(await known('esportsMatch', data.matchStatistics.map((s) => s.matchId)))]);
  const check = (list: { eventId: string }[], name: string) =>
    list.forEach((row, index) => {
      if (!events.has(row.eventId)) details.push({ field: `${name}.${index}.eventId`, issue: `unknown esports event ${row.eventId}` });
    });
  check(data.stages, 'stages');
  check(data.groups, 'groups');
  check(data.matches, 'matches');
  check(data.mapStatistics, 'mapStatistics');
  data.groups.forEach((group, index) => {
    const eventOfStage = stageEvent.get(group.stageId);
    if (!eventOfStage) details.push({ field: `groups.${index}.stageId`, issue: `unknown esports stage ${group.stageId}` });
    else if (eventOfStage !== group.eventId) details.push({ field: `groups.${index}.stageId`, issue: 'the stage belongs to another event' });
  });
  data.matchStatistics.forEach((stats, index) => {
    if (!matches.has(stats.matchId)) details.push({ field: `matchStatistics.${index}.matchId`, issue: `unknown esports match ${stats.matchId}` });
  });
  const duplicates = <T,>(list: T[], name: string, key: (row: T) => string) => {
    const seen = new Set<string>();
    list.forEach((row, index) => {
      const k = key(row);
      if (seen.has(k)) details.push({ field: `${name}.${index}`, issue: `duplicate ${k}` });
      seen.add(k);
    });
  };
  duplicates(data.events, 'events', (r) => r.id);
  duplicates(data.stages, 'stages', (r) => r.id);
  duplicates(data.groups, 'groups', (r) => r.id);
  duplicates(data.matches, 'matches', (r) => r.id);
  duplicates(data.matchStatistics, 'matchStatistics', (r) => r.matchId);
  duplicates(data.mapStatistics, 'mapStatistics', (r) => `${r.eventId}/${r.mapId}`);
  if (details.length) throw new ApiError('validation_failed', `The esports data has ${details.length} invalid reference(s).`, details);
}

export function parseEsportsImport(input: unknown): EsportsImport {
  assertStorable(input, 'data', 'esports data');
  const result = esportsImport.safeParse(input);
  if (result.success) return result.data;
  const details = zodDetails(result.error.issues, 'data');
  throw new ApiError('validation_failed', `The esports data is not valid: ${details.slice(0, 5).map((d) => `${d.field}: ${d.issue}`).join('; ')}${details.length > 5 ? ` (and ${details.length - 5} more)` : ''}.`, details);
}

// What each list of the file becomes: a table, upserted by its key. Parents come before children,
// though one statement writes them all (its foreign keys are checked at its end).
const TABLES = {
  esportsEvent: { model: 'EsportsEvent', key: ['id'] },
  esportsStage: { model: 'EsportsStage', key: ['id'] },
  esportsGroup: { model: 'EsportsGroup', key: ['id'] },
  esportsMatch: { model: 'EsportsMatch', key: ['id'] },
  esportsMatchStatistics: { model: 'EsportsMatchStatistics', key: ['matchId'] },
  esportsMapStatistics: { model: 'EsportsMapStatistics', key: ['eventId', 'mapId'] },
} as const satisfies Record<keyof ReturnType<typeof rowsOf>, { model: string; key: readonly string[] }>;
const LISTS = Object.keys(TABLES) as (keyof typeof TABLES)[];

// One statement: every upsert ($1…$6, one JSON array per table), counted, and the change-log row
// ($7 its id, $8 the import's, $9 the source, $10 the records in the file, $11 per table).
const IMPORT_SQL = `
  WITH ${LISTS.map((list, i) => `${list} AS (${upsertChangedSql(TABLES[list].model, TABLES[list].key, `$${i + 1}`)})`).join(',\n  ')},
  moved AS (${LISTS.map((list) => `SELECT created FROM ${list}`).join(' UNION ALL ')}),
  counts AS (SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated FROM moved),
  logged AS (
    ${CHANGE_LOG_INSERT}
    SELECT $7, '${'esports.imported' satisfies ChangeType}', NULL, NULL, 'esports_import', $8, NULL,
           jsonb_build_object('source', $9::text, 'created', c.created, 'updated', c.updated, 'unchanged', $10::int - c.created - c.updated, 'counts', $11::jsonb), ${NOW}
    FROM counts c)
  SELECT created, updated FROM counts`;

// Imports queue here, so that the check below sees every import committed before this one.
const IMPORT_LOCK_SQL = `SELECT pg_advisory_xact_lock(7316531, 2)`;

/**
 * After the upserts: a group of the file ($1 its groups' ids), or a published group of a stage of the
 * file ($2), whose stage belongs to another event fails, with the group's index in the file (-1 for a
 * published one). checkReferences says so first with every field; this holds it against an import
 * that moved a stage meanwhile.
 */
const STAGE_EVENT_GUARD_SQL = `
  SELECT CASE WHEN bad.n IS NOT NULL THEN ${failWith('stage_event', 'bad.n')} END AS guard
  FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT coalesce(f.n - 1, -1) AS n
    FROM "EsportsGroup" g JOIN "EsportsStage" s ON s.id = g."stageId"
    LEFT JOIN unnest($1::text[]) WITH ORDINALITY AS f(id, n) ON f.id = g.id
    WHERE (g.id = ANY($1::text[]) OR s.id = ANY($2::text[])) AND g."eventId" <> s."eventId"
    ORDER BY f.n NULLS LAST LIMIT 1) bad ON true`;

/**
 * Validates and upserts every record in one transaction: a record already published and equal is
 * left alone; the import is one esports.imported change.
 */
export async function importEsportsData(database: WriteAccess, input: unknown, source: string): Promise<ImportResult> {
  const data = parseEsportsImport(input);
  await checkReferences(database.prisma, data);
  const importId = newId('esi');
  const rows = rowsOf(data);
  const total = LISTS.reduce((sum, list) => sum + rows[list].length, 0);
  const counts = Object.fromEntries(LISTS.map((list) => [list, rows[list].length]));
  try {
    const [, [moved]] = await database.transaction([
      { text: IMPORT_LOCK_SQL, values: [] },
      { text: IMPORT_SQL, values: [...LISTS.map((list) => JSON.stringify(rows[list])), `chg_${importId}`, importId, source, total, JSON.stringify(counts)] },
      { text: STAGE_EVENT_GUARD_SQL, values: [data.groups.map((group) => group.id), data.stages.map((stage) => stage.id)] },
      NOTIFY_CHANGES,
    ]);
    const created = Number(moved.created);
    const updated = Number(moved.updated);
    return { importId, created, updated, unchanged: total - created - updated };
  } catch (error) {
    const failed = guardFailure(error);
    if (failed?.check !== 'stage_event') throw error;
    const index = Number(failed.value);
    throw new ApiError('validation_failed', 'The esports data has 1 invalid reference(s).', [
      index >= 0
        ? { field: `groups.${index}.stageId`, issue: 'the stage belongs to another event' }
        : { field: 'stages', issue: 'a stage would move to another event than its published groups' },
    ]);
  }
}
