// The admission checks of /graphql and the gateway are linear in the document's size: whatever the
// document, measuring it takes a bounded walk, and a document they admit leaves graphql-js's
// validation bounded work too. The measurement itself is held to the naive one (fragments expanded
// by recursion, as it was before the walk was bounded) on documents small enough to expand.
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import fc from 'fast-check';
import {
  GraphQLError,
  Kind,
  getIntrospectionQuery,
  getNamedType,
  getOperationAST,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS, measureDocument } from '../facade/graphql/limits.ts';
import { ApiError } from '../platform/api/errors.ts';
import { supergraphPath } from '../subgraphs/compose.ts';

let gateway: ApolloGateway;
let schema: GraphQLSchema;
beforeAll(async () => {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  gateway = new ApolloGateway({ supergraphSdl: readFileSync(supergraphPath, 'utf8') });
  await gateway.load();
  schema = gateway.schema!;
});
afterAll(() => gateway?.stop());

const rep = (n: number, make: (i: number) => string, separator = ' ') => Array.from({ length: n }, (_, i) => make(i)).join(separator);

type Outcome = { costs: Record<string, number> } | { refused: string };

function admission(document: DocumentNode): Outcome {
  try {
    const operation = getOperationAST(document) ?? (document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode);
    return { costs: { ...measureDocument(schema, document, operation, {}) } };
  } catch (error) {
    if (error instanceof ApiError) return { refused: (error.details?.[0] as { field: string }).field };
    throw error;
  }
}

/**
 * The CPU time (ms) of the fastest of a few runs: what the work costs this process, not what the
 * other processes of a busy machine add to the wall clock while it waits for a core.
 */
function fastest(run: () => void, times = 5): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

