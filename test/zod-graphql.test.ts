// GraphQL input types generated from zod request schemas (platform/graphql/zod-graphql.ts).
import { printType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBuilder } from '../platform/graphql/builder.ts';
import { enumType, graphql, inputTypes } from '../platform/graphql/zod-graphql.ts';

function schemaWith(define: (inputType: ReturnType<typeof inputTypes>, builder: ReturnType<typeof createBuilder>) => unknown): GraphQLSchema {
  const builder = createBuilder();
  const ref = define(inputTypes(builder), builder);
  builder.queryField('probe', (t) => t.boolean({ args: { input: t.arg({ type: ref as never, required: true }) }, resolve: () => true }));
  return builder.toSchema({ sortSchema: false });
}

describe('inputTypes', () => {
  it('maps fields, required-ness, ids, integers, enums, nested objects and descriptions', () => {
    const id = z.string().min(1).register(graphql, { name: 'ID' });
    const colour = z.enum(['red', 'blue']).describe('A colour.').register(graphql, { name: 'Colour' });
    const part = z.object({ label: z.string() }).strict().register(graphql, { name: 'PartInput' });
    const request = z
      .object({
        id,
        count: z.number().int().min(1),
        ratio: z.number().nullish(),
        size: z.literal([1, 3, 5]).describe('1, 3 or 5'),
        colour: colour.nullish(),
        parts: z.array(part).max(3),
        extra: z.record(z.string(), z.string()).optional(),
        on: z.boolean(),
      })
      .strict();
    const schema = schemaWith((inputType) => inputType('ProbeInput', request));
    expect(printType(schema.getType('ProbeInput')!)).toBe(
      ['input ProbeInput {', '  id: ID!', '  count: Int!', '  ratio: Float', '', '  """1, 3 or 5"""', '  size: Int!', '  colour: Colour', '  parts: [PartInput!]!', '  extra: JSON', '  on: Boolean!', '}'].join('\n'),
    );
    expect(printType(schema.getType('Colour')!)).toContain('"""A colour."""');
  });

  it('a discriminated union is one input: the discriminator required (an enum), every other field optional', () => {
    const change = z
      .discriminatedUnion('kind', [z.object({ kind: z.literal('a'), first: z.string() }).strict(), z.object({ kind: z.literal('b'), second: z.number().int() }).strict()])
      .register(graphql, { name: 'ChangeInput', discriminatorEnum: 'ChangeKind' });
    const schema = schemaWith((inputType) => inputType('ChangeInput', change));
    expect(printType(schema.getType('ChangeInput')!)).toBe('input ChangeInput {\n  kind: ChangeKind!\n  first: String\n  second: Int\n}');
    expect(printType(schema.getType('ChangeKind')!)).toBe('enum ChangeKind {\n  a\n  b\n}');
  });

  it('refuses an enum or nested object without a GraphQL name', () => {
    expect(() => schemaWith((inputType) => inputType('BadInput', z.object({ mood: z.enum(['x', 'y']) })))).toThrow(/Name this enum/);
  });
});

describe('enums', () => {
  it('one name is one enum: an output declared with the input\'s values is its type, with other values it throws', () => {
    const builder = createBuilder();
    const input = inputTypes(builder)('EnumProbeInput', z.object({ side: z.enum(['a', 'b']).register(graphql, { name: 'ProbeSide' }) }));
    expect(input).toBeDefined();
    expect(enumType(builder, 'ProbeSide', ['a', 'b'])).toBe(enumType(builder, 'ProbeSide', ['a', 'b']));
    expect(() => enumType(builder, 'ProbeSide', ['a', 'b', 'c'])).toThrow('GraphQL enum ProbeSide is declared with other values: a,b');
  });
});
