// Generated GraphQL-over-HTTP requests for the fuzz suite (fast-check): documents of every shape
// (anonymous, named and repeated operations of each type, fragments alone, cycles, unknown fields and
// directives, variables of every kind, cut-off and junk text) in requests of every shape (GET and POST,
// other methods, media types, Accept headers, operationName, variables and extensions of the wrong
// JSON type, batches, repeated parameters, with and without a token). A plain object: the test sends it.
import fc from 'fast-check';

export interface GraphQLProbe {
  method: string;
  /** The query string, with its '?' (empty for none). */
  search: string;
  headers: Record<string, string>;
  body?: string;
}

// Selections that fit the supergraph (by operation type), selections that fit when the operation
// defines the variables they use, and selections that do not fit (unknown fields and directives,
// misplaced directives, missing or mistyped arguments, spreads of unknown fragments).
const QUERY_LEAVES = [
  '__typename',
  'a: __typename',
  '__typename @skip(if: true)',
  'authContext { applicationId }',
  'authContext(targetType: user, targetId: "usr_bob") { applicationId }',
  'event(id: "evt_open") { id name }',
  'missing: event(id: "evt_missing") { id }',
  '__schema { queryType { name } }',
  '__type(name: "Event") { name fields { name } }',
  'organisationEvents(organisationId: "org_demo", limit: 2) { data { id } }',
  '...F',
  '...F @skip(if: true)',
];
const MUTATION_LEAVES = ['__typename', 'a: __typename', 'publishEvent(eventId: "evt_missing", idempotencyKey: "fuzz") { updated }', '...F'];
const VARIABLE_LEAVES = ['__typename @include(if: $flag)', 'byVariable: event(id: $id) { id }', 'page: organisationEvents(organisationId: "org_demo", limit: $limit) { data { id } }'];
/** What fragment F selects when it fits: no spreads (no cycle) and no variables (its operation may define none). */
const FRAGMENT_LEAVES = QUERY_LEAVES.filter((leaf) => !leaf.startsWith('...'));
const UNFIT_LEAVES = [
  '__typename @skip(if: "x")',
  '__typename @skip',
  '__typename @nope',
  '__typename @deprecated',
  '__typename @join__field(graph: COMPETITIONS)',
  'event(id: 1) { id }',
  'event { id }',
  'event(id: "evt_open")',
  'event(id: "\\u0000") { id }',
  'nope',
  'nope { x }',
  'publishEvent(eventId: "evt_missing", idempotencyKey: "fuzz") { updated }',
  '...G',
  '...Missing',
];
const INLINE_HEADS = ['...', '... on Query', '... @skip(if: true)', '... @include(if: $flag)'];
const UNFIT_INLINE_HEADS = ['... on Mutation', '... on Subscription', '... on Event', '... on Nope', '... on String'];
/** What each variable the fitting selections use is defined as. */
const FITTING_DEFINITIONS: Record<string, string> = { $id: '$id: ID = "evt_open"', $flag: '$flag: Boolean = true', $limit: '$limit: Int = 3' };
const UNFIT_DEFINITIONS = ['$id: ID', '$id: ID!', '$flag: Boolean!', '$limit: Int = 100', '$limit: Int = "a"', '$x: Nope', '$x: [[[String!]!]!]! = []', '$id: ID!, $id: ID', '$x: Event', '$x: CreateStageInput', '$unused: Int'];
const OPERATION_DIRECTIVES = ['@nope', '@skip(if: true)', '@deprecated'];
const NAMES = ['A', 'B', 'Q', 'null', 'query', 'F'];
const TYPE_CONDITIONS = ['Mutation', 'Event', 'Nope', 'String'];
const JUNK_TEXT = ['', ' ', '\n', '# only a comment', '{', '}', '{}', 'query', 'query Q', 'query Q {', '{ __typename }}', '{ __typename } extra', 'subscription', 'fragment F on Query', 'schema { query: Query }', 'type T { a: Int }', 'extend type Query { a: Int }', '\u0000', '{ a(x: "\\ud800") }', '"string"', '123', '{ a(b: { c: [1, 2, { d: $e }] }) }', '{ a b c d e f }', `{ ${'a { '.repeat(40)}${'}'.repeat(40)} }`];

/** Mostly the first, now and then the second: a fair request with one thing wrong, so every check is reached. */
const mostly = <T, U>(fair: fc.Arbitrary<T>, odd: fc.Arbitrary<U>, weight = 12) => fc.oneof({ weight, arbitrary: fair }, { weight: 1, arbitrary: odd });

