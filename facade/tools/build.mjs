// Compiles the servers to plain ESM bundles under node_modules/.cache/esports-platform, so that
// `npm start` runs them with plain node: no TypeScript loader thread in the process (about 100 MB
// less resident memory) and no transpiling at start-up. Dependencies stay external. Takes well
// under a second; `npm start` runs it every time, so the bundle never lags the sources.
// Several processes may build while others run the bundle (tests start servers and workers side by
// side), so nothing is removed and a file is replaced only when its content changed, by an atomic
// rename: a running process never reads a half-written or missing file.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const outdir = path.join(root, 'node_modules/.cache/esports-platform');

export const entries = {
  main: 'facade/main.ts',
  subgraph: 'subgraphs/serve.ts',
  worker: 'subgraphs/workers/main.ts',
  router: 'facade/router/main.ts',
  // npm start runs pending migrations in a child process of its own (see facade/main.ts).
  migrate: 'prisma/tools/migrate.ts',
  'bench-serve': 'test/bench/serve.ts',
};

const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: process.argv.includes('--quiet') ? 'warning' : 'info',
  write: false,
});
await mkdir(outdir, { recursive: true });
await Promise.all(
  result.outputFiles.map(async (file) => {
    const current = await readFile(file.path).catch(() => null);
    if (current && Buffer.compare(current, Buffer.from(file.contents)) === 0) return;
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }),
);
