// Limits on a GraphQL document, checked on the parsed document before anything else looks at it
// (validation, planning, execution), so that an oversized or abusive operation costs a parse and one
// bounded walk, linear in the document's size, and is refused with an error that names the limit. The numbers are documented in
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
import { ApiError } from '../../platform/api/errors.ts';
import { DEFAULT_LIST_SIZE, supergraphCostModel, type ListSize } from './cost-model.ts';

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
  /** Fields, fragment spreads and inline fragments of the whole document, fragments expanded. */
  selections: 5_000,
  /**
   * Pairs that field-merging validation compares, fragments expanded and weighed by what each
   * comparison costs: fields answering under one response key at one place, and each fragment
   * spread with the fields and spreads beside it.
   */
  fieldMerges: 50_000,
  /**
   * List values written in the document nested in one another (as for a JSON body's depth): deeper
   * ones overflow the parser's stack, and the gateway's planner walks each level twice.
   */
  listNesting: 32,
} as const;


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

/** Refuses a query text over the size limit, or with list values nested too deep, before it is parsed. */
export function checkDocumentSize(query: string): void {
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > GRAPHQL_LIMITS.documentBytes) {
    throw limitError('documentBytes', `The query is ${bytes} bytes long; at most ${GRAPHQL_LIMITS.documentBytes} are accepted.`);
  }
  if (listNesting(query) > GRAPHQL_LIMITS.listNesting) {
    throw limitError('listNesting', `The query nests list values more than ${GRAPHQL_LIMITS.listNesting} deep.`);
  }
}

