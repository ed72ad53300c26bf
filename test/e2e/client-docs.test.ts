// Every TypeScript example of docs/client.md type-checks against the client's types and runs green,
// as written, against a fresh `npm start` (the documented host replaced by the server's), importing
// the package by its name as a user does. The server allows webhook endpoints on 127.0.0.1
// (WEBHOOKS_ALLOW_LOCAL=1) for the receiver example, which says so.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchEnvironment } from '../support/scratch-database.ts';
import { assertNoServerLeft, root, startServerProcess, type ServerProcess } from '../support/processes.ts';

const DOCUMENTED_BASE = 'http://localhost:4000';
const dir = path.join(root, 'node_modules/.cache/esports-platform/client-docs');

function examples(): { line: number; code: string }[] {
  const lines = readFileSync(path.join(root, 'docs/client.md'), 'utf8').split('\n');
  const found: { line: number; code: string }[] = [];
  let block: { line: number; body: string[] } | null = null;
  lines.forEach((text, index) => {
    if (!block && /^```ts\s*$/.test(text)) block = { line: index + 1, body: [] };
    else if (block && text.startsWith('```')) {
      found.push({ line: block.line, code: block.body.join('\n') });
      block = null;
    } else if (block) block.body.push(text);
  });
  return found;
}

function run(command: string, args: string[], timeout: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, timeout, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const blocks = examples();
let server: ServerProcess;
let cleanup = async () => undefined as void;
beforeAll(async () => {
  let env: Record<string, string>;
  ({ env, cleanup } = await scratchEnvironment('t_clientdocs'));
  server = await startServerProcess({
    args: ['start', '--silent'],
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_LOCAL: '1' },
    ready: /GraphQL\s+(http:\/\/\S+)\/graphql/,
  });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  blocks.forEach((block, index) => writeFileSync(path.join(dir, `example-${index + 1}.ts`), `${block.code.replaceAll(DOCUMENTED_BASE, server.base)}\nexport {};\n`));
  // Under node_modules a file is not in the root package's scope: say it is a module.
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(root, 'tsconfig.json'), include: ['*.ts'] }));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await cleanup();
  assertNoServerLeft();
});

describe('docs/client.md', () => {
  it('has an example for each part of the client', () => {
    const all = blocks.map((block) => block.code).join('\n');
    for (const use of ['api.get(', '.pages(', '.items(', 'ApiError', 'ifMatch', 'retry:', 'clientCredentials', 'api.graphql(', '.subscribe(', 'verifyWebhook(']) expect(all, use).toContain(use);
  });

  it('type-checks every example', async () => {
    const { code, output } = await run('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json'), '--noEmit'], 240_000);
    expect(code, output).toBe(0);
  }, 300_000);

  it.each(blocks.map((block, index) => [`docs/client.md:${block.line}`, index] as const))('%s runs green', async (name, index) => {
    const { code, output } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(dir, `example-${index + 1}.ts`)], 30_000);
    expect(code, `${name}\n${blocks[index].code}\n---\n${output}`).toBe(0);
  }, 40_000);
});