// Documents of at most 5,000 tokens that once took seconds (or would), each of a kind: chains of
// fragments that spread the next one twice (the expansion doubles per link), wide fan-outs, cycles,
// fragments no operation uses, repeated fields with arguments (field-merging validation compares
// every pair), directive floods, many operations over one fragment, many variables.
export const HOSTILE_DOCUMENTS: Record<string, string> = {
  chain23: `{ ...F0 } ${rep(23, (i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`)} fragment F23 on Query { __typename }`,
  chain30: `{ ...F0 } ${rep(30, (i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`)} fragment F30 on Query { __typename }`,
  chain30Cycle: `{ ...F0 } ${rep(30, (i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`)} fragment F30 on Query { ...F0 }`,
  chain30Unused: `{ __typename } ${rep(30, (i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`)} fragment F30 on Query { __typename }`,
  chain30Inline: `{ ...F0 } ${rep(30, (i) => `fragment F${i} on Query { ... on Query { ...F${i + 1} } ... on Query { ...F${i + 1} } }`)} fragment F30 on Query { __typename }`,
  chain30Nested: `{ ...F0 } ${rep(30, (i) => `fragment F${i} on __Type { ofType { ...F${i + 1} ...F${i + 1} } }`)} fragment F30 on __Type { name }`.replace('{ ...F0 }', '{ __type(name: "Query") { ...F0 } }'),
  fanOut: `{ ...F0 } ${rep(4, (i) => `fragment F${i} on Query { ${rep(100, () => `...F${i + 1}`)} }`)} fragment F4 on Query { __typename }`,
  fanOutWide: `{ ${rep(900, () => '...F')} } fragment F on Query { __typename }`,
  spreadPairs: `{ ${rep(400, (i) => `...F${i}`)} } ${rep(400, (i) => `fragment F${i} on Query { __typename }`)}`,
  repeatedWithArguments: `{ __type(name: "Query") { ${rep(490, () => 'fields(includeDeprecated: true) { name }')} } }`,
  repeatedNested: `{ __type(name: "Query") { ${rep(10, () => `fields(includeDeprecated: true) { ${rep(10, () => `type { ${rep(9, () => 'name')} }`)} }`)} } }`,
  repeatedLeaves: `{ ${rep(999, () => '__typename')} }`,
  repeatedLeavesWithDirectives: `{ ${rep(300, () => '__typename @include(if: true) @skip(if: false)')} }`,
  repeatedRootArguments: `{ ${rep(700, () => '__type(name: "Query") { name }')} }`,
  directiveFlood: `{ __typename ${rep(1600, () => '@include(if: true)')} }`,
  directivesOnSpreads: `{ ${rep(300, () => '...F @include(if: true) @skip(if: false)')} } fragment F on Query { __typename }`,
  directivesOnFragments: `{ ...F } fragment F on Query ${rep(1200, () => '@include(if: true)')} { __typename }`,
  manyOperations: `${rep(600, (i) => `query Q${i} { ...F }`)} fragment F on Query { __typename }`,
  operationsOverChain: `${rep(300, (i) => `query Q${i} { ...F0 }`)} ${rep(150, (i) => `fragment F${i} on Query { ...F${i + 1} }`)} fragment F150 on Query { __typename }`,
  manyVariables: `query(${rep(1200, (i) => `$v${i}: Int`)}) { __typename }`,
  hugeLimit: `{ organisationEvents(organisationId: "org_demo", limit: ${'9'.repeat(400)}) { data { id } } }`,
};

describe('GraphQL admission is linear in the document', () => {
  it('measures each hostile document, and validates what it admits, in well under 100 ms', () => {
    for (const [name, text] of Object.entries(HOSTILE_DOCUMENTS)) {
      let document: DocumentNode;
      try {
        document = parse(text, { maxTokens: GRAPHQL_LIMITS.tokens });
      } catch (error) {
        expect((error as GraphQLError).message, name).toMatch(/more th\w+ 5000 tokens/);
        continue;
      }
      let outcome: Outcome = { refused: '' };
      const measuring = fastest(() => (outcome = admission(document)));
      expect(measuring, `${name}: measured in ${measuring.toFixed(1)} ms`).toBeLessThan(50);
      if ('costs' in outcome) {
        // What the admission let through, Apollo Server validates: that too stays bounded.
        const validating = fastest(() => validate(schema, document));
        expect(validating, `${name}: validated in ${validating.toFixed(1)} ms`).toBeLessThan(50);
      }
    }
    // The examples of the issue are refused by the walk's budget, before anything expands them.
    for (const name of ['chain23', 'chain30', 'chain30Unused', 'fanOut']) {
      expect(admission(parse(HOSTILE_DOCUMENTS[name])), name).toEqual({ refused: expect.stringMatching(/^(selections|fieldMerges)$/) });
    }
    expect(admission(parse(HOSTILE_DOCUMENTS.repeatedWithArguments))).toEqual({ refused: 'fieldMerges' });
    expect(admission(parse(HOSTILE_DOCUMENTS.repeatedLeavesWithDirectives))).toEqual({ refused: 'fieldMerges' });
    expect(admission(parse(HOSTILE_DOCUMENTS.hugeLimit))).toEqual({ refused: 'cost' });
  });

  it('lets ordinary documents through: the standard introspection query, fragments that repeat a few fields', () => {
    expect(admission(parse(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })))).toHaveProperty('costs');
    const colocated = `query Page { event(id: "evt_open") { id ${rep(40, (i) => `...Part${i}`)} } } ${rep(40, (i) => `fragment Part${i} on Event { id name state stages { id name } }`)}`;
    expect(admission(parse(colocated))).toHaveProperty('costs');
  });

  it('measures generated documents in bounded time, whatever their fragments', () => {
    const fragmentCount = 40;
    const selection = fc.oneof(
      fc.constantFrom('__typename', 'authContext { scopes }', 'event(id: "evt_open") { id name }', '... on Query { __typename }'),
      fc.nat(fragmentCount - 1).map((i) => `...F${i}`),
      fc.nat(fragmentCount - 1).map((i) => `...F${i} @include(if: true)`),
    );
    const documents = fc
      .array(fc.array(selection, { minLength: 1, maxLength: 12 }), { minLength: fragmentCount, maxLength: fragmentCount })
      .map((bodies) => `{ ...F0 } ${bodies.map((body, i) => `fragment F${i} on Query { ${body.join(' ')} }`).join(' ')}`);
    fc.assert(
      fc.property(documents, (text) => {
        const document = parse(text, { maxTokens: GRAPHQL_LIMITS.tokens });
        let outcome: Outcome = { refused: '' };
        const measuring = fastest(() => (outcome = admission(document)), 2);
        expect(measuring).toBeLessThan(25);
        if ('costs' in outcome) expect(fastest(() => validate(schema, document), 2)).toBeLessThan(50);
      }),
      { numRuns: 150 },
    );
  });

  it('measures what the naive expansion measured, on documents small enough to expand', () => {
    const fields = [
      '__typename',
      'authContext { scopes applicationId }',
      'event(id: "evt_open") { id name stages { id } }',
      'a: esportsMatch(matchId: "esm_final") { id }',
      'organisationEvents(organisationId: "org_demo", limit: 7) { data { id organisation { name } } }',
      'esportsEvents { data { id } }',
      '__schema { types { name fields { name } } }',
      '... on Query { team(id: "team_alpha") { id } }',
    ];
    const fragmentCount = 6;
    const item = (index: number) =>
      fc.oneof(
        fc.constantFrom(...fields),
        // Spreads only of later fragments: no cycles, and at most 3 × 3 × … copies.
        ...(index + 1 < fragmentCount ? [fc.integer({ min: index + 1, max: fragmentCount - 1 }).map((i) => `...F${i}`)] : []),
      );
    const documents = fc
      .tuple(...Array.from({ length: fragmentCount }, (_, index) => fc.array(item(index), { minLength: 1, maxLength: 3 })), fc.array(fc.constantFrom(...fields), { maxLength: 3 }))
      .map((parts) => {
        const bodies = parts.slice(0, fragmentCount) as string[][];
        const own = parts[fragmentCount] as string[];
        // The operation spreads every fragment, so that no fragment is measured on its own only.
        return `{ ${own.join(' ')} ${bodies.map((_, i) => `...F${i}`).join(' ')} } ${bodies.map((body, i) => `fragment F${i} on Query { ${body.join(' ')} }`).join(' ')}`;
      });
    fc.assert(
      fc.property(documents, (text) => {
        const document = parse(text);
        const operation = getOperationAST(document)!;
        const outcome = admission(document);
        // The budgets that bound the walk are new: where they refuse, there is nothing to compare.
        fc.pre(!('refused' in outcome && ['selections', 'fieldMerges'].includes(outcome.refused)));
        expect(outcome).toEqual(naiveMeasure(schema, document, operation));
      }),
      { numRuns: 300 },
    );
  });
});

// The measurement as it was before its walk was bounded: fragments expanded by plain recursion.
// Exponential on hostile documents, exact on small ones: the reference for the costs.
function naiveMeasure(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Outcome {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const totals = { depth: 0, aliases: 0, fields: 0 };
  const rootType = schema.getQueryType()!;
  class Over extends Error {
    constructor(readonly limit: string) {
      super(limit);
    }
  }
  const intValue = (node: ValueNode | undefined) => (node?.kind === Kind.INT ? Number(node.value) : undefined);
  const fieldOf = (parent: GraphQLCompositeType | null, name: string) => {
    if (name === '__typename') return TypeNameMetaFieldDef;
    if (parent === rootType && name === '__schema') return SchemaMetaFieldDef;
    if (parent === rootType && name === '__type') return TypeMetaFieldDef;
    if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
    return parent.getFields()[name];
  };
  const lists = new Set(['types', 'fields', 'args', 'inputFields', 'interfaces', 'possibleTypes', 'enumValues', 'directives']);
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType | null, depth: number, listSize: number | undefined, nesting: number, active: Set<string>): { cost: number; rootFields: number } => {
    let cost = 0;
    let rootFields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += visit(selection, parent, depth, listSize, nesting, active);
        if (selection.name.value !== '__typename') rootFields++;
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        if (!fragment) continue;
        const name = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : undefined;
        if (name && active.has(name)) continue;
        const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        const inner = walk(fragment.selectionSet, condition && isCompositeType(condition) ? condition : null, depth, listSize, nesting, name ? new Set([...active, name]) : active);
        cost += inner.cost;
        rootFields += inner.rootFields;
      }
    }
    return { cost, rootFields };
  };
  const visit = (node: FieldNode, parent: GraphQLCompositeType | null, parentDepth: number, listSize: number | undefined, introspectionLists: number, active: Set<string>): number => {
    const depth = parentDepth + 1;
    totals.fields++;
    if (node.alias) totals.aliases++;
    totals.depth = Math.max(totals.depth, depth);
    if (totals.fields > GRAPHQL_LIMITS.fields) throw new Over('fields');
    if (totals.aliases > GRAPHQL_LIMITS.aliases) throw new Over('aliases');
    if (depth > GRAPHQL_LIMITS.depth) throw new Over('depth');
    const name = node.name.value;
    const introspection = name.startsWith('__');
    const type = fieldOf(parent, name)?.type;
    const named = type ? getNamedType(type) : null;
    const composite = named ? isCompositeType(named) : Boolean(node.selectionSet);
    const list = type ? isListType(isNonNullType(type) ? type.ofType : type) : false;
    let nesting = introspectionLists;
    if (introspection || (parent && parent.name.startsWith('__'))) {
      if (list && lists.has(name)) nesting++;
      if (nesting > GRAPHQL_LIMITS.introspectionListNesting) throw new Over('introspectionListNesting');
    }
    const limit = intValue(node.arguments?.find((argument) => argument.name.value === 'limit')?.value);
    const size = list ? (limit ?? listSize ?? 20) : 1;
    const inner = node.selectionSet ? walk(node.selectionSet, named && isCompositeType(named) ? named : null, depth, limit, nesting, active).cost : 0;
    const free = introspection || (parent?.name.startsWith('__') ?? false);
    const own = free ? 0 : (composite ? 1 : 0) + (parent === rootType && name.startsWith('esports') ? 10 : 0);
    return Math.max(1, size) * (own + inner);
  };
  try {
    const { cost, rootFields } = walk(operation.selectionSet, rootType, 0, undefined, 0, new Set());
    if (rootFields > GRAPHQL_LIMITS.rootFields) throw new Over('rootFields');
    if (cost > GRAPHQL_LIMITS.cost) throw new Over('cost');
    return { costs: { ...totals, rootFields, cost } };
  } catch (error) {
    if (error instanceof Over) return { refused: error.limit };
    throw error;
  }
}
