// A stage's settings and seeding as stored, and as reads answer them: shared by the stage's start,
// its standings, the chain to the next stage and the reports that move it.
import type { ResolvedStageSettings, SeedingMethod, StageFormat, StageSettings } from '../tournament/index.ts';
import { resolvedSettings } from '../tournament/index.ts';

/** Participants who take part in a stage; withdrawn and disqualified ones do not. */
export const ELIGIBLE_STATUSES = ['registered', 'checked_in', 'confirmed'];

/** The stage's seeding as stored (Stage.seeding) and read. */
export interface StageSeeding {
  method: SeedingMethod;
  /** random: the recorded seed of the shuffle (an integer in [0, 2^32)). */
  randomSeed: number | null;
  /** Seed 1 first. */
  participantIds: string[];
  /** Group stages: each group's participants, best seed first. */
  groups: { groupId: string; participantIds: string[] }[] | null;
}

/** The settings stored on a stage (validated when written). */
export const storedSettings = (stage: { settings: unknown }): StageSettings => (stage.settings ?? {}) as StageSettings;

/** The group key of a standing: the group, or null for a stage without groups. */
export type GroupKey = string | null;

/** The field a swiss stage's default rounds suit: its smallest group, or the whole stage. */
export const fieldSize = (seeding: StageSeeding) => (seeding.groups?.length ? Math.min(...seeding.groups.map((group) => group.participantIds.length)) : seeding.participantIds.length);

/** What stage reads answer: the settings with every default filled (swiss rounds once the participants are known). */
export function stageSettingsView(stage: { format: string; status: string; settings: unknown; seeding: unknown }): ResolvedStageSettings {
  const seeding = stage.seeding as StageSeeding | null;
  // Once started, the seeding is the frozen one: its size fills swiss rounds left to the default.
  const count = seeding && stage.status !== 'pending' ? fieldSize(seeding) : undefined;
  return resolvedSettings(stage.format as StageFormat, storedSettings(stage), count);
}
