// Limits on a GraphQL operation, checked on the parsed document before anything else looks at it
// (validation, planning, execution), so that an oversized or abusive operation costs a parse and one
// bounded walk, and is refused with an error that names the limit. The numbers are documented in
// docs/graphql.md; router.yaml gives Apollo Router the same ones for the distributed topology.
import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  getNamedType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { ApiError } from '../../subgraphs/shared/errors.ts';

export const GRAPHQL_LIMITS = {
  /** Bytes of the query text. */
  documentBytes: 32 * 1024,
  /** Lexical tokens of the query text (graphql-js stops parsing past it). */
  tokens: 5_000,
  /** Fields on the longest path, leaves included. */
  depth: 15,
  /** Aliased fields in the operation, fragments expanded. */
  aliases: 30,
  /** Fields at the root of the operation. */
  rootFields: 20,
  /** Field selections in the operation, fragments expanded. */
  fields: 1_000,
  /** Estimated cost (see estimate below). */
  cost: 5_000,
  /** Introspection lists (types, fields, args, …) nested in one another. */
  introspectionListNesting: 3,
} as const;

/** A list without a limit argument is assumed to hold this many items. */
export const ASSUMED_LIST_SIZE = 20;
/** What a metered field adds: each alias of it is a billed call and a statement. */
export const METERED_FIELD_COST = 10;
const isMetered = (field: string) => field.startsWith('esports');

const INTROSPECTION_LISTS = new Set(['types', 'fields', 'args', 'inputFields', 'interfaces', 'possibleTypes', 'enumValues', 'directives']);

export interface OperationCosts {
  depth: number;
  aliases: number;
  rootFields: number;
  fields: number;
  cost: number;
}

class LimitExceeded extends Error {
  constructor(readonly limit: keyof typeof GRAPHQL_LIMITS, readonly detail: string) {
    super(detail);
  }
}

export function limitError(limit: keyof typeof GRAPHQL_LIMITS, message: string): ApiError {
  return new ApiError('validation_failed', message, [{ field: limit, issue: 'limit_exceeded' }]);
}

/** Refuses a query text over the size limit before it is parsed. */
export function checkDocumentSize(query: string): void {
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > GRAPHQL_LIMITS.documentBytes) {
    throw limitError('documentBytes', `The query is ${bytes} bytes long; at most ${GRAPHQL_LIMITS.documentBytes} are accepted.`);
  }
}

function intValue(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
}

