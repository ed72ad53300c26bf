// Who may import whom (docs/architecture.md#the-map). The folders say it, from the ground up:
// - platform/: the plumbing every part uses. Inside it, process/ and api/ use nothing else of it,
//   db/ uses those two, domain/ (the shared domain rules) those three, graphql/ all of them.
// - subgraphs/: a capability (competitions, developer, esports) uses the platform and itself, never
//   another capability; the workers use the platform and the capabilities' data access; the
//   subgraphs' entry (subgraphs/*.ts) assembles the capabilities, serves one, composes the supergraph
//   and loads the demo world.
// - facade/: the edge, which uses the platform, the entry, of a capability only its contract modules
//   and the entry points it serves, and of the workers only the one it starts.
// - the tools (prisma/, schema/, client/tools/): the commands that generate, migrate and seed; they
//   may use anything, and nothing above uses them. The client package (client/src) stands alone.
// No arrow runs back down this list, and no files import each other, directly or through others.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fromRoot } from '../platform/process/paths.ts';
import { sources, type Source } from './support/sources.ts';

const CAPABILITIES = ['competitions', 'developer', 'esports'];
/** The platform's folders, each with the folders of the platform it may use besides itself. */
const PLATFORM: Record<string, string[]> = {
  process: [],
  api: [],
  db: ['process', 'api'],
  domain: ['process', 'api', 'db'],
  graphql: ['process', 'api', 'db', 'domain'],
};
const TOOLS = ['prisma', 'schema', 'client/tools', 'client/simulate.ts'];
const CODE = ['platform', 'subgraphs', 'facade', 'prisma', 'schema', 'client'];

type Kind = 'platform' | 'capability' | 'workers' | 'entry' | 'edge' | 'tool' | 'client' | 'computed' | 'other';

/** Modules that state a capability's contract: request shapes, response shapes, enumerations, write contracts. */
const CONTRACT = /^(inputs|views|vocabulary|write-contracts)\.ts$/;
/** What the edge runs of a capability or of the workers besides contracts, and why. */
/** Files with a dynamic import of a computed path, which no rule can check, and why each needs one. */
const COMPUTED_IMPORTS: Record<string, string> = {
  'platform/db/schema-engine.ts': "a fresh copy of the schema engine's WebAssembly glue from node_modules for each engine",
};
const ENTRY_POINTS: Record<string, string> = {
  'subgraphs/developer/oauth/authorization.ts': 'the authorization page the edge serves validates its request with it',
  'subgraphs/developer/oauth/sessions.ts': 'the sign-in of that page',
  'subgraphs/developer/oauth/model.ts': 'the grant types the metadata document lists',
  'subgraphs/workers/webhook-worker.ts': 'the webhook worker the edge starts in its own process (npm run worker starts it alone)',
};

