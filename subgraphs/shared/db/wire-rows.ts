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

export interface WireModel<M> {
  /** The SELECT list of every scalar column of `alias`, DateTime ones as ISO text under their own names. */
  columns: string;
  /** The model from a row read with `columns`. */
  modelOf(row: WireRow<M>): M;
}

export function wireModel<M>() {
  return <const D extends readonly DateFields<M>[]>(model: ModelName, alias: string, dates: Exactly<M, D> & D): WireModel<M> => {
    const isDate = new Set<string>(dates);
    const columns = scalarFields(model)
      .map((field) => (isDate.has(field) ? `${iso(`${alias}."${field}"`)} AS "${field}"` : `${alias}."${field}"`))
      .join(', ');
    return {
      columns,
      modelOf: (row) => {
        const model = { ...row } as Record<string, unknown>;
        for (const field of isDate) {
          const value = model[field];
          model[field] = value == null ? null : new Date(value as string);
        }
        return model as M;
      },
    };
  };
}
