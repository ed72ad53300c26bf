// The distributed topology's configuration: router.yaml names every subgraph and propagates the
// headers authority depends on; `npm run start:subgraph` serves a subgraph's SDL over HTTP.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { subgraphPath } from '../schema/compose.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('router.yaml', () => {
  it('routes to every subgraph and propagates authorization, x-request-id and svc-installation-id', async () => {
    const config = parse(await readFile(path.join(root, 'router.yaml'), 'utf8'));
    expect(Object.keys(config.override_subgraph_url).sort()).toEqual([...SUBGRAPH_NAMES].sort());
    const propagated = config.headers.all.request.map((rule: { propagate: { named: string } }) => rule.propagate.named);
    expect(propagated).toEqual(expect.arrayContaining(['authorization', 'x-request-id', 'svc-installation-id']));
  });
});

describe('npm run start:subgraph', () => {
  it('serves one subgraph alone, with its federation SDL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'subgraph-'));
    const child = spawn('npm', ['run', '--silent', 'start:subgraph', '--', 'developer'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(output)), 60_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /serves (http:\/\/\S+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
      });
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ _service { sdl } }' }) });
      const { data } = await response.json();
      expect(data._service.sdl).toContain('type AuthorityContext');
      expect(data._service.sdl.trim()).toBe((await readFile(subgraphPath('developer'), 'utf8')).trim());
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