/** The deepest nesting of [ outside strings and comments (a variable's list type counts too: it is shallow). */
function listNesting(query: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < query.length; i++) {
    const char = query[i];
    if (char === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (char === '"') {
      if (query.startsWith('"""', i)) {
        const end = query.indexOf('"""', i + 3);
        // Block strings escape only \""": skip escaped triples.
        let close = end;
        while (close > 0 && query[close - 1] === '\\') close = query.indexOf('"""', close + 3);
        i = close < 0 ? query.length : close + 2;
      } else {
        i++;
        while (i < query.length && query[i] !== '"' && query[i] !== '\n') i += query[i] === '\\' ? 2 : 1;
      }
    } else if (char === '[') {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === ']') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

function intValue(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  // A huge literal (Number('9'.repeat(400)) is Infinity) counts as the largest cost there is.
  const finite = (value: number) => (Number.isFinite(value) ? value : MAX_COST);
  if (node.kind === Kind.INT) return finite(Number(node.value));
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return typeof value === 'number' ? finite(value) : undefined;
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
 * Where fields meet in the response, fragments expanded: the fields that answer under one response
 * key at one place, and the fragment spreads and fields directly below it. Field-merging validation
 * (graphql-js's OverlappingFieldsCanBeMerged) compares such fields pairwise, and each spread with the
 * fields and spreads beside it, so these counts bound its work.
 */
interface Place {
  children: Map<string, Place> | null;
  /** Fields answering at this place, and what comparing one pair of them weighs (the heaviest seen). */
  occurrences: number;
  weight: number;
  /** Fields and fragment spreads directly below it. */
  fields: number;
  spreads: number;
}

const newPlace = (): Place => ({ children: null, occurrences: 0, weight: 0, fields: 0, spreads: 0 });

/**
 * What comparing a field with another of its response key weighs, against comparing a field with a
 * fragment spread or two spreads (1): measured with graphql-js 16's OverlappingFieldsCanBeMerged,
 * a pair of plain leaves (no arguments, directives or selections: its fast path) costs about as much
 * as the latter, any other pair some ten times more, and each argument (printed and compared) some
 * fifty times more.
 */
const pairWeight = (node: FieldNode) =>
  !node.selectionSet && !node.arguments?.length && !node.directives?.length ? 1 : 11 + 50 * (node.arguments?.length ?? 0);

/** What every definition of a document shares: the work budgets of the walk. */
interface Budget {
  selections: number;
  fieldMerges: number;
}

/**
 * Walks one definition (an operation, or a fragment on its type condition) with its fragments
 * expanded and returns what it would cost; throws LimitExceeded as soon as one limit is passed. Every
 * step of the walk (a field, a fragment spread, an inline fragment) counts against the document's
 * `selections` budget, so the walk is bounded whatever the document: a chain of fragments that spread
 * the next one twice expands exponentially, and is refused after `selections` steps.
 *
 * Cost, as the schema declares it (cost-model.ts): a field weighs its @cost, else its type's, else 1
 * when it returns an object and 0 for a leaf (metered esports fields declare 11: each alias is a
 * billed call and a statement); a list field multiplies what it and its selection cost by its size:
 * the largest slicing argument its @listSize names (`limit`), else its assumedSize, else 20; a field
 * whose @listSize names sizedFields (a page's `data`) sizes those children instead. Introspection
 * fields cost nothing (they never reach the database) but their lists may nest at most three deep.
 */
function walkDefinition(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  rootType: GraphQLCompositeType | null,
  selectionSet: SelectionSetNode,
  parentType: GraphQLCompositeType | null,
  variables: Record<string, unknown>,
  budget: Budget,
  reached: Set<string>,
): OperationCosts {
  const totals = { depth: 0, aliases: 0, fields: 0 };
  const model = supergraphCostModel();
  // The fragments being expanded on the current path: a spread of one of them is a cycle, which
  // validation refuses; the walk skips it. One set, added to and removed from as the walk goes.
  const active = new Set<string>();

  const step = () => {
    if (--budget.selections < 0) {
      throw new LimitExceeded(
        'selections',
        `The document expands to more than ${GRAPHQL_LIMITS.selections} selections (fields, fragment spreads and inline fragments, fragments expanded).`,
      );
    }
  };
  const merge = (pairs: number) => {
    budget.fieldMerges -= pairs;
    if (budget.fieldMerges < 0) {
      throw new LimitExceeded(
        'fieldMerges',
        `The document repeats fields and fragments at the same place of the response too often (more than ${GRAPHQL_LIMITS.fieldMerges} pairs to compare, fragments expanded).`,
      );
    }
  };

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLCompositeType | null,
    place: Place,
    depth: number,
    sized: Sized | undefined,
    introspectionLists: number,
  ): { cost: number; rootFields: number } => {
    let cost = 0;
    let rootFields = 0;
    for (const selection of set.selections) {
      step();
      if (selection.kind === Kind.FIELD) {
        cost += visitField(selection, parent, place, depth, sized, introspectionLists);
        if (selection.name.value !== '__typename') rootFields++;
        continue;
      }
      const name = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : undefined;
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(name!);
      if (!fragment) continue; // validation will refuse the unknown fragment
      if (name) {
        if (active.has(name)) continue; // a cycle: validation will refuse it
        // A spread is compared with every field and spread beside it.
        place.spreads++;
        merge(place.spreads - 1 + place.fields);
        active.add(name);
        reached.add(name);
      }
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
      try {
        const inner = walk(fragment.selectionSet, condition && isCompositeType(condition) ? condition : null, place, depth, sized, introspectionLists);
        cost += inner.cost;
        rootFields += inner.rootFields;
      } finally {
        if (name) active.delete(name);
      }
    }
    return { cost, rootFields };
  };

  const visitField = (
    node: FieldNode,
    parent: GraphQLCompositeType | null,
    parentPlace: Place,
    parentDepth: number,
    sized: Sized | undefined,
    introspectionLists: number,
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
    // Compared with every field of its response key and every spread beside it.
    const key = node.alias?.value ?? node.name.value;
    const children = (parentPlace.children ??= new Map());
    let place = children.get(key);
    if (!place) children.set(key, (place = newPlace()));
    place.occurrences++;
    place.weight = Math.max(place.weight, pairWeight(node));
    parentPlace.fields++;
    merge((place.occurrences - 1) * place.weight + parentPlace.spreads);

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
    const declared = parent ? model.fields.get(`${parent.name}.${name}`) : undefined;
    const listSize = declared?.listSize;
    const slice = listSize ? sliceOf(node, listSize, variables) : undefined;
    // Sized by the field that holds it (a page's data), else by its own @listSize, else the default.
    const ownSize = sized?.fields.includes(name) ? sized.size : listSize && !listSize.sizedFields.length ? slice : undefined;
    const size = Math.min(list ? (ownSize ?? DEFAULT_LIST_SIZE) : 1, MAX_COST);
    const inner = node.selectionSet
      ? walk(node.selectionSet, named && isCompositeType(named) ? named : null, place, depth, listSize?.sizedFields.length ? { fields: listSize.sizedFields, size: slice } : undefined, nesting).cost
      : 0;
    const free = introspection || (parent?.name.startsWith('__') ?? false);
    const own = free ? 0 : (declared?.weight ?? (named ? model.types.get(named.name) : undefined) ?? (composite ? 1 : 0));
    // Bounded, so that a huge limit times a free selection is not NaN (Infinity × 0).
    return Math.min(Math.max(1, size) * (own + inner), MAX_COST);
  };

  const { cost, rootFields } = walk(selectionSet, parentType, newPlace(), 0, undefined, 0);
  return { ...totals, rootFields, cost };
}

/** Children of a field whose @listSize names them in sizedFields, and the size it gives them. */
interface Sized {
  fields: string[];
  size: number | undefined;
}

/** The size a @listSize field's slicing arguments give (the largest given), else its assumedSize. */
function sliceOf(node: FieldNode, listSize: ListSize, variables: Record<string, unknown>): number | undefined {
  let size: number | undefined;
  for (const name of listSize.slicingArguments) {
    const value = intValue(node.arguments?.find((argument) => argument.name.value === name)?.value, variables);
    if (value !== undefined) size = Math.max(size ?? 0, value);
  }
  return size ?? listSize.assumedSize;
}

/** What an operation definition counts against `selections` before its own selections. */
const OPERATION_STEPS = 20;

/** Above every limit, below Infinity: costs are clamped to it. */
const MAX_COST = Number.MAX_SAFE_INTEGER;

function checkOperationTotals({ rootFields, cost }: OperationCosts): void {
  if (rootFields > GRAPHQL_LIMITS.rootFields) {
    throw new LimitExceeded('rootFields', `The operation asks for ${rootFields} root fields; at most ${GRAPHQL_LIMITS.rootFields}.`);
  }
  if (cost > GRAPHQL_LIMITS.cost) {
    throw new LimitExceeded('cost', `The operation's estimated cost is ${cost}; at most ${GRAPHQL_LIMITS.cost} (@cost and @listSize in the schema: lists count with their limit, 20 when none is given).`);
  }
}

/**
 * Measures every definition of the document (each operation, and each fragment on its own type
 * condition: validation reads them all, used or not) against the limits and answers the costs of
 * `operation`, the one that will run. The walk is linear in the document's size: its steps are
 * bounded by the `selections` budget of the whole document, each costs O(1) (a map lookup at most),
 * and the field-merging work that validation will do afterwards is bounded by `fieldMerges`.
 * Throws an ApiError (validation_failed) naming the limit.
 */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | null | undefined, variables: Record<string, unknown>): OperationCosts {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const budget: Budget = { selections: GRAPHQL_LIMITS.selections, fieldMerges: GRAPHQL_LIMITS.fieldMerges };
  const reached = new Set<string>();
  let measured: OperationCosts = { depth: 0, aliases: 0, fields: 0, rootFields: 0, cost: 0 };
  try {
    // The operation that runs first, so that its own limits are the ones named when it passes one.
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    for (const definition of operation ? [operation, ...operations.filter((d) => d !== operation)] : operations) {
      // Validation works through each operation's fragments again (its variables): an operation
      // counts as OPERATION_STEPS selections besides its own.
      budget.selections -= OPERATION_STEPS;
      const rootType = schema.getRootType(definition.operation) ?? null;
      const costs = walkDefinition(schema, fragments, rootType, definition.selectionSet, rootType, variables, budget, reached);
      checkOperationTotals(costs);
      if (definition === operation) measured = costs;
    }
    // A fragment that no operation spreads is still validated on its own: walked on its type
    // condition. (One that an operation spreads was walked there, with at least this work.)
    for (const [name, definition] of fragments) {
      if (reached.has(name)) continue;
      const condition = schema.getType(definition.typeCondition.name.value);
      walkDefinition(schema, fragments, null, definition.selectionSet, condition && isCompositeType(condition) ? condition : null, variables, budget, reached);
    }
    return measured;
  } catch (error) {
    if (error instanceof LimitExceeded) throw limitError(error.limit, error.detail);
    throw error;
  }
}
