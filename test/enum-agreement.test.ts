// A field is an enum in REST exactly when it is one in GraphQL, with the same values, and is described
// alike: each route's response schema (zod) is walked beside its operation's selection (typed by the
// supergraph), and a field the two state differently fails. The REST selection is derived from the zod schema
// (selectionOf), so a response field is found at the end of a selection path of the same names.
import { readFileSync } from 'node:fs';
import { buildASTSchema, getNamedType, isEnumType, isScalarType, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLNamedType } from 'graphql';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../platform/process/paths.ts';
import { routeTable } from '../facade/routes/index.ts';

const schema = buildASTSchema(parse(readFileSync(fromRoot('schema/supergraph.graphql'), 'utf8')), { assumeValidSDL: true });

/** Where REST and GraphQL may differ, and why. */
const ALLOWED: Record<string, string> = {
  'status:pending,failed,succeeded,dead-letter': 'a webhook delivery status: dead-letter is not a GraphQL enum value',
};

type AnySchema = z.core.$ZodType;
const defOf = (s: AnySchema) => s._zod.def as unknown as Record<string, unknown> & { type: string };

/** The leaves of a response schema: their path (object keys) and enum values, or null for a string. */
function leavesOf(s: AnySchema, path: string[] = [], out: { path: string[]; values: string[] | null }[] = [], seen = new Set<AnySchema>()) {
  if (seen.has(s)) return out;
  seen.add(s);
  const def = defOf(s);
  if (['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(def.type)) leavesOf(def.innerType as AnySchema, path, out, seen);
  else if (def.type === 'array') leavesOf(def.element as AnySchema, path, out, seen);
  else if (def.type === 'object') for (const [key, value] of Object.entries(def.shape as Record<string, AnySchema>)) leavesOf(value, [...path, key], out, new Set(seen));
  else if (def.type === 'enum') out.push({ path, values: Object.values(def.entries as Record<string, string>).map(String) });
  else if (def.type === 'string' && path.length) out.push({ path, values: null });
  return out;
}

/** Every field an operation selects: its response path, its named type, whether it is a leaf, its description. */
function selectionFields(document: ReturnType<typeof parse>) {
  const typeInfo = new TypeInfo(schema);
  const path: string[] = [];
  const fields: { path: string[]; type: GraphQLNamedType | undefined; leaf: boolean; description: string | null | undefined }[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          path.push(node.alias?.value ?? node.name.value);
          const type = typeInfo.getType();
          fields.push({ path: [...path], type: type ? getNamedType(type) : undefined, leaf: !node.selectionSet, description: typeInfo.getFieldDef()?.description });
        },
        leave() {
          path.pop();
        },
      },
    }),
  );
  return fields;
}

/** The described fields of a response schema: their path and the description REST gives them. */
function describedFieldsOf(s: AnySchema, path: string[] = [], out: { path: string[]; description: string }[] = [], seen = new Set<AnySchema>()) {
  if (seen.has(s)) return out;
  seen.add(s);
  const def = defOf(s);
  if (['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(def.type)) describedFieldsOf(def.innerType as AnySchema, path, out, seen);
  else if (def.type === 'array') describedFieldsOf(def.element as AnySchema, path, out, seen);
  else if (def.type === 'object') {
    for (const [key, value] of Object.entries(def.shape as Record<string, AnySchema>)) {
      const description = fieldDescriptionOf(value);
      if (description) out.push({ path: [...path, key], description });
      describedFieldsOf(value, [...path, key], out, new Set(seen));
    }
  }
  return out;
}

/** A field's own description: on the field or a wrapper of it, not an enum's or a named object's own. */
function fieldDescriptionOf(s: AnySchema): string | undefined {
  const own = (s as z.ZodType).description;
  const def = defOf(s);
  if (['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(def.type)) {
    const inner = def.innerType as AnySchema;
    return own !== undefined && own !== (inner as z.ZodType).description ? own : fieldDescriptionOf(inner);
  }
  if (def.type === 'enum') return undefined;
  if (def.type === 'object') {
    const parent = (s._zod as { parent?: AnySchema }).parent;
    return parent && (parent as z.ZodType).description !== own ? own : undefined;
  }
  return own;
}


const endsWith = (path: string[], tail: string[]) => tail.length <= path.length && tail.every((name, i) => path[path.length - tail.length + i] === name);

describe('REST and GraphQL', () => {
  it('agree on which fields are enums and on their values', () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const row of routeTable) {
      const selection = selectionFields(row.operation.document).filter((field) => field.leaf && field.type) as { path: string[]; type: GraphQLNamedType }[];
      for (const leaf of leavesOf(row.success.schema as AnySchema)) {
        const matches = selection.filter((field) => endsWith(field.path, leaf.path));
        // The longest REST path that a selection ends with: a field of the answer, not a namesake.
        for (const field of matches) {
          compared += 1;
          const graphqlValues = isEnumType(field.type) ? field.type.getValues().map((value) => value.value as string) : null;
          if (!isEnumType(field.type) && !isScalarType(field.type)) continue;
          const rest = leaf.values ? `enum ${leaf.values.join(',')}` : 'string';
          const graphql = graphqlValues ? `enum ${graphqlValues.join(',')}` : field.type.name;
          const agree = leaf.values ? graphqlValues?.join() === leaf.values.join() : !graphqlValues;
          if (!agree && !ALLOWED[`${leaf.path.at(-1)}:${leaf.values?.join(',')}`]) disagreements.push(`${row.operationId} ${leaf.path.join('.')}: REST ${rest}, GraphQL ${graphql}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect([...new Set(disagreements)]).toEqual([]);
  });

  it('describe a field alike: what REST says of a field, GraphQL says of it too', () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const row of routeTable) {
      const selection = selectionFields(row.operation.document);
      for (const field of describedFieldsOf(row.success.schema as AnySchema)) {
        // The shortest selection path that ends with the REST path: the field itself, not a namesake deeper down.
        const candidates = selection.filter((candidate) => endsWith(candidate.path, field.path));
        const shortest = Math.min(...candidates.map((candidate) => candidate.path.length));
        for (const match of candidates.filter((candidate) => candidate.path.length === shortest)) {
          compared += 1;
          if (match.description !== field.description) {
            disagreements.push(`${row.operationId} ${field.path.join('.')}: REST "${field.description}", GraphQL "${match.description ?? ''}"`);
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect([...new Set(disagreements)]).toEqual([]);
  });
});
