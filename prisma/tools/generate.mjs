// Generates the Prisma client without any native engine download (docs/development.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, 'prisma/tools/no-native-engine.sh'),
  PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
  PRISMA_SKIP_POSTINSTALL_GENERATE: '1',
};
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/prisma/build/index.js'), 'generate', '--schema', path.join(root, 'prisma/schema.prisma')],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
