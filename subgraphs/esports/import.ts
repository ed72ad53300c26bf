// Publishing esports data: a provider's file (or GraphQL input) is validated record by record and
// upserted by id in one transaction, idempotently (an unchanged record is left alone), with a
// change-log row that says what changed. The demo world's esports data comes through here too.
import { z } from 'zod';
import type { Db } from '../shared/db/database.ts';
import type { Prisma } from '../shared/db/generated/client.ts';
import { newId } from '../shared/crypto.ts';
import { ApiError, type ErrorDetail } from '../shared/errors.ts';
import { isoTimestamp, zodDetails } from '../shared/validation.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { assertStorable } from '../shared/input-safety.ts';
import { NOTIFY_CHANGES } from '../shared/change-feed.ts';
import type { ChangeType } from '../shared/change-catalogue.ts';

const id = z.string().min(1).max(128);
const text = z.string().min(1).max(200);
const optionalText = z.string().max(500).nullish();
const url = z.url().max(2000).nullish();
const timestamp = isoTimestamp;
const count = z.number().int().min(0).max(10_000_000);

export const ESPORTS_STAGE_STATUSES = ['upcoming', 'running', 'completed'] as const;
export const ESPORTS_MATCH_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;

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
async function checkReferences(db: Db | Prisma.TransactionClient, data: EsportsImport) {
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

type ModelName = keyof ReturnType<typeof rowsOf>;
const keyOf: Record<ModelName, (row: Record<string, unknown>) => Record<string, unknown>> = {
  esportsEvent: (r) => ({ id: r.id }),
  esportsStage: (r) => ({ id: r.id }),
  esportsGroup: (r) => ({ id: r.id }),
  esportsMatch: (r) => ({ id: r.id }),
  esportsMatchStatistics: (r) => ({ matchId: r.matchId }),
  esportsMapStatistics: (r) => ({ eventId_mapId: { eventId: r.eventId, mapId: r.mapId } }),
};

/** Validates and upserts; parents before children, in one transaction. */
export async function importEsportsData(db: Db, input: unknown, source: string): Promise<ImportResult> {
  const data = parseEsportsImport(input);
  const result: ImportResult = { importId: newId('esi'), created: 0, updated: 0, unchanged: 0 };
  await db.$transaction(
    async (tx) => {
      await checkReferences(tx, data);
      const rows = rowsOf(data);
      for (const model of Object.keys(rows) as ModelName[]) {
        const delegate = tx[model] as unknown as {
          findUnique(args: unknown): Promise<Record<string, unknown> | null>;
          create(args: unknown): Promise<unknown>;
          update(args: unknown): Promise<unknown>;
        };
        for (const row of rows[model] as Record<string, unknown>[]) {
          const where = keyOf[model](row);
          const existing = await delegate.findUnique({ where });
          if (!existing) {
            await delegate.create({ data: row });
            result.created++;
          } else if (Object.entries(row).some(([field, value]) => canonicalJson(value) !== canonicalJson(existing[field]))) {
            await delegate.update({ where, data: row });
            result.updated++;
          } else {
            result.unchanged++;
          }
        }
      }
      await tx.changeLog.create({
        data: {
          id: `chg_${result.importId}`,
          type: 'esports.imported' satisfies ChangeType,
          resourceType: 'esports_import',
          resourceId: result.importId,
          payload: { source, created: result.created, updated: result.updated, unchanged: result.unchanged, counts: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.length])) },
        },
      });
      await tx.$executeRawUnsafe(NOTIFY_CHANGES.text);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  return result;
}
