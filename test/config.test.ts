// One configuration: every environment variable is declared in platform/process/config.ts and read
// through it; each declared one is read somewhere; defaults parse; a value a variable does not accept
// is refused with one sentence naming it (never echoing a secret).
import { describe, expect, it } from 'vitest';
import { readConfig, setting, SETTINGS, type SettingName } from '../platform/process/config.ts';
import { StartupError } from '../platform/process/startup.ts';
import { sources } from './support/sources.ts';

const NAMES = Object.keys(SETTINGS) as SettingName[];

// TypeScript only: the .mjs build and generate tools run at npm install, before anything is built.

describe('configuration', () => {
  it('every default parses, and unset and empty take it', () => {
    const config = readConfig({});
    expect(config.REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(config.RATE_LIMIT_TOKEN).toEqual({ count: 6000, seconds: 60 });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(config.GRAPHQL_ANY_DOCUMENT_CLIENTS).toEqual({ applications: new Set(), organisations: new Set() });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(readConfig(Object.fromEntries(NAMES.map((name) => [name, ' '])))).toEqual(config);
  });

  it('refuses a value a variable does not accept with one sentence naming it, a secret by its length only', () => {
    for (const name of NAMES) {
      if (!SETTINGS[name].expects) continue;
      const refusal = (() => {
        try {
          setting(name, { [name]: 'é' });
        } catch (error) {
          return error;
        }
      })();
      expect(refusal, name).toBeInstanceOf(StartupError);
      const message = (refusal as Error).message;
      expect(message, name).toMatch(new RegExp(`^${name} must be [^\\n]+; [^\\n]+\\.$`));
      if ('secret' in SETTINGS[name]) expect(message).toMatch(/it is 1 characters long\.$/);
      else expect(message).toContain('é');
    }
    expect(() => readConfig({ GATEWAY_PING_MS: 'soon' })).toThrow('GATEWAY_PING_MS must be a whole number of milliseconds from 10 to 2147483647; it is "soon".');
    expect(() => readConfig({ SUBGRAPH_SECRET: 'hunter2' })).toThrow(/; it is 7 characters long\.$/);
    expect(() => readConfig({ DATABASE_URL: 'mysql://db/esports' })).toThrow(/^DATABASE_URL must be a PostgreSQL connection URL/);
    // A URL's user and password are never quoted back; a long value is cut.
    expect(() => readConfig({ DATABASE_URL: 'postgresq://postgres:hunter2@db/x' })).toThrow('; it is "postgresq://***@db/x".');
    expect(() => readConfig({ REDIS_URL: 'redis://:hunter2@cache:99999' })).toThrow('; it is "redis://***@cache:99999".');
    expect(() => readConfig({ SUBGRAPH_URLS: 'esports=ftp://u:pw@h/graphql' })).toThrow('; "esports=ftp://***@h/graphql" cannot be read.');
    expect(() => readConfig({ LOG_LEVEL: 'x'.repeat(5000) })).toThrow(`; it is "${'x'.repeat(200)}…".`);
    // What would fail later without naming the variable, or lose part of the value, is refused now.
    for (const [name, value] of [
      ['DATABASE_URL', 'postgresql://u:pw@@:99999/x y'],
      ['PGLITE_SHARED_BUFFERS', '0MB'],
      ['PGLITE_SHARED_BUFFERS', '999999999GB'],
      ['PUBLIC_URL', 'https://api.exa\tmple.com'],
      ['GRAPHQL_ANY_DOCUMENT_CLIENTS', 'app_x;org_y'],
      ['SUBGRAPH_URLS', 'esports=http://a/graphql,esports=http://b/graphql'],
    ] as const) {
      expect(() => readConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^${name} must be `));
    }
    expect(readConfig({ SUBGRAPH_URLS: 'competitions=http://h/g?x=1' }).SUBGRAPH_URLS).toEqual({ competitions: 'http://h/g?x=1' });
    expect(readConfig({ PGLITE_SHARED_BUFFERS: '128kB' }).PGLITE_SHARED_BUFFERS).toBe('128kB');
    // Past 2^31 − 1 ms a Node.js timer fires at once: a long drain or time limit would be none.
    // npm start's exit timer waits the drain plus 1.5 s.
    expect(() => readConfig({ SHUTDOWN_DRAIN_MS: '2147482148' })).toThrow(/^SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 0 to 2147482147; /);
    expect(readConfig({ REQUEST_TIMEOUT_MS: '2147483647' }).REQUEST_TIMEOUT_MS).toBe(2_147_483_647);
  });

  it('parses a value once, and again when it changes', () => {
    const env: Record<string, string> = { WEBHOOK_RETRY_SCHEDULE: '1, 2,3' };
    const first = setting('WEBHOOK_RETRY_SCHEDULE', env);
    expect(first).toEqual([1, 2, 3]);
    expect(setting('WEBHOOK_RETRY_SCHEDULE', env)).toBe(first);
    env.WEBHOOK_RETRY_SCHEDULE = '4';
    expect(setting('WEBHOOK_RETRY_SCHEDULE', env)).toEqual([4]);
  });

  it('no module reads an environment variable around it, and every declared one is read', async () => {
    // What stays outside: a library's switch the gateway sets, the router handing LOG_LEVEL to pino
    // alone, the data-directory lock's hand-over token and npm's own variables, the environment a
    // child process inherits, and router.yaml's ${env.NAME} expansion (the variables it names).
    const allowed = /process\.env\.APOLLO_TELEMETRY_DISABLED = 'true'|delete process\.env\.LOG_LEVEL|process\.env\[HANDOVER_ENV\]|process\.env\.npm_lifecycle_(event|script)|\{ \.\.\.process\.env, |(env|Environment|ProcessEnv) = process\.env\)/;
    const stray: string[] = [];
    const files = await sources();
    for (const { file, text } of files) {
      if (file === 'platform/process/config.ts') continue;
      text.split('\n').forEach((line, index) => {
        if (/process\.env\b/.test(line) && !allowed.test(line)) stray.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(stray).toEqual([]);
    const everything = files.filter(({ file }) => !file.endsWith('config.ts')).map(({ text }) => text).join('\n');
    const unread = NAMES.filter((name) => !everything.includes(`'${name}'`) && !everything.includes(`config.${name}`));
    expect(unread).toEqual([]);
  });
});
