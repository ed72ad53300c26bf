// The estimated cost of an operation as the schema declares it: @cost and @listSize (the IBM cost
// directive specification, which Apollo Router, Hive and Grafbase read) on the subgraphs' fields,
// composed into schema/supergraph.graphql. Read once from the supergraph, by type and field.
import { readFileSync } from 'node:fs';
import { Kind, parse, type DirectiveNode, type ValueNode } from 'graphql';
import { supergraphPath } from '../../subgraphs/compose.ts';

/** A list with no @listSize, or no slicing argument given and no assumedSize, holds this many (router.yaml's list_size). */
export const DEFAULT_LIST_SIZE = 20;

export interface ListSize {
  assumedSize?: number;
  slicingArguments: string[];
  sizedFields: string[];
}

export interface FieldCost {
  weight?: number;
  listSize?: ListSize;
}

export interface CostModel {
  /** By "Type.field". */
  fields: Map<string, FieldCost>;
  /** @cost on object types, enums and scalars: what a field returning them weighs. */
  types: Map<string, number>;
}

const intOf = (value: ValueNode | undefined) => (value?.kind === Kind.INT ? Number(value.value) : undefined);
const stringsOf = (value: ValueNode | undefined) => (value?.kind === Kind.LIST ? value.values.flatMap((item) => (item.kind === Kind.STRING ? [item.value] : [])) : []);
const argument = (directive: DirectiveNode, name: string) => directive.arguments?.find((arg) => arg.name.value === name)?.value;
// The supergraph names them @cost and @listSize, or @cost__listSize when the link does not import it.
const isCost = (directive: DirectiveNode) => directive.name.value === 'cost';
const isListSize = (directive: DirectiveNode) => directive.name.value === 'listSize' || directive.name.value === 'cost__listSize';

export function costModelOf(supergraphSdl: string): CostModel {
  const fields = new Map<string, FieldCost>();
  const types = new Map<string, number>();
  for (const definition of parse(supergraphSdl).definitions) {
    if (!('name' in definition) || !definition.name) continue;
    const typeName = definition.name.value;
    const typeCost = 'directives' in definition ? definition.directives?.find(isCost) : undefined;
    if (typeCost) types.set(typeName, intOf(argument(typeCost, 'weight')) ?? 1);
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    for (const field of definition.fields ?? []) {
      const cost = field.directives?.find(isCost);
      const listSize = field.directives?.find(isListSize);
      if (!cost && !listSize) continue;
      fields.set(`${typeName}.${field.name.value}`, {
        weight: cost ? intOf(argument(cost, 'weight')) : undefined,
        listSize: listSize
          ? { assumedSize: intOf(argument(listSize, 'assumedSize')), slicingArguments: stringsOf(argument(listSize, 'slicingArguments')), sizedFields: stringsOf(argument(listSize, 'sizedFields')) }
          : undefined,
      });
    }
  }
  return { fields, types };
}

let model: CostModel | undefined;

/** The committed supergraph's model, read on first use. */
export const supergraphCostModel = (): CostModel => (model ??= costModelOf(readFileSync(supergraphPath, 'utf8')));
