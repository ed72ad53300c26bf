// The rules for reaching the database (docs/development.md#talking-to-the-database), held where a
// test can see them: change-log rows and their NOTIFY are written by platform/domain/change-log.ts
// alone; service code runs no Prisma transaction (writes are pipelined statements); a batch upsert
// takes its columns from the Prisma datamodel.
import { describe, expect, it } from 'vitest';
import { sources } from './support/sources.ts';
import { scalarFields, upsertChangedSql } from '../platform/db/upsert.ts';
import { wireModel } from '../platform/db/wire-rows.ts';
import { Prisma, type Installation } from '../platform/db/generated/client.ts';

const CHANGE_LOG = 'platform/domain/change-log.ts';

describe('the change log', () => {
  it('is appended to, and its followers woken, only through platform/domain/change-log.ts', async () => {
    const offenders = (await sources(['platform', 'facade', 'subgraphs', 'prisma']))
      .filter(({ file }) => file !== CHANGE_LOG)
      .filter(({ text }) => /INSERT INTO "ChangeLog"|changeLog\.(create|createMany|upsert|update)\(|pg_notify\(\s*'(\$\{CHANGE_FEED_CHANNEL\}|change_feed)'/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});

describe('writes', () => {
  it('run no Prisma transaction in the service: a write is pipelined statements (Database.transaction)', async () => {
    // The demo world is loaded in one Prisma transaction into an empty database, before anything serves.
    const offenders = (await sources(['platform', 'facade', 'subgraphs'])).filter(({ file, text }) => file !== 'subgraphs/demo-world.ts' && /\.\$transaction\(/.test(text)).map(({ file }) => file);
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

  it('name each model\'s DateTime fields once: every wire model is declared in platform/db/wire-models.ts', async () => {
    const elsewhere = (await sources(['platform', 'subgraphs', 'facade'])).filter(({ file, text }) => !file.endsWith('platform/db/wire-models.ts') && /\bwireModel</.test(text) && !file.endsWith('platform/db/wire-rows.ts'));
    expect(elsewhere.map(({ file }) => file)).toEqual([]);
    const declared = (await sources(['platform', 'subgraphs'])).find(({ file }) => file.endsWith('platform/db/wire-models.ts'));
    expect(declared?.text.match(/wireModel</g)?.length).toBeGreaterThan(5);
  });

  it('take their columns from the datamodel: every scalar field, or those picked, DateTime ones as ISO text', () => {
    expect(installation.columns.match(/i\."\w+"/g)).toEqual(scalarFields('Installation').map((field) => `i."${field}"`));
    const picked = installation.pick('id', 'createdAt');
    expect(picked.columns).toBe(`i."id", to_char(i."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`);
    expect(picked.modelOf({ id: 'x', createdAt: '2026-01-02T03:04:05.678Z' })).toEqual({ id: 'x', createdAt: new Date('2026-01-02T03:04:05.678Z') });
    // A name the model lacks does not compile; at run time it is refused as well.
    expect(() => installation.pick('slug' as 'id')).toThrow('Installation has no scalar field slug.');
  });

  // A row type written out field by field is how a copy of a model starts: rows are RowOf a model's
  // columns (wire-rows.ts), WireRow<Model> or a Prisma select's payload, plus what the statement joins
  // or computes. These are not copies of columns, and say why.
  const NOT_MODEL_ROWS: Record<string, string> = {
    PlayerStatisticsRow: 'sums and rates over many matches, computed by the statement',
    StandingRow: "the tournament engine's computed standing, which reads no database",
    ListRow: 'the envelope of a list an esports read builds as JSON: found and the items',
    MatchRow: "the esports match view (EsportsMatch) with both teams' columns joined flat",
    ChangeRow: "the change feed's own shape (FeedChange) with the position it is read at",
    WireRow: "the definition of a model's row on the wire (wire-rows.ts)",
  };
  /** Derived: picked columns, a model's wire row, a Prisma select's payload, or another row type with more. */
  const DERIVED = /\bRowOf<|\bWireRow<|GetPayload<|\b\w+Row\s*&/;

  /** Each declaration of a type named …Row that lists fields of its own, with what comes before its braces. */
  const rowDeclarations = (text: string) => [...text.matchAll(/(?:interface|type)\s+(\w+Row)\b([^{;]*)\{/g)].map((match) => ({ name: match[1], head: match[2] }));

  it('are derived from the datamodel, not written out field by field', async () => {
    const written = (await sources(['platform', 'subgraphs']))
      .flatMap(({ file, text }) => rowDeclarations(text).map((row) => ({ file, ...row })))
      .filter(({ name, head }) => !DERIVED.test(head) && !(name in NOT_MODEL_ROWS))
      .map(({ file, name }) => `${file}: ${name}`);
    expect(written).toEqual([]);
  });

  it('the rule sees every way of writing a row type out (a rule over nothing would always pass)', () => {
    const probe = [
      'export interface CaughtRow { id: string }',
      'export interface ExtendingRow extends Object { id: string }',
      'export type AliasRow = { id: string };',
      'export interface GenericRow<T> { id: T }',
      'export type SplitRow =\n  { id: string };',
      'export type PickedRow = RowOf<typeof PICKED> & { teamName: string };',
      'export type ModelRow = WireRow<Event>;',
      'export type StageRow = Prisma.StageGetPayload<{ select: typeof STAGE_SELECT }>;',
      'type ReadableEventRow = EventRow & { installationId: string | null };',
    ].join('\n');
    expect(rowDeclarations(probe).filter(({ head }) => !DERIVED.test(head)).map(({ name }) => name)).toEqual(['CaughtRow', 'ExtendingRow', 'AliasRow', 'GenericRow', 'SplitRow']);
  });

  /**
   * Inline row types of driver statements (`sql<{ … }>(STATEMENT`) of two fields or more, every one a
   * column of one model: a copy. One field is a count, a flag or an aggregate, not a copy of a row.
   */
  const MODELS = Object.values(Prisma.ModelName).map((model) => ({ model, fields: new Set(scalarFields(model)) }));
  const COMPUTED_INLINE: Record<string, string> = {
    STAGE_ADJUSTMENTS_SQL: "each participant's adjustment points summed",
  };
  const copiedInline = (text: string) =>
    [...text.matchAll(/sql<\{([^}]*)\}>\((\w*)/g)]
      .filter((match) => !(match[2] in COMPUTED_INLINE))
      .map((match) => [...match[1].matchAll(/(\w+)\??\s*:/g)].map((field) => field[1]))
      .filter((fields) => fields.length > 1)
      .flatMap((fields) => MODELS.filter(({ fields: columns }) => fields.every((field) => columns.has(field))).map(({ model }) => `${model} { ${fields.join(', ')} }`));

  it('are not written inline when they copy a model\'s columns', async () => {
    const copied = (await sources(['platform', 'subgraphs'])).flatMap(({ file, text }) => copiedInline(text).map((copy) => `${file}: ${copy}`));
    expect(copied).toEqual([]);
    expect(copiedInline('await ctx.sql<{ applicationId: string; status: string }>(INSTALLATION_SQL, [id])')).toContain('Installation { applicationId, status }');
    expect(copiedInline('await ctx.sql<{ found: number }>(KEY_USER_SQL, [id])')).toEqual([]);
  });
});
