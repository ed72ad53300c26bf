// The project's TypeScript sources, for tests that hold a rule about where a thing may be written.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fromRoot } from '../../platform/process/paths.ts';

export interface Source {
  /** Relative to the repository, e.g. platform/process/config.ts. */
  file: string;
  text: string;
}

/** Every .ts file under `tops` (the generated Prisma client excluded). */
export async function sources(tops: readonly string[] = ['platform', 'facade', 'subgraphs', 'prisma', 'schema']): Promise<Source[]> {
  const files: Source[] = [];
  for (const top of tops) {
    for (const entry of await readdir(fromRoot(top), { recursive: true })) {
      const file = path.join(top, entry);
      if (!/\.ts$/.test(file) || file.includes('/generated/')) continue;
      files.push({ file, text: await readFile(fromRoot(file), 'utf8') });
    }
  }
  return files;
}
