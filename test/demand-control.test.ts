// Demand control is declared in the schema: @cost and @listSize on the subgraphs' fields, composed
// into the supergraph, are what /graphql's admission estimates with (facade/graphql/cost-model.ts).
import { readFileSync } from 'node:fs';
import { buildASTSchema, parse, type ObjectTypeDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { supergraphPath } from '../subgraphs/compose.ts';
import { costModelOf, supergraphCostModel } from '../facade/graphql/cost-model.ts';

const sdl = readFileSync(supergraphPath, 'utf8');

describe('@cost and @listSize in the supergraph', () => {
  it('every field with a limit argument declares the list size it slices, so that no page counts as 20 whatever its limit', () => {
    const model = supergraphCostModel();
    const paged: string[] = [];
    for (const definition of parse(sdl).definitions) {
      if (definition.kind !== 'ObjectTypeDefinition') continue;
      for (const field of (definition as ObjectTypeDefinitionNode).fields ?? []) {
        if (!field.arguments?.some((argument) => argument.name.value === 'limit')) continue;
        const coordinate = `${definition.name.value}.${field.name.value}`;
        paged.push(coordinate);
        expect(model.fields.get(coordinate)?.listSize?.slicingArguments, coordinate).toEqual(['limit']);
      }
    }
    expect(paged.length).toBeGreaterThan(25);
  });

  it('every metered esports field declares its weight (a billed call and a statement)', () => {
    const model = supergraphCostModel();
    const query = buildASTSchema(parse(sdl), { assumeValidSDL: true }).getQueryType()!;
    const metered = Object.keys(query.getFields()).filter((name) => name.startsWith('esports'));
    expect(metered.length).toBeGreaterThan(5);
    for (const name of metered) expect(model.fields.get(`Query.${name}`)?.weight, name).toBe(11);
  });

  it('reads both spellings of @listSize, type weights and assumed sizes', () => {
    const model = costModelOf(`
      type Query { a(first: Int, last: Int): [T] @cost__listSize(slicingArguments: ["first", "last"], assumedSize: 5) b: T @cost(weight: 3) }
      type T @cost(weight: 2) { c: [T] @listSize(assumedSize: 7, sizedFields: ["d"]) }
    `);
    expect(model.fields.get('Query.a')).toEqual({ weight: undefined, listSize: { assumedSize: 5, slicingArguments: ['first', 'last'], sizedFields: [] } });
    expect(model.fields.get('Query.b')).toEqual({ weight: 3, listSize: undefined });
    expect(model.fields.get('T.c')?.listSize).toEqual({ assumedSize: 7, slicingArguments: [], sizedFields: ['d'] });
    expect(model.types.get('T')).toBe(2);
  });
});
