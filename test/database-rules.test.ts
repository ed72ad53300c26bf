// The rules for reaching the database (docs/development.md#talking-to-the-database), held where a
// test can see them: change-log rows and their NOTIFY are written by subgraphs/shared/change-log.ts
// alone; service code runs no Prisma transaction (writes are pipelined statements); a batch upsert
// takes its columns from the Prisma datamodel.
import { describe, expect, it } from 'vitest';
import { sources } from './support/sources.ts';
import { scalarFields, upsertChangedSql } from '../subgraphs/shared/db/upsert.ts';

const CHANGE_LOG = 'subgraphs/shared/change-log.ts';

describe('the change log', () => {
  it('is appended to, and its followers woken, only through subgraphs/shared/change-log.ts', async () => {
    const offenders = (await sources(['facade', 'subgraphs', 'prisma']))
      .filter(({ file }) => file !== CHANGE_LOG)
      .filter(({ text }) => /INSERT INTO "ChangeLog"|changeLog\.(create|createMany|upsert|update)\(|pg_notify\(\s*'(\$\{CHANGE_FEED_CHANNEL\}|change_feed)'/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});

describe('writes', () => {
  it('run no Prisma transaction in the service: a write is pipelined statements (Database.transaction)', async () => {
    const offenders = (await sources(['facade', 'subgraphs'])).filter(({ text }) => /\.\$transaction\(/.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('upsert batches with the columns the datamodel declares, and refuse a key it does not', () => {
    expect(scalarFields('Map')).toEqual(['id', 'name', 'imageUrl', 'createdAt']);
    const sql = upsertChangedSql('EsportsMapStatistics', ['eventId', 'mapId'], '$1');
    expect(sql).toContain('ON CONFLICT ("eventId", "mapId")');
    expect(sql).toContain('"updatedAt" = EXCLUDED."updatedAt"');
    expect(() => upsertChangedSql('Map', ['slug'], '$1')).toThrow('Map has no field slug.');
  });
});
