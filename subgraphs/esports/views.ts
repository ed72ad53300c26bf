// Published esports data and an application's metered usage as read: the REST responses and OpenAPI
// take these schemas, and the GraphQL object types take their fields from them (platform/graphql/zod-graphql.ts
// viewFields). Instants are ISO strings here in GraphQL too, as the esports section always answered.
import { z } from 'zod';
import { graphql, idString } from '../../platform/graphql/zod-graphql.ts';
import { ESPORTS_MATCH_STATUSES, ESPORTS_STAGE_STATUSES, MATCH_STATISTICS_COUNTS, METRICS } from './vocabulary.ts';

const nullableString = z.string().nullable();

export const esportsEventView = z
  .object({
    id: idString, name: z.string(), updatedAt: z.string(), shortName: nullableString, region: nullableString, phase: nullableString,
    location: nullableString, imageUrl: nullableString, darkImageUrl: nullableString, currency: nullableString, startsAt: nullableString, endsAt: nullableString,
  })
  .strict()
  .meta({ id: 'EsportsEvent' });

export const esportsStageView = z
  .object({
    id: idString, eventId: idString, name: z.string(), status: z.enum(ESPORTS_STAGE_STATUSES).register(graphql, { name: 'EsportsStageStatus' }), format: z.string(), updatedAt: z.string(),
    translationKey: nullableString, startsAt: nullableString, endsAt: nullableString, position: z.number().int(),
  })
  .strict()
  .meta({ id: 'EsportsStage' });

export const esportsGroupView = z
  .object({
    id: idString, eventId: idString, stageId: idString, name: z.string(), updatedAt: z.string(),
    position: z.number().int(), standingCount: z.number().int(), roundCount: z.number().int(),
  })
  .strict()
  .meta({ id: 'EsportsGroup' });

export const esportsTeamView = z.object({ id: idString, name: z.string(), logoUrl: nullableString, score: z.number().nullable() }).strict();

export const esportsMatchView = z
  .object({
    id: idString, eventId: idString, eventName: z.string(), scheduledAt: z.string(), status: z.enum(ESPORTS_MATCH_STATUSES).register(graphql, { name: 'EsportsMatchStatus' }),
    updatedAt: z.string(), bestOf: z.number().int(), teamA: esportsTeamView, teamB: esportsTeamView, isFreeWin: z.boolean(), watchUrl: nullableString, youtubeUrl: nullableString,
  })
  .strict()
  .meta({ id: 'EsportsMatch' });

export const esportsMatchStatisticsView = z
  .object({
    id: idString,
    ...(Object.fromEntries(MATCH_STATISTICS_COUNTS.map((name) => [name, z.number().int()])) as Record<(typeof MATCH_STATISTICS_COUNTS)[number], z.ZodNumber>),
    kost: z.number(),
    eps: z.number(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'EsportsMatchStatistics' });

export const esportsMapStatisticsView = z
  .object({
    id: idString, name: z.string(), updatedAt: z.string(), matchesPlayed: z.number().int(), mapsPlayed: z.number().int(),
    roundsPlayed: z.number().int(), attackWins: z.number().int(), defenseWins: z.number().int(),
  })
  .strict()
  .meta({ id: 'EsportsMapStatistics' });

export const usageDayView = z
  .object({ day: z.string(), installationId: idString, units: z.number().int() })
  .strict()
  .describe('Units used through one installation on one UTC day.');

export const usageReportView = z
  .object({
    metric: z.enum(METRICS).register(graphql, { name: 'UsageMetric' }),
    from: z.string(),
    to: z.string(),
    total: z.number().int(),
    days: z.array(usageDayView),
  })
  .strict()
  .meta({ id: 'UsageReport' });