/**
 * Every relative import of a source as a repository path: static (`from`, type-only ones included),
 * for its side effects (`import './x.ts'`, how schema modules register their types) and dynamic, in
 * any quotes. A dynamic import of a computed path cannot be checked, so it is refused (`<computed>`).
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
  if (TOOLS.some((tool) => file === tool || file.startsWith(`${tool}/`))) return 'tool';
  if (file.startsWith('client/')) return 'client';
  if (file.startsWith('facade/')) return 'edge';
  if (file.startsWith('platform/')) return file.split('/')[1] in PLATFORM ? 'platform' : 'other';
  if (!file.startsWith('subgraphs/')) return 'other';
  const [, folder, rest] = file.split('/');
  if (rest === undefined) return 'entry';
  if (folder === 'workers') return 'workers';
  return CAPABILITIES.includes(folder) ? 'capability' : 'other';
}

const folderOf = (file: string) => file.split('/')[1];

/** Whether `from` may import `to`; both are repository paths. */
function allowed(from: string, to: string): boolean {
  const [a, b] = [kindOf(from), kindOf(to)];
  if (b === 'computed') return from in COMPUTED_IMPORTS;
  if (b === 'other') return false;
  if (a === 'tool') return true;
  if (a === 'client' || b === 'client') return a === b;
  if (b === 'tool') return false;
  if (b === 'platform') return a !== 'platform' || folderOf(from) === folderOf(to) || PLATFORM[folderOf(from)].includes(folderOf(to));
  switch (a) {
    case 'capability':
      return b === 'capability' && folderOf(to) === folderOf(from);
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

/** The groups of files that import each other, directly or through others (Tarjan's strongly connected components). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

async function folders(top: string): Promise<string[]> {
  return (await readdir(fromRoot(top), { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== 'generated').map((entry) => entry.name).sort();
}

describe('the layout', () => {
  it('has the platform, the subgraphs and the edge in folders named for them, and nothing else there', async () => {
    expect(await folders('platform')).toEqual(Object.keys(PLATFORM).sort());
    expect(await folders('subgraphs')).toEqual([...CAPABILITIES, 'workers'].sort());
    const all = await sources(CODE);
    expect(all.filter(({ file }) => kindOf(file) === 'other').map(({ file }) => file)).toEqual([]);
  });

  it('no arrow runs back down: the platform uses no part above it, a capability the platform and itself, the edge contracts and named entry points, nothing the tools', async () => {
    const wrong: string[] = [];
    for (const source of await sources(CODE)) {
      for (const target of importsOf(source)) if (!allowed(source.file, target)) wrong.push(`${source.file} → ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  it('has no circle of files: no two files import each other, directly or through others (type imports count)', async () => {
    const all = await sources(CODE);
    const graph = new Map(all.map((source) => [source.file, importsOf(source)]));
    expect(circles(graph)).toEqual([]);
  });

  it("has no circle of a capability's concept folders: one concept builds on another, never both ways", async () => {
    const conceptOf = (file: string) => (kindOf(file) === 'capability' && file.split('/').length > 3 ? file.split('/').slice(0, 3).join('/') : file);
    const graph = new Map<string, string[]>();
    for (const source of await sources(['subgraphs'])) {
      const from = conceptOf(source.file);
      const targets = importsOf(source).map(conceptOf).filter((target) => target !== from);
      graph.set(from, [...(graph.get(from) ?? []), ...targets]);
    }
    expect(circles(graph)).toEqual([]);
  });

  it("docs/architecture.md's map names every folder of the platform, the subgraphs and the edge, and no folder that is not there", async () => {
    const doc = await readFile(fromRoot('docs/architecture.md'), 'utf8');
    const map = doc.slice(doc.indexOf('## The map'), doc.indexOf('\n## ', doc.indexOf('## The map') + 1));
    const named = new Set([...map.matchAll(/`((?:platform|subgraphs|facade)\/[\w-]+(?:\/[\w-]+)?)\/`/g)].map((match) => match[1]));
    const actual: string[] = [];
    for (const top of ['platform', 'subgraphs', 'facade']) {
      for (const folder of await folders(top)) {
        actual.push(`${top}/${folder}`);
        if (top === 'subgraphs' && CAPABILITIES.includes(folder)) for (const inner of await folders(`${top}/${folder}`)) actual.push(`${top}/${folder}/${inner}`);
      }
    }
    expect([...named].sort()).toEqual(actual.sort());
  });

  it('refuses what it is there to refuse (a rule over nothing would always pass)', async () => {
    expect(allowed('platform/process/config.ts', 'subgraphs/competitions/views.ts')).toBe(false);
    expect(allowed('platform/db/database.ts', 'platform/domain/authority.ts')).toBe(false);
    expect(allowed('platform/api/errors.ts', 'platform/process/config.ts')).toBe(false);
    expect(allowed('platform/graphql/builder.ts', 'platform/domain/context.ts')).toBe(true);
    expect(allowed('platform/domain/context.ts', 'platform/graphql/builder.ts')).toBe(false);
    expect(allowed('platform/process/config.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('subgraphs/competitions/chat/messages.ts', 'subgraphs/developer/installations.ts')).toBe(false);
    expect(allowed('subgraphs/developer/webhooks/endpoints.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('facade/server.ts', 'subgraphs/competitions/chat/messages.ts')).toBe(false);
    expect(allowed('facade/server.ts', 'subgraphs/workers/webhook-fanout.ts')).toBe(false);
    expect(allowed('subgraphs/workers/webhook-fanout.ts', 'facade/server.ts')).toBe(false);
    expect(allowed('facade/main.ts', 'prisma/tools/migrate.ts')).toBe(false);
    expect(allowed('subgraphs/serve.ts', 'schema/print.ts')).toBe(false);
    expect(allowed('client/src/rest.ts', 'facade/routes/index.ts')).toBe(false);
    expect(allowed('schema/print.ts', 'facade/routes/index.ts')).toBe(true);
    const probe = (text: string) => importsOf({ file: 'platform/domain/probe.ts', text }).filter((target) => !allowed('platform/domain/probe.ts', target));
    expect(probe("import { chatMessages } from '../../subgraphs/competitions/chat/messages.ts';")).toEqual(['subgraphs/competitions/chat/messages.ts']);
    expect(probe('import { chatMessages } from "../../subgraphs/competitions/chat/messages.ts";')).toEqual(['subgraphs/competitions/chat/messages.ts']);
    expect(probe("import '../../subgraphs/competitions/chat/messages.ts';")).toEqual(['subgraphs/competitions/chat/messages.ts']);
    expect(probe('export const d = () => import(`../../subgraphs/competitions/chat/messages.ts`);')).toEqual(['subgraphs/competitions/chat/messages.ts']);
    expect(probe('export const e = () => import("../../subgraphs/workers/webhook-fanout.ts");')).toEqual(['subgraphs/workers/webhook-fanout.ts']);
    expect(probe('export const f = (name: string) => import(`../${name}/chat.ts`);')).toEqual(['<computed>']);
    expect(probe("import type { Db } from '../db/database.ts';\nimport { z } from 'zod';")).toEqual([]);
    expect(probe("import type { Builder } from '../graphql/builder.ts';")).toEqual(['platform/graphql/builder.ts']);
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
    const edge = (await sources(['facade'])).flatMap(importsOf);
    expect(edge.filter((target) => target.startsWith('platform/')).length).toBeGreaterThan(50);
    expect(edge).toContain('subgraphs/competitions/write-contracts.ts');
    expect(edge).toContain('subgraphs/workers/webhook-worker.ts');
    const workers = (await sources(['subgraphs'])).filter(({ file }) => kindOf(file) === 'workers').flatMap(importsOf);
    expect(workers).toContain('subgraphs/developer/webhooks/delivery-log.ts');
  });
});
