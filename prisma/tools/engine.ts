// Prisma's schema engine as WebAssembly, driven through a driver adapter: migrations and diffs
// need no native engine download and no server for the shadow database (see DESIGN.md).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

const require = createRequire(import.meta.url);

type EngineModule = typeof import('@prisma/schema-engine-wasm');
let engineModule: Promise<EngineModule> | undefined;

// Node 20 cannot import .wasm as a module: compile it and hand it to the wasm-bindgen glue.
async function loadEngineModule(): Promise<EngineModule> {
  const glueFile = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const dir = path.dirname(glueFile);
  const glue = (await import(glueFile)) as EngineModule & {
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

export const schemaPath = path.resolve(import.meta.dirname, '../schema.prisma');
export const migrationsDir = path.resolve(import.meta.dirname, '../migrations');

export async function openSchemaEngine(factory: SqlMigrationAwareDriverAdapterFactory): Promise<SchemaEngine> {
  engineModule ??= loadEngineModule();
  const { SchemaEngine } = await engineModule;
  const datamodel = await readFile(schemaPath, 'utf8');
  const log = (message: string) => {
    if (process.env.PRISMA_ENGINE_DEBUG) process.stderr.write(`${message}\n`);
  };
  return SchemaEngine.new({ datamodels: [[schemaPath, datamodel]] }, log, bindMigrationAwareSqlAdapterFactory(factory));
}
