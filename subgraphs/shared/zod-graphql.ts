// GraphQL input types generated from the zod schemas that validate the same requests, so that each
// input is written once: the REST route validates with the schema, OpenAPI documents it, GraphQL
// derives its input type from it here, and the subgraph validates GraphQL inputs with it too.
//
// zod → GraphQL: object → input type; enum → enum; string → String (ID when registered so); integer
// number or number literals → Int; number → Float; boolean → Boolean; array → list; optional,
// nullable → not required; a discriminated union → one input type whose discriminator is required and
// whose other fields are optional (the schema then says which belong together); records and other
// unions → JSON. Nested enums and objects are named in the `graphql` registry.
import { z } from 'zod';
import type { Builder } from './builder.ts';

export interface GraphQLMeta {
  /** The GraphQL name of a nested enum or input object; 'ID' for a string that is an id. */
  name: string;
  /** For a discriminated union: the name of the enum of its discriminator's values. */
  discriminatorEnum?: string;
}

export const graphql = z.registry<GraphQLMeta>();

type AnySchema = z.core.$ZodType;
// Pothos' refs are typed by what they carry; generated ones carry what the zod schema validates.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ref = any;

const defOf = (schema: AnySchema) => schema._zod.def as unknown as Record<string, unknown> & { type: string };
const descriptionOf = (schema: AnySchema) => (schema as z.ZodType).description;

/** The schema inside optional/nullable/default wrappers, and whether any of them made it optional. */
function unwrap(schema: AnySchema): { inner: AnySchema; optional: boolean } {
  let inner = schema;
  let optional = false;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
      optional = true;
      inner = def.innerType as AnySchema;
    } else if (def.type === 'readonly') inner = def.innerType as AnySchema;
    else return { inner, optional };
  }
}

export function inputTypes(builder: Builder) {
  const built = new Map<AnySchema, Ref>();

  const nameOf = (schema: AnySchema, what: string): string => {
    const name = graphql.get(schema)?.name;
    if (!name) throw new Error(`Name this ${what} for GraphQL: .register(graphql, { name })`);
    return name;
  };

  const enumOf = (name: string, values: readonly unknown[], description?: string) =>
    builder.enumType(name, { values: values.map(String) as [string, ...string[]], description });

  /** The GraphQL type of a (non-wrapped) schema. */
  function typeOf(schema: AnySchema): Ref {
    const cached = built.get(schema);
    if (cached) return cached;
    const def = defOf(schema);
    let type: Ref;
    switch (def.type) {
      case 'string':
        type = graphql.get(schema)?.name === 'ID' ? 'ID' : 'String';
        break;
      case 'boolean':
        type = 'Boolean';
        break;
      case 'number': {
        const integer = (schema as z.ZodNumber).format === 'safeint' || (schema as z.ZodNumber).format === 'int32';
        type = integer ? 'Int' : 'Float';
        break;
      }
      case 'literal': {
        const values = def.values as unknown[];
        type = values.every((value) => Number.isInteger(value)) ? 'Int' : values.every((value) => typeof value === 'string') ? 'String' : 'JSON';
        break;
      }
      case 'enum':
        type = enumOf(nameOf(schema, 'enum'), Object.values(def.entries as Record<string, string>), descriptionOf(schema));
        break;
      case 'array':
        type = [typeOf(unwrap(def.element as AnySchema).inner)];
        break;
      case 'object':
        type = objectOf(nameOf(schema, 'object'), def.shape as Record<string, AnySchema>, descriptionOf(schema));
        break;
      case 'union':
        type = def.discriminator ? discriminatedOf(schema, def.discriminator as string, def.options as AnySchema[]) : 'JSON';
        break;
      default:
        type = 'JSON';
    }
    built.set(schema, type);
    return type;
  }

  function fieldOf(t: Ref, schema: AnySchema, forceOptional = false) {
    const { inner, optional } = unwrap(schema);
    // An enum or input object carries its own description: the field adds only one of its own.
    const named = ['enum', 'object'].includes(defOf(inner).type);
    const description = named ? (descriptionOf(schema) !== descriptionOf(inner) ? descriptionOf(schema) : undefined) : (descriptionOf(schema) ?? descriptionOf(inner));
    return t.field({ type: typeOf(inner), required: !(optional || forceOptional), description });
  }

  function objectOf(name: string, shape: Record<string, AnySchema>, description?: string): Ref {
    return builder.inputType(name, {
      description,
      fields: (t: Ref) => Object.fromEntries(Object.entries(shape).map(([field, schema]) => [field, fieldOf(t, schema)])),
    });
  }

  function discriminatedOf(union: AnySchema, discriminator: string, options: AnySchema[]): Ref {
    const meta = graphql.get(union);
    if (!meta?.discriminatorEnum) throw new Error('Name this union and its discriminator enum for GraphQL: .register(graphql, { name, discriminatorEnum })');
    const shapes = options.map((option) => defOf(option).shape as Record<string, AnySchema>);
    const tags = shapes.flatMap((shape) => defOf(shape[discriminator]).values as string[]);
    const tag = enumOf(meta.discriminatorEnum, tags);
    const others = new Map<string, AnySchema>();
    for (const shape of shapes) for (const [field, schema] of Object.entries(shape)) if (field !== discriminator && !others.has(field)) others.set(field, schema);
    return builder.inputType(meta.name, {
      description: descriptionOf(union),
      fields: (t: Ref) => ({
        [discriminator]: t.field({ type: tag, required: true }),
        ...Object.fromEntries([...others].map(([field, schema]) => [field, fieldOf(t, schema, true)])),
      }),
    });
  }

  /** The input type of a request schema (an object or a discriminated union), named `name`. */
  return function inputType(name: string, schema: AnySchema): Ref {
    const def = defOf(schema);
    if (def.type === 'object') {
      const type = objectOf(name, def.shape as Record<string, AnySchema>, descriptionOf(schema));
      built.set(schema, type);
      return type;
    }
    if (graphql.get(schema)?.name !== name) throw new Error(`Register the union ${name} for GraphQL with its name`);
    return typeOf(schema);
  };
}
