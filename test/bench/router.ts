// The distributed topology's GraphQL throughput, side by side in one run: the 20-item event list sent
// as a GraphQL document to the single process's /graphql, to Hive Gateway (`npm run router`) over the
// three subgraph services (`npm run start:subgraph`), and to the platform's own gateway over the same
// services (npm start with SUBGRAPH_URLS), beside the hand-written Koa + pg handler of the same page.
// Every process runs with the node flags of its npm script. BENCH_ONLY=router runs this part alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { SUBGRAPH_NAMES } from '../../subgraphs/index.ts';
import { insertOrganisationEvents } from './competitions.ts';
import { routeTable } from '../../facade/routes/index.ts';
import { sha256 } from '../../platform/api/crypto.ts';
import { load, printTable, root, startBenchServer, type LoadResult } from './support.ts';

const TOKEN = { authorization: 'Bearer demo-token-app' };
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);

/** The environment and node flags of an npm script that runs a bundle (package.json), and the bundle. */
function scriptCommand(script: string): { env: Record<string, string>; args: string[] } {
  const text = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts[script] as string;
  const match = /&& ((?:\w+=\S+ )*)(?:exec )?node ((?:--\S+ )*)(node_modules\/\.cache\/esports-platform\/\S+\.mjs)/.exec(text);
  if (!match) throw new Error(`Cannot read how npm run ${script} starts node: ${text}`);
  const env = Object.fromEntries(match[1].trim().split(' ').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
  return { env, args: [...match[2].trim().split(' ').filter(Boolean), match[3]] };
}

/** A process of an npm script's bundle, up once it prints its address. */
function startProcess(script: string, extraArgs: string[], env: Record<string, string>, ready: RegExp): Promise<{ url: string; child: ChildProcess }> {
  const command = scriptCommand(script);
  const child = spawn(process.execPath, [...command.args, ...extraArgs], { cwd: root, env: { ...process.env, ...command.env, LOG_LEVEL: 'silent', NODE_ENV: 'production', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) resolve({ url: found[1], child });
    });
    child.once('exit', (code) => reject(new Error(`npm run ${script} exited with ${code}: ${output}`)));
  });
}

const stop = (child: ChildProcess) => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGKILL'))));

export async function routerBench(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await insertOrganisationEvents(client, 'org_router', 100).finally(() => client.end());
  const secret = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const servers: { stop(): Promise<void> }[] = [];
  try {
    const subgraphUrls: string[] = [];
    for (const name of SUBGRAPH_NAMES) {
      const subgraph = await startProcess('start:subgraph', [name], { DATABASE_URL: databaseUrl, SUBGRAPH_SECRET: secret }, /serves (http:\/\/\S+)/);
      children.push(subgraph.child);
      subgraphUrls.push(`${name}=${subgraph.url}`);
    }
    const router = await startProcess('router', [], { SUBGRAPH_SECRET: secret, SUBGRAPH_URLS: subgraphUrls.join(',') }, /Router serves (http:\/\/\S+)/);
    children.push(router.child);
    const single = await startBenchServer('platform', databaseUrl);
    servers.push(single);
    const distributed = await startBenchServer('platform', databaseUrl, { SUBGRAPH_SECRET: secret, SUBGRAPH_URLS: subgraphUrls.join(',') });
    servers.push(distributed);
    const baseline = await startBenchServer('baseline', databaseUrl);
    servers.push(baseline);

    // The route's own document: by text to the platform, by its trusted-document hash to the router.
    const { source, name } = routeTable.find((row) => row.operationId === 'listOrganisationEvents')!.operation;
    const variables = { organisationId: 'org_router' };
    const post = (body: unknown) => ({ method: 'POST' as const, headers: { ...TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = post({ query: source, operationName: name, variables });
    const named = post({ operationName: name, variables, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(source) } } });
    const targets = {
      'single process /graphql': { url: `${single.url}/graphql`, ...text },
      'Hive Gateway over 3 subgraph services': { url: router.url, ...named },
      'platform gateway over 3 subgraph services': { url: `${distributed.url}/graphql`, ...text },
      'hand-written': { url: `${baseline.url}/api/v2/organisations/org_router/events`, headers: TOKEN },
    };
    // Each GraphQL path answers the same data (the platform's adds its cost in extensions).
    const answers = await Promise.all(
      Object.entries(targets)
        .filter(([name]) => name !== 'hand-written')
        .map(async ([, target]) => (await (await fetch(target.url, target)).json()) as { data?: unknown; errors?: unknown }),
    );
    for (const answer of answers) {
      if (answer.errors || JSON.stringify(answer.data) !== JSON.stringify(answers[0].data)) throw new Error(`the GraphQL paths answer differently: ${JSON.stringify(answer).slice(0, 400)}`);
    }
    for (const [name, target] of Object.entries(targets)) await load({ name, ...target, seconds: 1 });
    const runs: Record<string, LoadResult> = {};
    for (let round = 0; round < 2; round++) {
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ name, ...target, seconds: seconds() });
        if (!runs[name] || result.rps > runs[name].rps) runs[name] = result;
      }
    }
    printTable('The event list (page of 20) as a GraphQL document, by topology, 32 connections', Object.values(runs), runs['hand-written']);
    const single_ = runs['single process /graphql'].rps;
    console.log(
      `Hive Gateway / single process = ${(runs['Hive Gateway over 3 subgraph services'].rps / single_).toFixed(2)}; platform gateway over the services / single process = ${(runs['platform gateway over 3 subgraph services'].rps / single_).toFixed(2)}`,
    );
    const failures = Object.values(runs).reduce((total, run) => total + run.non2xx, 0);
    if (failures) throw new Error(`${failures} requests failed during the router benchmark`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(children.map(stop));
  }
}
