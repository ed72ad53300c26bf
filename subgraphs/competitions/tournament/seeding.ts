// Seeding: the order in which participants enter a stage (seed 1 first). A random seeding is a
// shuffle driven by a recorded integer, so the same draw can be replayed and audited.
import { randomInt } from 'node:crypto';
import { ApiError } from '../../../platform/api/errors.ts';
import type { SeedingMethod } from './settings.ts';

/** mulberry32: a tiny 32-bit PRNG; the same seed always yields the same sequence in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh seed for a random draw, for the caller to record before shuffling. */
export const drawRandomSeed = (): number => randomInt(0, 2 ** 32);

/** Fisher–Yates driven by mulberry32(seed): reproducible for a recorded seed. */
export function shuffleWithSeed<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  const random = mulberry32(seed);
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

/**
 * The order given by the organiser, checked to be exactly the stage's participants: a manual seeding
 * that forgets or invents someone is refused rather than patched.
 */
export function manualSeeding(participantIds: readonly string[], order: readonly string[], field = 'seeding'): string[] {
  const expected = new Set(participantIds);
  const seen = new Set<string>();
  for (const id of order) {
    if (!expected.has(id)) throw new ApiError('validation_failed', `The seeding names ${id}, which is not a participant of the stage.`, [{ field, issue: `unknown participant ${id}` }]);
    if (seen.has(id)) throw new ApiError('validation_failed', `The seeding names ${id} twice.`, [{ field, issue: `duplicate participant ${id}` }]);
    seen.add(id);
  }
  const missing = participantIds.filter((id) => !seen.has(id));
  if (missing.length) throw new ApiError('validation_failed', `The seeding leaves out ${missing.join(', ')}.`, [{ field, issue: `missing participants ${missing.join(', ')}` }]);
  return [...order];
}

export interface SeedingOptions {
  /** random: the recorded seed (drawRandomSeed()). */
  randomSeed?: number;
  /** manual: the organiser's order; previous_stage: the previous stage's qualifiers in final ranking order. */
  order?: readonly string[];
}

/**
 * The seeded participant ids (seed 1 first) from the participants in registration order.
 * previous_stage takes the order the caller computed from the previous stage's ranking, checked
 * like a manual one.
 */
export function seedParticipants(method: SeedingMethod, registrationOrder: readonly string[], options: SeedingOptions = {}): string[] {
  switch (method) {
    case 'registration':
      return [...registrationOrder];
    case 'random':
      if (options.randomSeed === undefined) throw new TypeError('A random seeding needs the recorded seed.');
      return shuffleWithSeed(registrationOrder, options.randomSeed);
    case 'manual':
    case 'previous_stage':
      if (!options.order) throw new TypeError(`A ${method} seeding needs the order.`);
      return manualSeeding(registrationOrder, options.order);
  }
}

/**
 * The standard bracket order of seed positions for a bracket of `size` (a power of two): each
 * round pairs the top remaining seed with the bottom one, recursively, so seeds 1 and 2 can only meet
 * in the final. [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11] for 16, the same as
 * brackets-manager's 'inner_outer'.
 */
export function standardBracketOrder(size: number): number[] {
  let positions = [1];
  while (positions.length < size) {
    const next = positions.length * 2 + 1;
    positions = positions.flatMap((seed) => [seed, next - seed]);
  }
  return positions;
}

/** The smallest power of two ≥ n (n ≥ 1). */
export const nextPowerOfTwo = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, n)));