function fieldOf(parent: GraphQLCompositeType | null, name: string, rootType: GraphQLCompositeType | null | undefined): GraphQLField<unknown, unknown> | undefined {
  // Meta fields are not among a type's own fields.
  if (name === '__typename') return TypeNameMetaFieldDef;
  if (parent && parent === rootType && name === '__schema') return SchemaMetaFieldDef;
  if (parent && parent === rootType && name === '__type') return TypeMetaFieldDef;
  if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
  return parent.getFields()[name];
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/**
 * Walks the operation with its fragments expanded and returns what it would cost; throws
 * LimitExceeded as soon as one limit is passed, so the walk itself is bounded by the limits.
 *
 * Cost: a field that returns an object costs 1, a leaf 0, a metered field 10 more; a list field
 * multiplies what it and its selection cost by its size: the `limit` argument given to it or to the
 * field that holds it (a page's `data`), else 20. Introspection fields cost nothing (they never
 * reach the database) but their lists may nest at most three deep.
 */
export function measureOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): OperationCosts {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const totals = { depth: 0, aliases: 0, fields: 0 };
  const rootType =
    operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();

  const walk = (
    selectionSet: SelectionSetNode,
    parent: GraphQLCompositeType | null,
    depth: number,
    listSize: number | undefined,
    introspectionLists: number,
    activeFragments: Set<string>,
  ): { cost: number; rootFields: number } => {
    let cost = 0;
    let rootFields = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const result = visitField(selection, parent, depth, listSize, introspectionLists, activeFragments);
        cost += result;
        if (selection.name.value !== '__typename') rootFields++;
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        if (!fragment) continue; // validation will refuse the unknown fragment
        const name = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : undefined;
        if (name && activeFragments.has(name)) continue; // a cycle: validation will refuse it
        const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        const inner = new Set(activeFragments);
        if (name) inner.add(name);
        const result = walk(fragment.selectionSet, condition && isCompositeType(condition) ? condition : null, depth, listSize, introspectionLists, inner);
        cost += result.cost;
        rootFields += result.rootFields;
      }
    }
    return { cost, rootFields };
  };

  const visitField = (
    node: FieldNode,
    parent: GraphQLCompositeType | null,
    parentDepth: number,
    listSize: number | undefined,
    introspectionLists: number,
    activeFragments: Set<string>,
  ): number => {
    const depth = parentDepth + 1;
    totals.fields++;
    if (node.alias) totals.aliases++;
    totals.depth = Math.max(totals.depth, depth);
    if (totals.fields > GRAPHQL_LIMITS.fields) {
      throw new LimitExceeded('fields', `The operation selects more than ${GRAPHQL_LIMITS.fields} fields (fragments expanded).`);
    }
    if (totals.aliases > GRAPHQL_LIMITS.aliases) {
      throw new LimitExceeded('aliases', `The operation uses more than ${GRAPHQL_LIMITS.aliases} aliases.`);
    }
    if (depth > GRAPHQL_LIMITS.depth) {
      throw new LimitExceeded('depth', `The operation is nested more than ${GRAPHQL_LIMITS.depth} fields deep.`);
    }
    const name = node.name.value;
    const introspection = name.startsWith('__');
    const field = fieldOf(parent, name, rootType);
    const type = field?.type;
    const named = type ? getNamedType(type) : null;
    const composite = named ? isCompositeType(named) : Boolean(node.selectionSet);
    const list = type ? isList(type) : false;
    let nesting = introspectionLists;
    if (introspection || (parent && parent.name.startsWith('__'))) {
      if (list && INTROSPECTION_LISTS.has(name)) nesting++;
      if (nesting > GRAPHQL_LIMITS.introspectionListNesting) {
        throw new LimitExceeded('introspectionListNesting', `Introspection lists nest at most ${GRAPHQL_LIMITS.introspectionListNesting} deep.`);
      }
    }
    const limitArgument = intValue(node.arguments?.find((argument) => argument.name.value === 'limit')?.value, variables);
    const size = list ? (limitArgument ?? listSize ?? ASSUMED_LIST_SIZE) : 1;
    const inner = node.selectionSet
      ? walk(node.selectionSet, named && isCompositeType(named) ? named : null, depth, limitArgument, nesting, activeFragments).cost
      : 0;
    const free = introspection || (parent?.name.startsWith('__') ?? false);
    const own = free ? 0 : (composite ? 1 : 0) + (parent === rootType && isMetered(name) ? METERED_FIELD_COST : 0);
    return Math.max(1, size) * (own + inner);
  };

  try {
    const { cost, rootFields } = walk(operation.selectionSet, rootType ?? null, 0, undefined, 0, new Set());
    if (rootFields > GRAPHQL_LIMITS.rootFields) {
      throw new LimitExceeded('rootFields', `The operation asks for ${rootFields} root fields; at most ${GRAPHQL_LIMITS.rootFields}.`);
    }
    if (cost > GRAPHQL_LIMITS.cost) {
      throw new LimitExceeded('cost', `The operation's estimated cost is ${cost}; at most ${GRAPHQL_LIMITS.cost} (lists count with their limit, 20 when none is given).`);
    }
    return { ...totals, rootFields, cost };
  } catch (error) {
    if (error instanceof LimitExceeded) throw limitError(error.limit, error.detail);
    throw error;
  }
}
