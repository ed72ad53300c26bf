// The entry point: a stage's rounds and matches from its format, resolved settings and seeded
// participants. Pure: no clock, no randomness (a random seeding is drawn before, see seeding.ts),
// no storage; the caller stores the result and maps the local keys to ids.
import { ApiError } from '../../../platform/api/errors.ts';
import { doubleElimination } from './double-elimination.ts';
import { ffa } from './ffa.ts';
import { roundRobin } from './round-robin.ts';
import { defaultSwissRounds, type ResolvedStageSettings } from './settings.ts';
import { singleElimination } from './single-elimination.ts';
import { swissFirstRound, swissRoundMatches } from './swiss.ts';
import type { GeneratedStage, StageFormat } from './types.ts';

export interface StageGroupInput {
  key: string;
  /** The group's participants, its best seed first. */
  participants: string[];
}

export interface GenerateStageInput {
  format: StageFormat;
  settings: ResolvedStageSettings;
  /** The stage's participants, seed 1 first. */
  participants: string[];
  /** round_robin, swiss and ffa: the groups, each played separately; without them the stage is one group (groupKey null). Ignored by the other formats. */
  groups?: StageGroupInput[];
}

/** Not enough participants to start the stage: 409 conflict, details [{field, issue: 'too_few_participants'}]. */
export class TooFewParticipantsError extends ApiError {
  readonly minimum: number;
  readonly actual: number;
  constructor(minimum: number, actual: number, field = 'participants') {
    super('conflict', `The stage needs at least ${minimum} participants (it has ${actual}).`, [{ field, issue: 'too_few_participants' }]);
    this.minimum = minimum;
    this.actual = actual;
  }
}

export const MIN_PARTICIPANTS = 2;
/**
 * What one start may generate, in one transaction, inside a server's bounded heap: a bracket of
 * 1,024 is about 2,050 matches, and a round robin grows with the square of its size (a 1,024-team
 * league would be 523,776 matches a leg), so its matches are bounded as well.
 */
export const MAX_STAGE_PARTICIPANTS = 1_024;
export const MAX_STAGE_MATCHES = 4_096;

/** More than a stage may hold: 409 conflict, details [{field, issue}] naming the bound. */
function tooLarge(message: string, field: string, issue: string): ApiError {
  return new ApiError('conflict', message, [{ field, issue }]);
}

/** A round robin's matches (every pair `legs` times), counted before any is generated. */
const roundRobinMatches = (sizes: number[], legs: number) => sizes.reduce((sum, n) => sum + (n * (n - 1) * legs) / 2, 0);

function checkSize(input: GenerateStageInput): void {
  const { format, settings, participants } = input;
  if (participants.length > MAX_STAGE_PARTICIPANTS) {
    throw tooLarge(`A stage holds at most ${MAX_STAGE_PARTICIPANTS} participants (this one has ${participants.length}): split them over stages or groups.`, 'participants', 'too_many_participants');
  }
  if (format !== 'league' && format !== 'round_robin') return;
  const sizes = playsGroups(format) && input.groups ? input.groups.map((group) => group.participants.length) : [participants.length];
  const matches = roundRobinMatches(sizes, settings.legs ?? 1);
  if (matches > MAX_STAGE_MATCHES) {
    throw tooLarge(`A stage holds at most ${MAX_STAGE_MATCHES} matches; this ${format.replace('_', ' ')} would have ${matches}: use groups or fewer legs.`, 'participants', 'too_many_matches');
  }
}

function checkParticipants(ids: readonly string[], field: string): void {
  if (ids.length < MIN_PARTICIPANTS) throw new TooFewParticipantsError(MIN_PARTICIPANTS, ids.length, field);
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new ApiError('validation_failed', `${id} is seeded twice.`, [{ field, issue: `duplicate participant ${id}` }]);
    seen.add(id);
  }
}

/** Formats whose groups are played separately: each group is a small stage of its own. */
export const GROUPED_FORMATS = ['round_robin', 'swiss', 'ffa'] as const satisfies readonly StageFormat[];
export const playsGroups = (format: StageFormat) => (GROUPED_FORMATS as readonly StageFormat[]).includes(format);

