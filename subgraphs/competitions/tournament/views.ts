// A stage's settings and seeding as read (v2, v1 and GraphQL alike), derived from the settings an
// organiser sends (settingSchemas), so that each setting is declared once: the REST response schemas
// and OpenAPI take these, and the GraphQL types are generated from them (platform/graphql/zod-graphql.ts).
import { z } from 'zod';
import { graphql } from '../../../platform/graphql/zod-graphql.ts';
import { SETTING_FORMATS, settingSchemas, type SettingName } from './settings.ts';
import { STAGE_FORMATS } from './types.ts';

const id = z.string().register(graphql, { name: 'ID' });

/**
 * A resolved setting as read: the engine's schema of the setting (points with every field filled),
 * null where it does not apply to the format (or has no value), described by the formats it applies to.
 */
function resolvedSetting(name: SettingName, note?: string) {
  const schema = name === 'points' ? stagePoints : settingSchemas[name];
  if (name === 'seeding') return schema;
  const formats = SETTING_FORMATS[name].length === STAGE_FORMATS.length ? [] : [SETTING_FORMATS[name].join(', ')];
  const description = [...formats, ...(note ? [note] : [])].join('; ');
  return description ? schema.nullable().describe(description) : schema.nullable();
}

const stagePoints = settingSchemas.points.required().describe('Points per match result.').register(graphql, { name: 'StagePoints' });

export const resolvedSettingsSchema = z
  .object({
    seeding: resolvedSetting('seeding'),
    qualifiers: resolvedSetting('qualifiers'),
    thirdPlaceMatch: resolvedSetting('thirdPlaceMatch'),
    grandFinal: resolvedSetting('grandFinal'),
    legs: resolvedSetting('legs'),
    rounds: resolvedSetting('rounds', 'null until the stage starts when not set (then ⌈log2 N⌉)'),
    points: resolvedSetting('points'),
    tiebreakers: resolvedSetting('tiebreakers'),
    participantsPerMatch: resolvedSetting('participantsPerMatch', 'null: everyone in one match'),
    pointsByPlace: resolvedSetting('pointsByPlace'),
  })
  .strict()
  .describe('The settings with every default filled (docs/tournaments.md); a setting that does not apply to the format is null.')
  .register(graphql, { name: 'StageSettings' });

export const stageSeedingSchema = z
  .object({
    method: settingSchemas.seeding,
    randomSeed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      // Beyond GraphQL's 32-bit Int.
      .register(graphql, { name: 'Float' })
      .nullable()
      .describe('random: the recorded seed of the shuffle, an integer in [0, 2^32); the same seed over the same registration order gives the same seeding.'),
    participantIds: z.array(id).describe('Seed 1 first.'),
    groups: z
      .array(z.object({ groupId: id, participantIds: z.array(id).describe('Best seed first.') }).strict().register(graphql, { name: 'StageSeedingGroup' }))
      .nullable()
      .describe('Stages with groups: each group, best seed first.'),
  })
  .strict()
  .describe('The seeding of a stage: the manual order set before start, then the order frozen at start.')
  .register(graphql, { name: 'StageSeeding' });
