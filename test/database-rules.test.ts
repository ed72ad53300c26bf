// The rules for reaching the database (docs/development.md#talking-to-the-database), held where a
// test can see them: change-log rows and their NOTIFY are written by subgraphs/kernel/change-log.ts
// alone; service code runs no Prisma transaction (writes are pipelined statements); a batch upsert
// takes its columns from the Prisma datamodel.
import { describe, expect, it } from 'vitest';
import { sources } from './support/sources.ts';
import { scalarFields, upsertChangedSql } from '../subgraphs/kernel/db/upsert.ts';
import { wireModel } from '../subgraphs/kernel/db/wire-rows.ts';
import type { Installation } from '../subgraphs/kernel/db/generated/client.ts';

const CHANGE_LOG = 'subgraphs/kernel/change-log.ts';

describe('the change log', () => {
  it('is appended to, and its followers woken, only through subgraphs/kernel/change-log.ts', async () => {
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

describe('row types of driver statements', () => {
  const installation = wireModel<Installation>()('Installation', 'i', ['createdAt', 'revokedAt']);

  it('take their columns from the datamodel: every scalar field, or those picked, DateTime ones as ISO text', () => {
    expect(installation.columns.match(/i\."\w+"/g)).toEqual(scalarFields('Installation').map((field) => `i."${field}"`));
    const picked = installation.pick('id', 'createdAt');
    expect(picked.columns).toBe(`i."id", to_char(i."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`);
    expect(picked.modelOf({ id: 'x', createdAt: '2026-01-02T03:04:05.678Z' })).toEqual({ id: 'x', createdAt: new Date('2026-01-02T03:04:05.678Z') });
    // A name the model lacks does not compile; at run time it is refused as well.
    expect(() => installation.pick('slug' as 'id')).toThrow('Installation has no scalar field slug.');
  });

  // A row interface written out field by field is how a copy of a model starts: rows are RowOf a
  // model's columns (wire-rows.ts) plus what the statement joins or computes. These are not columns.
  const NOT_MODEL_ROWS: Record<string, string> = {
    PlayerStatisticsRow: 'sums and rates over many matches, computed by the statement',
    StandingRow: "the tournament engine's computed standing, which reads no database",
  };

  it('are derived from the datamodel, not written out field by field', async () => {
    const written = (await sources(['subgraphs']))
      .flatMap(({ file, text }) => [...text.matchAll(/interface (\w+Row)\s*\{/g)].map((match) => ({ file, name: match[1] })))
      .filter(({ name }) => !(name in NOT_MODEL_ROWS));
    expect(written).toEqual([]);
    // The rule sees the interfaces it allows (a rule over nothing would always pass).
    const allowed = (await sources(['subgraphs'])).filter(({ text }) => /interface PlayerStatisticsRow \{/.test(text));
    expect(allowed.length).toBe(1);
  });
});
