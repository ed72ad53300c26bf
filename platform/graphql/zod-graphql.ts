// GraphQL input types generated from the zod schemas that validate the same requests, so that each
// input is written once: the REST route validates with the schema, OpenAPI documents it, GraphQL
// derives its input type from it here, and the subgraph validates GraphQL inputs with it too. Read
// views declared as zod schemas get their GraphQL object types here the same way (outputTypes).
//
// zod → GraphQL: object → input type; enum → enum; string → String (ID when registered so); integer
// number or number literals → Int (Float when registered so, for integers beyond 32 bits); number →
// Float; boolean → Boolean; array → list; optional,
// nullable → not required; a discriminated union → one input type whose discriminator is required and
// whose other fields are optional (the schema then says which belong together); records and other
// unions → JSON. Nested enums and objects are named in the `graphql` registry.
import { z } from 'zod';
import type { ObjectRef } from '@pothos/core';
import type { Builder, SubgraphSchemaTypes } from './builder.ts';

export interface GraphQLMeta {
  /** The GraphQL name of a nested enum or object; 'ID' for a string that is an id, 'Float' for a wide integer. */
  name: string;
  /** For a discriminated union: the name of the enum of its discriminator's values. */
  discriminatorEnum?: string;
}

export const graphql = z.registry<GraphQLMeta>();

/** A string that GraphQL calls an ID. */
export const idString = z.string().register(graphql, { name: 'ID' });
/** An ISO 8601 instant as REST answers it, a DateTime for GraphQL (read views only). */
export const dateTimeString = z.string().register(graphql, { name: 'DateTime' });

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
    } else if (def.type === 'nonoptional') {
      // .required() over .partial(): present whatever the wrappers inside say.
      return { inner: unwrap(def.innerType as AnySchema).inner, optional };
    } else if (def.type === 'readonly') inner = def.innerType as AnySchema;
    else return { inner, optional };
  }
}

// Enums are shared by the input and output types of one builder: one GraphQL enum per name, and a
// second declaration of a name with other values is a mistake, and throws.
const enumsOf = new WeakMap<Builder, Map<string, { type: Ref; values: string }>>();
function enumOf(builder: Builder, name: string, values: readonly unknown[], description?: string): Ref {
  let enums = enumsOf.get(builder);
  if (!enums) enumsOf.set(builder, (enums = new Map()));
  const names = values.map(String);
  const known = enums.get(name);
  if (known) {
    if (known.values !== names.join()) throw new Error(`GraphQL enum ${name} is declared with other values: ${known.values}`);
    return known.type;
  }
  const type = builder.enumType(name, { values: names as [string, ...string[]], description });
  enums.set(name, { type, values: names.join() });
  return type;
}

/**
 * The GraphQL enum `name` of `values` for an output field or an argument: the same type the
 * builder's generated inputs use under that name, so a value is one enum wherever it appears.
 */
export const enumType = (builder: Builder, name: string, values: readonly string[], description?: string): Ref => enumOf(builder, name, values, description);

function nameOf(schema: AnySchema, what: string): string {
  const name = graphql.get(schema)?.name;
  if (!name) throw new Error(`Name this ${what} for GraphQL: .register(graphql, { name })`);
  return name;
}

/** The GraphQL type of a leaf schema (scalar or enum), or undefined for objects, arrays and unions. */
function leafOf(builder: Builder, schema: AnySchema): Ref | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const name = graphql.get(schema)?.name;
      return name === 'ID' || name === 'DateTime' ? name : 'String';
    }
    case 'boolean':
      return 'Boolean';
    case 'number': {
      if (graphql.get(schema)?.name === 'Float') return 'Float';
      const integer = (schema as z.ZodNumber).format === 'safeint' || (schema as z.ZodNumber).format === 'int32';
      return integer ? 'Int' : 'Float';
    }
    case 'literal': {
      const values = def.values as unknown[];
      return values.every((value) => Number.isInteger(value)) ? 'Int' : values.every((value) => typeof value === 'string') ? 'String' : 'JSON';
    }
    case 'enum':
      return enumOf(builder, nameOf(schema, 'enum'), Object.values(def.entries as Record<string, string>), descriptionOf(schema));
    default:
      return undefined;
  }
}

/** A field's description: an enum or object carries its own, so the field adds only one of its own. */
function fieldDescription(schema: AnySchema, inner: AnySchema): string | undefined {
  const named = ['enum', 'object'].includes(defOf(inner).type);
  if (!named) return descriptionOf(schema) ?? descriptionOf(inner);
  if (descriptionOf(schema) !== descriptionOf(inner)) return descriptionOf(schema);
  // A named object described again for one field (`ownerView.describe(…)`): zod keeps the original as parent.
  const parent = defOf(inner).type === 'object' ? (inner._zod as { parent?: AnySchema }).parent : undefined;
  return parent && descriptionOf(parent) !== descriptionOf(inner) ? descriptionOf(inner) : undefined;
}