/** A selection set of these leaves, at most `depth` levels of sets deep. */
function selectionSet(leaves: string[], depth: number): fc.Arbitrary<string> {
  const leaf = fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...leaves) }, { weight: 4, arbitrary: fc.constantFrom(...VARIABLE_LEAVES) }, { weight: 2, arbitrary: fc.constantFrom(...UNFIT_LEAVES) });
  const head = mostly(fc.constantFrom(...INLINE_HEADS), fc.constantFrom(...UNFIT_INLINE_HEADS), 4);
  const selection = depth <= 1 ? leaf : mostly(leaf, fc.tuple(head, selectionSet(leaves, depth - 1)).map(([inline, set]) => `${inline} ${set}`), 8);
  // Now and then an empty set, which does not parse.
  return mostly(fc.array(selection, { minLength: 1, maxLength: 3 }), fc.constant([]), 60).map((items) => `{ ${items.join(' ')} }`);
}

/** The definitions of the variables a text uses, as the fitting selections expect them. */
const definitionsFor = (text: string) => Object.keys(FITTING_DEFINITIONS).filter((name) => text.includes(name)).map((name) => FITTING_DEFINITIONS[name]);

const operation = fc
  .record({
    type: mostly(fc.constantFrom('', 'query', 'query', 'mutation'), fc.constant('subscription'), 16),
    name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    unfitDefinitions: mostly(fc.constant([]), fc.array(fc.constantFrom(...UNFIT_DEFINITIONS), { minLength: 1, maxLength: 2 }), 6),
    directive: mostly(fc.constant(''), fc.constantFrom(...OPERATION_DIRECTIVES)),
  })
  .chain((head) => selectionSet(head.type === 'mutation' ? MUTATION_LEAVES : QUERY_LEAVES, 3).map((set) => ({ ...head, set })))
  .map(({ type, name, unfitDefinitions, directive, set }) => {
    // The shorthand `{ … }` has no type, name, variables or directives.
    if (!type) return set;
    const definitions = [...definitionsFor(set), ...unfitDefinitions];
    return `${[type, name].filter(Boolean).join(' ')}${definitions.length ? `(${definitions.join(', ')})` : ''} ${directive} ${set}`;
  });

/** Fragment `name`: mostly one that fits the operations spreading it, now and then anything. */
const fragment = (name: string) =>
  fc
    .record({ on: mostly(fc.constant('Query'), fc.constantFrom(...TYPE_CONDITIONS), 6), set: mostly(selectionSet(FRAGMENT_LEAVES, 1), selectionSet(QUERY_LEAVES, 2), 4) })
    .map(({ on, set }) => `fragment ${name} on ${on} ${set}`);

/** Operations (mostly one) and the fragment F they spread (mostly), in any order; or none, or fragments alone. */
const definitions = fc
  .record({
    operations: fc.oneof({ weight: 16, arbitrary: fc.array(operation, { minLength: 1, maxLength: 1 }) }, { weight: 3, arbitrary: fc.array(operation, { minLength: 2, maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant([]) }),
    fragmentF: mostly(fc.constant(true), fc.constant(false), 6),
    extraFragments: mostly(fc.constant([]), fc.array(fc.constantFrom('F', 'G', 'H').chain(fragment), { minLength: 1, maxLength: 2 }), 6),
  })
  .chain(({ operations, fragmentF, extraFragments }) => {
    // No operation: fragments alone.
    const withF = operations.length === 0 || (fragmentF && (operations as string[]).some((text) => text.includes('...F')));
    return (withF ? fragment('F') : fc.constant(undefined)).map((f) => [...operations, ...(f ? [f] : []), ...extraFragments]);
  })
  .chain((all) => fc.shuffledSubarray(all, { minLength: all.length }))
  .map((all) => all.join('\n'));

/** A document: mostly operations and fragments, now and then cut off or junk. */
export const documentText: fc.Arbitrary<string> = fc.oneof(
  { weight: 14, arbitrary: definitions },
  { weight: 1, arbitrary: fc.tuple(operation, fc.double({ min: 0, max: 1, noNaN: true })).map(([text, at]) => text.slice(0, Math.max(1, Math.floor(text.length * at)))) },
  { weight: 1, arbitrary: fc.constantFrom(...JUNK_TEXT) },
);

const JSON_JUNK: unknown[] = [null, 0, 5, -1, 1e308, true, false, '', 'x', 'null', [], [1], {}, { a: 1 }, '\u0000', '\ud800', 'x'.repeat(2_000)];

/** The parameters of a fair request: a generated document, a name and variables it may use. */
const fairParameters = fc.record(
  {
    query: documentText,
    operationName: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('A', 'B', 'Q', 'F', '', 'Nope') }),
    variables: fc.constantFrom({}, { id: 'evt_open' }, { flag: true }, { limit: 2 }, { id: 'evt_open', flag: false, limit: 3 }),
  },
  { requiredKeys: ['query'] },
);

