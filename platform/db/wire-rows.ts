// Rows that driver statements read (ctx.sql) in the shape of a Prisma model, derived from the
// generated client rather than copied: every scalar field, its DateTime fields selected as ISO text
// (the driver would read a timestamp without zone in the server's local time) and turned back into
// Dates by modelOf. The DateTime fields are named once per model and checked against the model's
// type: leaving one out, or naming a field that is not a DateTime, does not compile.
import type { Prisma } from './generated/client.ts';
import { scalarFields } from './upsert.ts';
import { iso } from './sql-fragments.ts';

/** The model's fields that hold a DateTime (nullable or not). */
export type DateFields<M> = { [K in keyof M]: M[K] extends Date | null ? (Date extends M[K] ? K : never) : never }[keyof M] & string;

/** A model's row as a driver statement reads it: DateTime fields as ISO text. */
export type WireRow<M> = { [K in keyof M]: M[K] extends Date ? string : M[K] extends Date | null ? string | null : M[K] };

type ModelName = (typeof Prisma.ModelName)[keyof typeof Prisma.ModelName];

/** `dates` must be exactly the model's DateTime fields. */
type Exactly<M, D extends readonly string[]> = [DateFields<M>] extends [D[number]] ? D : { missing: Exclude<DateFields<M>, D[number]> };

/** Columns of a model as a driver statement reads them: their SELECT list, and the model from a row. */
export interface WireColumns<M, K extends keyof M = keyof M> {
  /** The SELECT list of the columns under `alias`, DateTime ones as ISO text under their own names. */
  columns: string;
  /** The model's fields from a row read with `columns`. */
  modelOf(row: Pick<WireRow<M>, K>): Pick<M, K>;
}

/** The row that a statement selecting `columns` reads: `RowOf<typeof X>` beside the joins' own fields. */
export type RowOf<C> = C extends WireColumns<infer M, infer K> ? Pick<WireRow<M>, K> : never;

export interface WireModel<M> extends WireColumns<M> {
  modelOf(row: WireRow<M>): M;
  /** Some of the model's columns, by field name: a name the model lacks does not compile. */
  pick<const K extends keyof M & string>(...fields: K[]): WireColumns<M, K>;
}

function wireColumns<M, K extends keyof M>(alias: string, fields: readonly string[], isDate: ReadonlySet<string>): WireColumns<M, K> {
  const dates = fields.filter((field) => isDate.has(field));
  return {
    columns: fields.map((field) => (isDate.has(field) ? `${iso(`${alias}."${field}"`)} AS "${field}"` : `${alias}."${field}"`)).join(', '),
    modelOf: (row) => {
      const model = { ...row } as Record<string, unknown>;
      for (const field of dates) {
        const value = model[field];
        model[field] = value == null ? null : new Date(value as string);
      }
      return model as Pick<M, K>;
    },
  };
}

export function wireModel<M>() {
  return <const D extends readonly DateFields<M>[]>(model: ModelName, alias: string, dates: Exactly<M, D> & D): WireModel<M> => {
    const isDate = new Set<string>(dates);
    const fields = scalarFields(model);
    return {
      ...(wireColumns<M, keyof M>(alias, fields, isDate) as WireColumns<M, keyof M> & { modelOf(row: WireRow<M>): M }),
      pick: (...picked) => {
        for (const field of picked) if (!fields.includes(field)) throw new Error(`${model} has no scalar field ${field}.`);
        return wireColumns(alias, picked, isDate);
      },
    };
  };
}
