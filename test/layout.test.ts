// Who may import whom (docs/architecture.md#who-uses-whom): the kernel (subgraphs/shared) uses no
// capability and no edge; a capability (subgraphs/competitions, developer, esports) uses the kernel
// and itself; the edge (facade) uses the kernel and, of a capability, only its contract modules and
// the entry points it serves or runs.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources, type Source } from './support/sources.ts';

const CAPABILITIES = ['competitions', 'developer', 'esports'];
/** Modules that state a capability's contract: request shapes, response shapes, enumerations, write contracts. */
const CONTRACT = /^(inputs|views|vocabulary|write-contracts)\.ts$/;
/** What the edge runs of a capability besides its contract, and why. */
const ENTRY_POINTS: Record<string, string> = {
  'subgraphs/developer/oauth/authorization.ts': 'the authorization page the edge serves validates its request with it',
  'subgraphs/developer/oauth/sessions.ts': 'the sign-in of that page',
  'subgraphs/developer/oauth/model.ts': 'the grant types the metadata document lists',
  'subgraphs/developer/webhooks/worker.ts': 'the webhook worker the edge starts (in process or as npm run worker)',
};

/** Every relative import of a source, as a repository path. */
function importsOf({ file, text }: Source): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'(\.[^']+)'/g)].map((match) => path.join(path.dirname(file), match[1]));
}

const layerOf = (file: string) =>
  file.startsWith('subgraphs/shared/') ? 'kernel' : file.startsWith('facade/') ? 'edge' : (CAPABILITIES.find((name) => file.startsWith(`subgraphs/${name}/`)) ?? 'other');

describe('the layout', () => {
  it('the kernel uses no capability and no edge; a capability uses the kernel and itself only; the edge uses a capability\'s contract and named entry points only', async () => {
    const wrong: string[] = [];
    for (const source of await sources(['facade', 'subgraphs'])) {
      const from = layerOf(source.file);
      for (const target of importsOf(source)) {
        const to = layerOf(target);
        if (to === 'other' || to === 'kernel' || to === from) continue;
        if (from === 'edge' && CAPABILITIES.includes(to) && (CONTRACT.test(path.basename(target)) || target in ENTRY_POINTS)) continue;
        wrong.push(`${source.file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds the imports it checks (a rule over nothing would always pass)', async () => {
    const all = (await sources(['facade'])).flatMap(importsOf);
    expect(all.filter((target) => target.startsWith('subgraphs/shared/')).length).toBeGreaterThan(50);
    expect(all).toContain('subgraphs/competitions/write-contracts.ts');
  });
});
