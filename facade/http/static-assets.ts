// A file the platform serves to browsers (an overlay's script, the graphql-ws browser build): read
// or built once and kept, answered with a strong ETag and no-cache, so a page revalidates it on
// every load (a 304 while unchanged) and never runs a script of another version. The caching
// headers go on an answer that worked only, and a failed read is tried again by the next request:
// a browser source never keeps a failure.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context } from 'koa';

interface Asset {
  body: string | Buffer;
  type: string;
  etag: string;
}

export type AssetSource = () => Promise<string | Buffer>;

const require = createRequire(import.meta.url);

/** A file of an installed package, found beside its package.json (exports maps hide browser builds). */
export const packageFile = (name: string, file: string): AssetSource => () => readFile(path.join(path.dirname(require.resolve(`${name}/package.json`)), file));

/** Loads each asset once (per name) and answers it; kept failures are none. */
export function assetServer() {
  const assets = new Map<string, Promise<Asset>>();
  const load = (name: string, read: AssetSource, type: string): Promise<Asset> => {
    let loading = assets.get(name);
    if (!loading) {
      loading = read().then((body) => ({ body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }));
      loading.catch(() => assets.delete(name));
      assets.set(name, loading);
    }
    return loading;
  };
  return async function send(ctx: Context, name: string, read: AssetSource, type: string): Promise<void> {
    const asset = await load(name, read, type);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', asset.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.type;
    if (ctx.get('if-none-match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  };
}
