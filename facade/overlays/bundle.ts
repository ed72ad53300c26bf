// The overlays' browser code, bundled by esbuild (a dependency already) the first time a page asks
// for it and kept for the life of the process: nothing to build by hand, never stale against the
// sources, and nothing fetched from anywhere but this server (graphql-ws is bundled in).
import path from 'node:path';
import { build, stop } from 'esbuild';
import { fromRoot, projectRoot } from '../../platform/process/paths.ts';

const here = fromRoot('facade/overlays/browser');

export const OVERLAY_SCRIPTS = ['scoreboard', 'bracket'] as const;
export type OverlayScript = (typeof OVERLAY_SCRIPTS)[number];

let bundles: Promise<Map<string, string>> | undefined;

async function bundleAll(): Promise<Map<string, string>> {
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: Object.fromEntries(OVERLAY_SCRIPTS.map((name) => [name, path.join(here, `${name}.ts`)])),
    outdir: '/overlays',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  // esbuild's service process (about 30 MB) is not needed again by this process.
  await stop();
  return new Map(result.outputFiles.map((file) => [path.basename(file.path, '.js'), file.text]));
}

/** The bundled script of one overlay page. */
export async function overlayScript(name: OverlayScript): Promise<string> {
  bundles ??= bundleAll().catch((error) => {
    bundles = undefined; // a failed build is tried again by the next request
    throw error;
  });
  return (await bundles).get(name)!;
}
