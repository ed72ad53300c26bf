// Who may import whom (docs/architecture.md#who-uses-whom). The folders say it: the kernel
// (subgraphs/kernel) uses no other kind; a capability (subgraphs/competitions, developer, esports)
// uses the kernel and itself; the workers (subgraphs/workers) use the kernel and the capabilities'
// data access; the subgraphs' entry (subgraphs/*.ts) assembles the capabilities' schemas and serves
// one; the edge (facade) uses the kernel, the entry, of a capability only its contract modules and
// the entry points it serves, and of the workers only the one it starts.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../subgraphs/kernel/paths.ts';
import { sources, type Source } from './support/sources.ts';

const CAPABILITIES = ['competitions', 'developer', 'esports'];
type Kind = 'kernel' | 'capability' | 'workers' | 'entry' | 'edge' | 'computed' | 'other';

/** Modules that state a capability's contract: request shapes, response shapes, enumerations, write contracts. */
const CONTRACT = /^(inputs|views|vocabulary|write-contracts)\.ts$/;
/** What the edge runs of a capability or of the workers besides contracts, and why. */
const ENTRY_POINTS: Record<string, string> = {
  'subgraphs/developer/oauth/authorization.ts': 'the authorization page the edge serves validates its request with it',
  'subgraphs/developer/oauth/sessions.ts': 'the sign-in of that page',
  'subgraphs/developer/oauth/model.ts': 'the grant types the metadata document lists',
  'subgraphs/workers/webhook-worker.ts': 'the webhook worker the edge starts in its own process (npm run worker starts it alone)',
};

/**
 * Every relative import of a source as a repository path: static (`from`), for its side effects
 * (`import './x.ts'`, how schema modules register their types) and dynamic, in any quotes. A dynamic
 * import of a computed path cannot be checked, so it is refused (`<computed>`).
 */
function importsOf({ file, text }: Source): string[] {
  const statics = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])(\.[^'"]+)\1/g)];
  const sideEffects = [...text.matchAll(/(?:^|\n)\s*import\s*(['"])(\.[^'"]+)\1/g)];
  const dynamics = [...text.matchAll(/\bimport\(\s*(['"`])(\.[^'"`$]+)\1\s*\)/g)];
  const computed = [...text.matchAll(/\bimport\(\s*(?!['"`][^'"`$]+['"`]\s*\))/g)].map(() => '<computed>');
  return [...[...statics, ...sideEffects, ...dynamics].map((match) => path.join(path.dirname(file), match[2])), ...computed];
}

function kindOf(file: string): Kind {
  if (file === '<computed>') return 'computed';
  if (file.startsWith('facade/')) return 'edge';
  if (!file.startsWith('subgraphs/')) return 'other';
  const [, folder, rest] = file.split('/');
  if (rest === undefined) return 'entry';
  if (folder === 'kernel') return 'kernel';
  if (folder === 'workers') return 'workers';
  return CAPABILITIES.includes(folder) ? 'capability' : 'other';
}

const capabilityOf = (file: string) => file.split('/')[1];

/** Whether `from` may import `to`; both are repository paths of facade/ or subgraphs/ modules. */
function allowed(from: string, to: string): boolean {
  const [a, b] = [kindOf(from), kindOf(to)];
  if (b === 'computed') return false;
  // Outside facade/ and subgraphs/ (prisma/tools, the generated client) is no kind of this table.
  if (b === 'other' || b === 'kernel') return true;
  switch (a) {
    case 'kernel':
      return false;
    case 'capability':
      return b === 'capability' && capabilityOf(to) === capabilityOf(from);
    case 'workers':
      return b === 'workers' || b === 'capability';
    case 'entry':
      return b === 'entry' || b === 'capability';
    case 'edge':
      return b === 'edge' || b === 'entry' || to in ENTRY_POINTS || (b === 'capability' && CONTRACT.test(path.basename(to)));
    default:
      return false;
  }
}

describe('the layout', () => {
  it('has a folder for each kind of code under subgraphs/, and nothing else there', async () => {
    const folders = (await readdir(fromRoot('subgraphs'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.sort()).toEqual([...CAPABILITIES, 'kernel', 'workers'].sort());
    const all = await sources(['facade', 'subgraphs']);
    expect(all.filter(({ file }) => kindOf(file) === 'other').map(({ file }) => file)).toEqual([]);
  });

  it('the kernel uses no other kind; a capability the kernel and itself; the workers the capabilities; the edge contracts and named entry points', async () => {
    const wrong: string[] = [];
    for (const source of await sources(['facade', 'subgraphs'])) {
      for (const target of importsOf(source)) if (!allowed(source.file, target)) wrong.push(`${source.file} → ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses what it is there to refuse (a rule over nothing would always pass)', async () => {
    expect(allowed('subgraphs/kernel/config.ts', 'subgraphs/competitions/views.ts')).toBe(false);
    expect(allowed('subgraphs/kernel/config.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('subgraphs/competitions/chat.ts', 'subgraphs/developer/installations.ts')).toBe(false);
    expect(allowed('subgraphs/developer/webhooks/endpoints.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('facade/server.ts', 'subgraphs/competitions/chat.ts')).toBe(false);
    expect(allowed('facade/server.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('subgraphs/workers/webhook-fanout.ts', 'facade/server.ts')).toBe(false);
    const probe = (text: string) => importsOf({ file: 'subgraphs/kernel/probe.ts', text }).filter((target) => !allowed('subgraphs/kernel/probe.ts', target));
    expect(probe("import { chatMessages } from '../competitions/chat.ts';")).toEqual(['subgraphs/competitions/chat.ts']);
    expect(probe('import { chatMessages } from "../competitions/chat.ts";')).toEqual(['subgraphs/competitions/chat.ts']);
    expect(probe("import '../competitions/chat.ts';")).toEqual(['subgraphs/competitions/chat.ts']);
    expect(probe('export const d = () => import(`../competitions/chat.ts`);')).toEqual(['subgraphs/competitions/chat.ts']);
    expect(probe('export const e = () => import("../workers/webhook-fanout.ts");')).toEqual(['subgraphs/workers/webhook-fanout.ts']);
    expect(probe('export const f = (name: string) => import(`../${name}/chat.ts`);')).toEqual(['<computed>']);
    expect(probe("import type { Db } from './db/database.ts';\nimport { z } from 'zod';")).toEqual([]);
    const edge = (await sources(['facade'])).flatMap(importsOf);
    expect(edge.filter((target) => target.startsWith('subgraphs/kernel/')).length).toBeGreaterThan(50);
    expect(edge).toContain('subgraphs/competitions/write-contracts.ts');
    expect(edge).toContain('subgraphs/workers/webhook-worker.ts');
    const workers = (await sources(['subgraphs'])).filter(({ file }) => kindOf(file) === 'workers').flatMap(importsOf);
    expect(workers).toContain('subgraphs/developer/webhooks/delivery-log.ts');
  });
});
