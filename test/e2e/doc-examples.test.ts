// Every curl example in README.md and docs/*.md runs green, as written, against a fresh `npm start`
// (a new embedded database with the demo world): each shell block that calls curl is run by bash with
// the documented host replaced by the test server's and curl failing on any status >= 400.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, root, startServerProcess, type ServerProcess } from '../support/processes.ts';

const DOCUMENTED_BASE = 'http://localhost:4000';

interface Example {
  file: string;
  line: number;
  script: string;
}

/** The fenced shell blocks of a Markdown file that call curl. */
function examplesOf(file: string): Example[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const examples: Example[] = [];
  let block: { line: number; body: string[] } | null = null;
  lines.forEach((text, index) => {
    if (!block && /^```(sh|bash|shell)\s*$/.test(text)) block = { line: index + 1, body: [] };
    else if (block && text.startsWith('```')) {
      const script = block.body.join('\n');
      if (/\bcurl\b/.test(script)) examples.push({ file, line: block.line, script });
      block = null;
    } else if (block) block.body.push(text);
  });
  return examples;
}

const files = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const examples = files.flatMap(examplesOf);

function run(script: string, base: string): Promise<{ code: number; output: string }> {
  // --fail-with-body: a documented example that answers an error fails, and shows the error body.
  const prelude = `set -euo pipefail\ncurl() { command curl --fail-with-body -sS "$@"; }\n`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', prelude + script.replaceAll(DOCUMENTED_BASE, base)], { cwd: root, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

let server: ServerProcess;
let cleanup = async () => undefined as void;
beforeAll(async () => {
  let env: Record<string, string>;
  ({ env, cleanup } = await scratchEnvironment('t_docs'));
  server = await startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await cleanup();
  assertNoServerLeft();
});

describe('documentation examples', () => {
  it('finds the examples: the README quick start and one per documented route', () => {
    const calls = (file: string) => examples.filter((example) => example.file === file).reduce((n, example) => n + (example.script.match(/\bcurl /g) ?? []).length, 0);
    expect(calls('README.md')).toBeGreaterThanOrEqual(2);
    expect(calls('docs/competitions.md')).toBeGreaterThanOrEqual(13);
    expect(calls('docs/esports.md')).toBeGreaterThanOrEqual(7);
  });

  it('every curl of an example is silent (-s): no progress meter in a captured variable or a reader\'s terminal', () => {
    const loud: string[] = [];
    for (const example of examples) {
      // Each curl command: from the word to the end of its command (a pipe, a ;, &&, a closing parenthesis or an unescaped line end).
      for (const match of example.script.replaceAll('\\\n', ' ').matchAll(/(?:^|[\s({;|&])curl\s([^|;&)\n]*)/g)) {
        if (!/(^|\s)(-[a-zA-Z]*s[a-zA-Z]*|--silent)(\s|$)/.test(match[1])) loud.push(`${example.file}:${example.line}: curl ${match[1].slice(0, 80)}`);
      }
    }
    expect(loud).toEqual([]);
  });

  it.each(examples.map((example) => [`${example.file}:${example.line}`, example] as const))('%s runs green', async (_name, example) => {
    const { code, output } = await run(example.script, server.base);
    expect(code, `${example.file}:${example.line}\n${example.script}\n---\n${output}`).toBe(0);
  });
});