interface RequestShape {
  method: string;
  parameters: Record<string, unknown>;
  /** A body sent as is instead of the parameters as JSON. */
  rawBody?: string;
  batch?: number;
  /** A parameter given twice in the URL. */
  repeat?: string;
  contentType?: string;
  accept?: string;
  token: string | null;
}

const CONTENT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json', 'application/json; charset=latin1', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/graphql', 'application/octet-stream', undefined];
const FAIR_ACCEPTS = [undefined, 'application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9', '*/*'];
const ODD_ACCEPTS = ['text/html', 'text/plain', 'application/xml', 'multipart/mixed', 'application/json;q=0', 'application/graphql-response+json;charset=utf-16'];
const OTHER_METHODS = ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'M-SEARCH', 'PURGE', 'QUERY'];
const RAW_BODIES = ['', 'null', '[]', '"x"', '5', '{', '{"query": "{ __typename }"', 'NONSENSE', '{"query":"{ __typename }"}{}', '\u0000', '[{"query":"{ __typename }"}]'];

type Twist = (shape: RequestShape) => RequestShape;
const setParameter = (name: string) => (value: unknown): Twist => (shape) => ({ ...shape, parameters: { ...shape.parameters, [name]: value } });

/** One thing wrong with an otherwise fair request (or nothing), so that each check is reached. */
const twist: fc.Arbitrary<Twist> = fc.oneof(
  { weight: 40, arbitrary: fc.constant((shape: RequestShape) => shape) },
  { weight: 1, arbitrary: fc.constantFrom(...JSON_JUNK).map(setParameter('operationName')) },
  { weight: 1, arbitrary: fc.constantFrom(...JSON_JUNK, { '\u0000': 1 }, { id: { nested: ['\ud800'] } }).map(setParameter('variables')) },
  { weight: 1, arbitrary: fc.record({ id: fc.constantFrom(...JSON_JUNK), flag: fc.constantFrom(...JSON_JUNK), limit: fc.constantFrom(...JSON_JUNK) }, { requiredKeys: [] }).map(setParameter('variables')) },
  { weight: 1, arbitrary: fc.constantFrom({}, null, 5, 'x', [], { persistedQuery: { version: 1, sha256Hash: 'abc' } }, { persistedQuery: 'x' }, { persistedQuery: { version: 2 } }, { a: { b: [1] } }).map(setParameter('extensions')) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 5, {}, [], ['{ __typename }'], true).map(setParameter('query')) },
  { weight: 1, arbitrary: fc.constant<Twist>(({ parameters: { query, ...rest }, ...shape }) => ({ ...shape, parameters: { ...rest, qeury: query } })) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((rawBody): Twist => (shape) => ({ ...shape, rawBody })) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 2).map((batch): Twist => (shape) => ({ ...shape, batch })) },
  { weight: 1, arbitrary: fc.constantFrom('query', 'operationName', 'variables', 'extensions').map((repeat): Twist => (shape) => ({ ...shape, repeat })) },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((contentType): Twist => (shape) => ({ ...shape, contentType })) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_ACCEPTS).map((accept): Twist => (shape) => ({ ...shape, accept })) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS).map((method): Twist => (shape) => ({ ...shape, method })) },
  { weight: 1, arbitrary: fc.constantFrom(null, 'nope').map((token): Twist => (shape) => ({ ...shape, token })) },
);

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A GraphQL-over-HTTP request to /graphql: a fair GET or POST of a generated document, twisted once or not. */
export const graphqlProbe: fc.Arbitrary<GraphQLProbe> = fc
  .tuple(fc.constantFrom('POST', 'POST', 'GET'), fairParameters, fc.constantFrom(...FAIR_ACCEPTS), twist, twist)
  .map(([method, parameters, accept, first, second]) => second(first({ method, parameters, accept, contentType: 'application/json', token: 'demo-token-app' })))
  .map(({ method, parameters, rawBody, batch, repeat, contentType, accept, token }) => {
    const headers: Record<string, string> = {};
    if (accept) headers.accept = accept;
    if (token) headers.authorization = `Bearer ${token}`;
    if (method === 'GET' || method === 'HEAD') {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(parameters)) if (value !== undefined) search.append(name, asText(value));
      if (repeat) search.append(repeat, asText(parameters[repeat] ?? '{ __typename }'));
      const text = search.toString();
      return { method, search: text ? `?${text}` : '', headers };
    }
    if (contentType) headers['content-type'] = contentType;
    const body = rawBody ?? JSON.stringify(batch === undefined ? parameters : Array.from({ length: batch }, () => parameters));
    return { method, search: '', headers, body };
  });