/**
 * The GraphQL type of a (non-wrapped) schema, each built once: leaves and arrays alike for inputs and
 * outputs, objects and unions by `composite` (input or object types).
 */
function typeMapper(builder: Builder, composite: (schema: AnySchema, def: ReturnType<typeof defOf>) => Ref) {
  const built = new Map<AnySchema, Ref>();
  const typeOf = (schema: AnySchema): Ref => {
    const cached = built.get(schema);
    if (cached) return cached;
    const def = defOf(schema);
    const type: Ref = leafOf(builder, schema) ?? (def.type === 'array' ? [typeOf(unwrap(def.element as AnySchema).inner)] : composite(schema, def));
    built.set(schema, type);
    return type;
  };
  return { typeOf, built };
}

export function inputTypes(builder: Builder) {
  const { typeOf, built } = typeMapper(builder, (schema, def) => {
    if (def.type === 'object') return objectOf(nameOf(schema, 'object'), def.shape as Record<string, AnySchema>, descriptionOf(schema));
    if (def.type === 'union' && def.discriminator) return discriminatedOf(schema, def.discriminator as string, def.options as AnySchema[]);
    return 'JSON';
  });

  function fieldOf(t: Ref, schema: AnySchema, forceOptional = false) {
    const { inner, optional } = unwrap(schema);
    return t.field({ type: typeOf(inner), required: !(optional || forceOptional), description: fieldDescription(schema, inner) });
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
    const tag = enumOf(builder, meta.discriminatorEnum, tags);
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

/**
 * Object types of read views from their zod schemas: object → object type (each field read by its
 * name, a missing value read as null), nullable or optional → nullable, the rest as for inputs.
 * Nested objects are named in the `graphql` registry. One mapper per builder, so that a nested view
 * is one type wherever it appears.
 */
const outputMappers = new WeakMap<Builder, { typeOf: (schema: AnySchema) => Ref; fieldsOf: (t: Ref, shape: Record<string, AnySchema>, types: Record<string, Ref>, resolvers?: Record<string, Ref>) => Record<string, Ref> }>();
function outputMapper(builder: Builder) {
  const known = outputMappers.get(builder);
  if (known) return known;
  const { typeOf } = typeMapper(builder, (schema, def) =>
    def.type === 'object' ? objectOf(nameOf(schema, 'object'), def.shape as Record<string, AnySchema>, descriptionOf(schema)) : 'JSON',
  );

  // Exposed (read by name, which compiled operations inline) unless a resolver is given.
  function fieldsOf(t: Ref, shape: Record<string, AnySchema>, types: Record<string, Ref>, resolvers: Record<string, Ref> = {}): Record<string, Ref> {
    for (const field of [...Object.keys(types), ...Object.keys(resolvers)]) if (!(field in shape)) throw new Error(`The view has no field ${field}`);
    return Object.fromEntries(
      Object.entries(shape).map(([field, schema]) => {
        const { inner, optional } = unwrap(schema);
        const type = types[field] ?? typeOf(inner);
        // An enum given another type loses its values; the description that names them stays on the field.
        const description = field in types && defOf(inner).type === 'enum' ? descriptionOf(schema) : fieldDescription(schema, inner);
        const options = { type, nullable: optional, description };
        return [field, resolvers[field] ? t.field({ ...options, resolve: resolvers[field] }) : t.expose(field, options)];
      }),
    );
  }

  function objectOf(name: string, shape: Record<string, AnySchema>, description?: string): Ref {
    return builder.objectRef<Record<string, unknown>>(name).implement({ description, fields: (t: Ref) => fieldsOf(t, shape, {}) });
  }

  const mapper = { typeOf, fieldsOf };
  outputMappers.set(builder, mapper);
  return mapper;
}

export function outputTypes(builder: Builder) {
  const { typeOf } = outputMapper(builder);
  /** The object type of a read view (a named zod object), typed by what its resolvers hand it. */
  return function outputType<Parent extends object>(schema: AnySchema): ObjectRef<SubgraphSchemaTypes, Parent> {
    return typeOf(schema);
  };
}

/**
 * The fields of an object type that a read view states (the zod schema REST answers with), for the
 * `fields` of a type that adds its own (relations, GraphQL-only fields): each by its name, with the
 * view's type, nullability and description, resolved from the parent's property of that name.
 * `types` gives a field the type GraphQL says otherwise: an object type declared with relations, or
 * String for an enum whose values are not GraphQL names; `resolvers` computes a field the parent
 * does not carry under its name.
 */
export function viewFields(builder: Builder) {
  const { fieldsOf } = outputMapper(builder);
  return <Shape extends Record<string, AnySchema>>(
    t: Ref,
    view: z.ZodObject<Shape>,
    types: Partial<Record<keyof Shape & string, Ref>> = {},
    resolvers: Partial<Record<keyof Shape & string, (parent: never, args: never, ctx: never) => unknown>> = {},
  ) => fieldsOf(t, view.shape, types as Record<string, Ref>, resolvers as Record<string, Ref>);
}
