// router.yaml is the one configuration of a federation router in front of the subgraph services:
// Apollo Router reads it as it is, and `npm run router` (Hive Gateway, hive-router.ts) takes from it
// what it applies the same way: the subgraph addresses, the headers it propagates and inserts, the
// request size and the timeouts. (Its operation limits and demand control are /graphql's, which
// test/topology.test.ts holds router.yaml to.) A file it cannot read stops the start with one sentence.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { SUBGRAPH_NAMES, type SubgraphName } from '../../subgraphs/index.ts';
import { StartupError } from '../../platform/process/startup.ts';
import { fromRoot } from '../../platform/process/paths.ts';

export const routerYamlPath = fromRoot('router.yaml');

const duration = z
  .string()
  .regex(/^\d+(ms|s)$/, 'a duration such as 10s or 500ms')
  .transform((text) => (text.endsWith('ms') ? Number(text.slice(0, -2)) : Number(text.slice(0, -1)) * 1000));

const headerRule = z.union([z.object({ propagate: z.object({ named: z.string().min(1) }).strict() }).strict(), z.object({ insert: z.object({ name: z.string().min(1), value: z.string() }).strict() }).strict()]);

const routerYaml = z.object({
  supergraph: z.object({ path: z.string().startsWith('/') }).passthrough(),
  override_subgraph_url: z.partialRecord(z.enum(SUBGRAPH_NAMES as unknown as [SubgraphName, ...SubgraphName[]]), z.string().url()),
  headers: z.object({ all: z.object({ request: z.array(headerRule) }) }),
  limits: z.object({ http_max_request_bytes: z.number().int().positive() }).passthrough(),
  traffic_shaping: z.object({ all: z.object({ timeout: duration }), router: z.object({ timeout: duration }) }),
});

export interface RouterConfig {
  /** Where the router answers GraphQL (supergraph.path). */
  graphqlPath: string;
  subgraphUrls: Record<SubgraphName, string>;
  /** Client headers passed on to every subgraph request, lower-cased. */
  propagated: string[];
  /** Headers set on every subgraph request, `${env.NAME}` filled in; a client's own value never passes. */
  inserted: Record<string, string>;
  maxRequestBytes: number;
  /** Per subgraph request (traffic_shaping.all.timeout). */
  subgraphTimeoutMs: number;
  /** Per client request (traffic_shaping.router.timeout). */
  requestTimeoutMs: number;
}

/** `${env.NAME}` in a value, from the environment; an unset variable stops the start. */
function expand(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') throw new StartupError(`router.yaml inserts \${env.${name}} into a subgraph request header, and ${name} is not set.`);
    return found;
  });
}

export function routerConfigOf(text: string, env: NodeJS.ProcessEnv = process.env): RouterConfig {
  const parsed = routerYaml.safeParse(parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StartupError(`router.yaml cannot be read at ${issue.path.join('.') || 'its top level'}: ${issue.message}.`);
  }
  const config = parsed.data;
  const missing = SUBGRAPH_NAMES.filter((name) => !config.override_subgraph_url[name]);
  if (missing.length) throw new StartupError(`router.yaml names no address for the ${missing.join(', ')} subgraph in override_subgraph_url.`);
  const propagated: string[] = [];
  const inserted: Record<string, string> = {};
  for (const rule of config.headers.all.request) {
    if ('propagate' in rule) propagated.push(rule.propagate.named.toLowerCase());
    else inserted[rule.insert.name.toLowerCase()] = expand(rule.insert.value, env);
  }
  return {
    graphqlPath: config.supergraph.path,
    subgraphUrls: config.override_subgraph_url as Record<SubgraphName, string>,
    propagated: propagated.filter((name) => !(name in inserted)),
    inserted,
    maxRequestBytes: config.limits.http_max_request_bytes,
    subgraphTimeoutMs: config.traffic_shaping.all.timeout,
    requestTimeoutMs: config.traffic_shaping.router.timeout,
  };
}

export const readRouterConfig = async (env: NodeJS.ProcessEnv = process.env) => routerConfigOf(await readFile(routerYamlPath, 'utf8'), env);
