// Stage settings: what an organiser may set per format, validated strictly (a setting that does not
// apply to the format is refused rather than silently ignored, so a typo'd plan never runs), and the
// defaults that fill what was left out (docs/tournaments.md lists them).
import { SEEDING_METHODS, TIEBREAKERS } from '../../../platform/domain/competition-vocabulary.ts';
import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../../../platform/api/errors.ts';
import { graphql } from '../../../platform/graphql/zod-graphql.ts';
import type { StageFormat } from './types.ts';

export { SEEDING_METHODS };
export type SeedingMethod = (typeof SEEDING_METHODS)[number];
export const GRAND_FINAL_TYPES = ['simple', 'double', 'none'] as const;
export type GrandFinalType = (typeof GRAND_FINAL_TYPES)[number];
export { TIEBREAKERS };
export type Tiebreaker = (typeof TIEBREAKERS)[number];

export interface PointsTable {
  win: number;
  draw: number;
  loss: number;
}

// Defaults. `rounds` (swiss) has none here: it is ⌈log2 N⌉ for the N participants at start.
export const DEFAULT_SEEDING: SeedingMethod = 'registration';
export const DEFAULT_THIRD_PLACE_MATCH = false;
export const DEFAULT_GRAND_FINAL: GrandFinalType = 'simple';
export const DEFAULT_LEGS: 1 | 2 = 1;
export const DEFAULT_POINTS: Readonly<PointsTable> = Object.freeze({ win: 3, draw: 1, loss: 0 });
export const DEFAULT_TIEBREAKERS: Readonly<Record<'round_robin' | 'league' | 'swiss' | 'ffa', readonly Tiebreaker[]>> = Object.freeze({
  round_robin: ['points', 'head_to_head', 'score_difference', 'score_for', 'seed'],
  league: ['points', 'head_to_head', 'score_difference', 'score_for', 'seed'],
  swiss: ['points', 'buchholz', 'head_to_head', 'score_difference', 'seed'],
  ffa: ['points', 'wins', 'seed'],
});
/** null: every participant of the stage plays in one match. */
export const DEFAULT_PARTICIPANTS_PER_MATCH = null;
/** null: in a match of m opponents, place p earns m − p points (last place 0). */
export const DEFAULT_POINTS_BY_PLACE = null;
/** null: no qualifier count set; a later previous_stage seeding then takes the whole final ranking. */
export const DEFAULT_QUALIFIERS = null;
export const MAX_SWISS_ROUNDS = 64;
export const MAX_PARTICIPANTS_PER_MATCH = 256;

const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** Each setting as an organiser may send it (parseStageSettings); the read schemas derive from these. */
export const settingSchemas = {
  seeding: z.enum(SEEDING_METHODS).register(graphql, { name: 'SeedingMethod' }),
  thirdPlaceMatch: z.boolean(),
  grandFinal: z.enum(GRAND_FINAL_TYPES).register(graphql, { name: 'GrandFinalType' }),
  legs: z.literal([1, 2]),
  rounds: int(1, MAX_SWISS_ROUNDS),
  points: z.strictObject({ win: int(-1000, 1000), draw: int(-1000, 1000), loss: int(-1000, 1000) }).partial(),
  tiebreakers: z
    .array(z.enum(TIEBREAKERS).register(graphql, { name: 'Tiebreaker' }))
    .min(1)
    .max(TIEBREAKERS.length)
    .refine((list) => new Set(list).size === list.length, { message: 'each tiebreaker at most once' }),
  qualifiers: int(1, 1024),
  participantsPerMatch: int(2, MAX_PARTICIPANTS_PER_MATCH),
  pointsByPlace: z.array(int(0, 1_000_000)).min(1).max(MAX_PARTICIPANTS_PER_MATCH),
} as const;
export type SettingName = keyof typeof settingSchemas;

const everywhere: readonly StageFormat[] = ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'league', 'ffa'];
/** Which formats each setting applies to. */
export const SETTING_FORMATS: Readonly<Record<SettingName, readonly StageFormat[]>> = {
  seeding: everywhere,
  qualifiers: everywhere,
  thirdPlaceMatch: ['single_elimination'],
  grandFinal: ['double_elimination'],
  legs: ['round_robin', 'league'],
  rounds: ['swiss'],
  points: ['round_robin', 'league', 'swiss'],
  tiebreakers: ['round_robin', 'league', 'swiss', 'ffa'],
  participantsPerMatch: ['ffa'],
  pointsByPlace: ['ffa'],
};

