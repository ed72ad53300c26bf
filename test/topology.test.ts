// The distributed topology's configuration: router.yaml names every subgraph and propagates the
// headers authority depends on; `npm run start:subgraph` serves a subgraph's SDL over HTTP.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoServerLeft, runScript, startServerProcess } from './support/processes.ts';
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
  afterAll(assertNoServerLeft);

  it('serves one subgraph alone, with its federation SDL, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'subgraph-'));
    // A subgraph serves a migrated database (it refuses to start on one without the migrations).
    const env = { DATABASE_URL: '', PGLITE_DATA_DIR: path.join(dir, 'pglite') };
    const seeded = await runScript('db:seed', [], env);
    expect(seeded.code, seeded.output).toBe(0);
    const running = await startServerProcess({
      args: ['run', '--silent', 'start:subgraph', '--', 'developer'],
      env: { ...env, PORT: '0', LOG_LEVEL: 'silent' },
      ready: /serves (http:\/\/\S+)/,
      timeoutMs: 60_000,
    });
    try {
      const response = await fetch(running.base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ _service { sdl } }' }) });
      const { data } = await response.json();
      expect(data._service.sdl).toContain('type AuthorityContext');
      expect(data._service.sdl.trim()).toBe((await readFile(subgraphPath('developer'), 'utf8')).trim());
      // The subgraph guards its own input too: text the database cannot store is refused.
      const refused = await fetch(running.base, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token-app' },
        body: JSON.stringify({ query: 'query($t: ID) { authContext(targetType: user, targetId: $t) { applicationId } }', variables: { t: 'usr\u0000' } }),
      });
      expect(refused.status).toBe(200);
      expect((await refused.json()).errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 't' }] });
    } finally {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
