// Upserting a batch of records by key in one statement, for the writers that publish whole files
// (esports data, maps): new rows are inserted, rows whose columns differ are updated, equal rows are
// left alone (their updatedAt does not move). The columns are the model's scalar fields as the
// Prisma datamodel declares them, not a list kept here.
import { Prisma } from './generated/client.ts';
import { NOW } from './sql-fragments.ts';

/** Columns the database keeps itself: set to now on insert (createdAt) and on every update (updatedAt). */
const MAINTAINED = new Set(['createdAt', 'updatedAt']);

type ModelName = (typeof Prisma.ModelName)[keyof typeof Prisma.ModelName];

/** The model's scalar fields, from the generated client (its table and columns carry the same names). */
export function scalarFields(model: ModelName): string[] {
  const fields = (Prisma as unknown as Record<string, Record<string, string> | undefined>)[`${model}ScalarFieldEnum`];
  if (!fields) throw new Error(`No scalar fields are generated for model ${model}.`);
  return Object.values(fields);
}

const quoted = (name: string) => `"${name}"`;

/**
 * An `INSERT … ON CONFLICT DO UPDATE … RETURNING (created)` of the rows in the JSON array `param`
 * (objects keyed by field name; a missing field is NULL) into `model`, by `key`: each inserted or
 * changed row answers `created` (true for an insert); an unchanged row answers nothing. For use as a
 * CTE, so that what it did can be counted in the same statement. The rows must have distinct keys.
 */
export function upsertChangedSql(model: ModelName, key: readonly string[], param: string): string {
  const fields = scalarFields(model);
  for (const field of key) if (!fields.includes(field)) throw new Error(`${model} has no field ${field}.`);
  const data = fields.filter((field) => !MAINTAINED.has(field));
  const compared = data.filter((field) => !key.includes(field));
  const maintained = fields.filter((field) => MAINTAINED.has(field));
  const columns = [...data, ...maintained].map(quoted).join(', ');
  const values = [...data.map((field) => `r.${quoted(field)}`), ...maintained.map(() => NOW)].join(', ');
  const updates = [...compared, ...maintained.filter((field) => field === 'updatedAt')].map((field) => `${quoted(field)} = EXCLUDED.${quoted(field)}`).join(', ');
  const row = (alias: string) => `(${compared.map((field) => `${alias}.${quoted(field)}`).join(', ')})`;
  return `INSERT INTO ${quoted(model)} AS t (${columns})
    SELECT ${values} FROM json_populate_recordset(NULL::${quoted(model)}, ${param}::json) r
    ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${updates}
    WHERE ${row('t')} IS DISTINCT FROM ${row('EXCLUDED')}
    RETURNING (t.xmax = 0) AS created, ${key.map((field) => `t.${quoted(field)}`).join(', ')}`;
}
