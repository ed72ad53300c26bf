// Prisma's schema engine as WebAssembly, driven through a driver adapter: migrations and diffs
// need no native engine download and no server for the shadow database (docs/development.md).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

let instances = 0;
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import { fromRoot } from '../process/paths.ts';
import { setting } from '../process/config.ts';

const require = createRequire(import.meta.url);

type EngineModule = typeof import('@prisma/schema-engine-wasm');

// Node 20 cannot import .wasm as a module: compile it and hand it to the wasm-bindgen glue. The module
// is not kept: a server needs the engine once at start-up and should not hold its memory after.
async function loadEngineModule(): Promise<EngineModule> {
  const glueFile = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const dir = path.dirname(glueFile);
  // A fresh copy of the glue per engine (query string), so each holds only its own instance.
  const glue = (await import(`${pathToFileURL(glueFile).href}?instance=${++instances}`)) as EngineModule & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
  };
  const module = await WebAssembly.compile(await readFile(path.join(dir, 'schema_engine_bg.wasm')));
  const imports: WebAssembly.Imports = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    imports[entry.module] ??= glue as unknown as WebAssembly.ModuleImports;
  }
  const instance = await WebAssembly.instantiate(module, imports);
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

export const schemaPath = fromRoot('prisma/schema.prisma');
export const migrationsDir = fromRoot('prisma/migrations');

export async function openSchemaEngine(factory: SqlMigrationAwareDriverAdapterFactory): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadEngineModule();
  const datamodel = await readFile(schemaPath, 'utf8');
  const log = (message: string) => {
    if (setting('PRISMA_ENGINE_DEBUG')) process.stderr.write(`${message}\n`);
  };
  return SchemaEngine.new({ datamodels: [[schemaPath, datamodel]] }, log, bindMigrationAwareSqlAdapterFactory(factory));
}
