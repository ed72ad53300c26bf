// Every test file runs somewhere: vitest itself resolves each file to exactly one project of
// test/vitest.config.ts, every declared file exists, and every project is run by `npm test` or by
// .ci/run (which runs `npm test` and `npm run test:ci`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { CI, CI_ONCE, UNIT } from './vitest.config.ts';

const root = path.resolve(import.meta.dirname, '..');
const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
const projectsOf = (script: string) => [...script.matchAll(/--project[= ](\S+)/g)].map((m) => m[1]);

describe('test sets', () => {
  it('puts every test file in exactly one project, as vitest resolves them', async () => {
    const vitest = await createVitest('test', { config: path.join(root, 'test/vitest.config.ts'), watch: false }, {}, {});
    try {
      const specifications = await vitest.globTestSpecifications();
      const projectsByFile = new Map<string, string[]>();
      for (const spec of specifications) {
        const file = path.relative(root, spec.moduleId);
        projectsByFile.set(file, [...(projectsByFile.get(file) ?? []), spec.project.name]);
      }
      const inTwo = [...projectsByFile].filter(([, names]) => names.length !== 1);
      expect(inTwo).toEqual([]);
      // Every declared file is a test file vitest finds, in the project it is declared in.
      for (const [name, files] of [['unit', UNIT], ['ci', CI], ['ci-once', CI_ONCE]] as const) {
        for (const file of files) expect(projectsByFile.get(file), file).toEqual([name]);
      }
      const projects = new Set([...projectsByFile.values()].flat());
      expect([...projects].sort()).toEqual(['ci', 'ci-once', 'e2e', 'unit']);
    } finally {
      await vitest.close();
    }
  });

  it('runs every project: npm test the quick ones, .ci/run the rest through npm run test:ci', () => {
    expect(projectsOf(scripts.test).sort()).toEqual(['e2e', 'unit']);
    expect(projectsOf(scripts['test:ci']).sort()).toEqual(['ci', 'e2e']);
    expect(projectsOf(scripts['test:ci-once']).sort()).toEqual(['ci-once']);
    const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
    for (const script of ['npm test', 'npm run test:ci', 'npm run test:ci-once']) expect(ci).toContain(script);
  });
});
