// Veto configurations normalised to the size of the map pool (documented in docs/competitions.md).
// A best-of-B veto over a pool of N maps consumes every map: for odd B, B−1 picks, N−B bans and a
// decider; for even B, B picks and N−B bans. The picks are the caller's and must number exactly
// what B needs; the bans are fitted: surplus bans are dropped from the end, missing bans are added
// alternating teams (after the team of the last step); a decider is placed last for odd B only.
import { validationFailed } from '../../../platform/api/errors.ts';

export interface VetoStep {
  action: 'ban' | 'pick' | 'decider';
  team: 'a' | 'b' | null;
}

export function normaliseVeto(steps: { action: string; team?: string | null }[], poolSize: number, bestOf: number, path: string): VetoStep[] {
  if (bestOf > poolSize) {
    throw validationFailed(`A best-of-${bestOf} needs at least ${bestOf} maps in the pool (it has ${poolSize}).`, [{ field: `${path}.bestOf`, issue: 'larger than the map pool' }]);
  }
  const wantedPicks = bestOf % 2 === 1 ? bestOf - 1 : bestOf;
  const wantedBans = poolSize - bestOf;
  const kept: VetoStep[] = [];
  steps.forEach((step, index) => {
    if (step.action === 'decider') return;
    if (step.team !== 'a' && step.team !== 'b') {
      throw validationFailed('Every ban and pick names the team that makes it (a or b).', [{ field: `${path}.steps.${index}.team`, issue: 'a or b required' }]);
    }
    kept.push({ action: step.action as 'ban' | 'pick', team: step.team });
  });
  const picks = kept.filter((step) => step.action === 'pick').length;
  if (picks !== wantedPicks) {
    throw validationFailed(`A best-of-${bestOf} veto has exactly ${wantedPicks} picks (it has ${picks}).`, [{ field: `${path}.steps`, issue: `needs ${wantedPicks} picks` }]);
  }
  let bans = kept.filter((step) => step.action === 'ban').length;
  for (let index = kept.length - 1; bans > wantedBans && index >= 0; index--) {
    if (kept[index].action === 'ban') {
      kept.splice(index, 1);
      bans--;
    }
  }
  let team: 'a' | 'b' = kept.length && kept[kept.length - 1].team === 'a' ? 'b' : 'a';
  for (; bans < wantedBans; bans++) {
    kept.push({ action: 'ban', team });
    team = team === 'a' ? 'b' : 'a';
  }
  if (bestOf % 2 === 1) kept.push({ action: 'decider', team: null });
  return kept;
}