/** One group's (or the whole stage's) rounds and matches; sources name seeds within `participants`. */
function generateGroup(format: StageFormat, settings: ResolvedStageSettings, participants: readonly string[], groupKey: string | null): GeneratedStage {
  switch (format) {
    case 'single_elimination':
      return singleElimination(participants, { thirdPlaceMatch: settings.thirdPlaceMatch ?? false });
    case 'double_elimination':
      return doubleElimination(participants, { grandFinal: settings.grandFinal ?? 'simple' });
    case 'league':
    case 'round_robin':
      return roundRobin(participants, { legs: settings.legs ?? 1, groupKey });
    case 'swiss': {
      const rounds = settings.rounds ?? defaultSwissRounds(participants.length);
      // Without rematches, N − 1 rounds at most (N for an odd N, each sitting out once).
      const maximum = participants.length - 1 + (participants.length % 2);
      if (rounds > maximum) {
        const where = groupKey === null ? '' : ` (in the smallest group)`;
        throw new ApiError('validation_failed', `${participants.length} participants${where} can play at most ${maximum} swiss rounds without rematches.`, [
          { field: 'settings.rounds', issue: `at most ${maximum} for ${participants.length} participants` },
        ]);
      }
      const seedIndex = new Map(participants.map((id, index) => [id, index + 1]));
      const { round, matches } = swissRoundMatches(1, swissFirstRound(participants), (id) => seedIndex.get(id)!, groupKey);
      return { rounds: [round], matches };
    }
    case 'ffa':
      return ffa(participants, settings.participantsPerMatch ?? null, groupKey);
  }
}

/** Every participant of the stage plays in exactly one of its groups, and each group can be played. */
function checkGroups(groups: readonly StageGroupInput[], seedOf: ReadonlyMap<string, number>): void {
  const groupOf = new Map<string, number>();
  groups.forEach((group, index) =>
    group.participants.forEach((id) => {
      if (groupOf.has(id)) throw new ApiError('validation_failed', `${id} is in two groups.`, [{ field: `groups.${index}.participants`, issue: `participant ${id} already in group ${groupOf.get(id)}` }]);
      groupOf.set(id, index);
    }),
  );
  const ungrouped = [...seedOf.keys()].filter((id) => !groupOf.has(id));
  if (ungrouped.length) throw new ApiError('validation_failed', `Every participant plays in a group; ${ungrouped.join(', ')} in none.`, [{ field: 'groups', issue: `participants in no group: ${ungrouped.join(', ')}` }]);
  groups.forEach((group, index) => {
    checkParticipants(group.participants, `groups.${index}.participants`);
    const unknown = group.participants.find((id) => !seedOf.has(id));
    if (unknown !== undefined) throw new ApiError('validation_failed', `${unknown} is in a group but not seeded in the stage.`, [{ field: `groups.${index}.participants`, issue: `unknown participant ${unknown}` }]);
  });
}

export function generateStage(input: GenerateStageInput): GeneratedStage {
  const { format, settings, participants } = input;
  checkParticipants(participants, 'participants');
  checkSize(input);
  if (!input.groups || !playsGroups(format)) return generateGroup(format, settings, participants, null);
  const seedOf = new Map(participants.map((id, index) => [id, index + 1]));
  checkGroups(input.groups, seedOf);
  const stage: GeneratedStage = { rounds: [], matches: [] };
  for (const group of input.groups) {
    const generated = generateGroup(format, settings, group.participants, group.key);
    // Sources name the participant's seed in the stage, not its place in the group.
    for (const match of generated.matches) {
      if (match.kind !== 'duel') continue;
      if (match.sourceA?.type === 'seed') match.sourceA = { type: 'seed', seed: seedOf.get(match.participantA!)! };
      if (match.sourceB?.type === 'seed') match.sourceB = { type: 'seed', seed: seedOf.get(match.participantB!)! };
    }
    stage.rounds.push(...generated.rounds);
    stage.matches.push(...generated.matches);
  }
  return stage;
}