/**
 * Settings as given (validated); anything left out takes its default. A type rather than an
 * interface, so that it is an object of string keys where a stage.created change carries it.
 */
export type StageSettings = {
  seeding?: SeedingMethod;
  thirdPlaceMatch?: boolean;
  grandFinal?: GrandFinalType;
  legs?: 1 | 2;
  rounds?: number;
  points?: Partial<PointsTable>;
  tiebreakers?: Tiebreaker[];
  qualifiers?: number;
  participantsPerMatch?: number;
  pointsByPlace?: number[];
};

/** Every setting that applies to the format, defaults filled; the others are absent. */
export interface ResolvedStageSettings {
  seeding: SeedingMethod;
  qualifiers: number | null;
  thirdPlaceMatch?: boolean;
  grandFinal?: GrandFinalType;
  legs?: 1 | 2;
  /** Swiss: null until the participant count is known (resolvedSettings' third argument). */
  rounds?: number | null;
  points?: PointsTable;
  tiebreakers?: Tiebreaker[];
  participantsPerMatch?: number | null;
  pointsByPlace?: number[] | null;
}

const isSettingName = (key: string): key is SettingName => Object.hasOwn(settingSchemas, key);

/** Validates a stage's settings for its format; throws validation_failed naming every bad field. */
export function parseStageSettings(format: StageFormat, input: unknown): StageSettings {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ApiError('validation_failed', 'The stage settings are not valid: settings must be an object.', [{ field: 'settings', issue: 'expected an object' }]);
  }
  const details: ErrorDetail[] = [];
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isSettingName(key)) {
      details.push({ field: `settings.${key}`, issue: 'unknown setting' });
    } else if (!SETTING_FORMATS[key].includes(format)) {
      details.push({ field: `settings.${key}`, issue: `not_applicable: ${key} does not apply to ${format} stages` });
    } else {
      const result = settingSchemas[key].safeParse(value);
      if (result.success) settings[key] = result.data;
      else for (const issue of result.error.issues) details.push({ field: ['settings', key, ...issue.path].join('.'), issue: issue.message });
    }
  }
  if (details.length) {
    const sentence = details.map((d) => `${d.field}: ${d.issue}`).join('; ');
    throw new ApiError('validation_failed', `The stage settings are not valid: ${sentence}.`, details);
  }
  return settings as StageSettings;
}

/** ⌈log2 N⌉ rounds, at least one: enough for one undefeated participant at most. */
export const defaultSwissRounds = (participantCount: number) => Math.max(1, Math.ceil(Math.log2(Math.max(2, participantCount))));

/** The settings with every default that applies to the format filled in. */
export function resolvedSettings(format: StageFormat, settings: StageSettings, participantCount?: number): ResolvedStageSettings {
  const resolved: ResolvedStageSettings = { seeding: settings.seeding ?? DEFAULT_SEEDING, qualifiers: settings.qualifiers ?? DEFAULT_QUALIFIERS };
  if (format === 'single_elimination') resolved.thirdPlaceMatch = settings.thirdPlaceMatch ?? DEFAULT_THIRD_PLACE_MATCH;
  if (format === 'double_elimination') resolved.grandFinal = settings.grandFinal ?? DEFAULT_GRAND_FINAL;
  if (format === 'round_robin' || format === 'league') resolved.legs = settings.legs ?? DEFAULT_LEGS;
  if (format === 'swiss') resolved.rounds = settings.rounds ?? (participantCount === undefined ? null : defaultSwissRounds(participantCount));
  if (format === 'round_robin' || format === 'league' || format === 'swiss') resolved.points = { ...DEFAULT_POINTS, ...settings.points };
  if (format === 'round_robin' || format === 'league' || format === 'swiss' || format === 'ffa') {
    resolved.tiebreakers = [...(settings.tiebreakers ?? DEFAULT_TIEBREAKERS[format])];
  }
  if (format === 'ffa') {
    resolved.participantsPerMatch = settings.participantsPerMatch ?? DEFAULT_PARTICIPANTS_PER_MATCH;
    resolved.pointsByPlace = settings.pointsByPlace ? [...settings.pointsByPlace] : DEFAULT_POINTS_BY_PLACE;
  }
  return resolved;
}
