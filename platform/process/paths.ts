// The project root, found from wherever this module runs: the TypeScript sources or the compiled
// bundle under node_modules/.cache (npm start).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (dir !== path.dirname(dir)) {
    if (!dir.split(path.sep).includes('node_modules') && existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'prisma'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('Cannot find the project root (a folder with package.json and prisma/).');
}

export const projectRoot = findRoot();
export const fromRoot = (...parts: string[]) => path.join(projectRoot, ...parts);
