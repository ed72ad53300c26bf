// What /graphql checks before Apollo Server sees a request: the query's size and token count, the
// operation's limits (limits.ts) and that no literal or variable holds text the database cannot
// store. A refused request answers 400 with a GraphQL error body naming the limit or the field.
import { GraphQLError, getOperationAST, isInputType, parse, typeFromAST, valueFromAST, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { ApiError } from '../../subgraphs/shared/errors.ts';
import { assertStorableOperation, findUnsafeLiteral } from '../../subgraphs/shared/input-safety.ts';
import { GRAPHQL_LIMITS, checkDocumentSize, limitError, measureOperation } from './limits.ts';

export interface GraphQLRequestParts {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

interface Parsed {
  document: DocumentNode;
  literalsChecked: boolean;
}

const MAX_CACHED = 1_000;
const parsedQueries = new Map<string, Parsed>();

export const PARSE_OPTIONS = { maxTokens: GRAPHQL_LIMITS.tokens };

/**
 * The parsed document of a query text, parsed once per text and shared by every request (and gateway
 * subscription) that sends it, its literals checked; null for a syntax error (parse it again for the
 * error in graphql-js's words). Throws the tokens limit and unstorable literals.
 */
export function parseOnce(query: string): Parsed | null {
  const cached = parsedQueries.get(query);
  if (cached) return cached;
  let document: DocumentNode;
  try {
    document = parse(query, PARSE_OPTIONS);
  } catch (error) {
    if (error instanceof GraphQLError && /Document contains more th\w+ \d+ tokens/.test(error.message)) {
      throw limitError('tokens', `The query has more than ${GRAPHQL_LIMITS.tokens} tokens.`);
    }
    return null; // a syntax error: Apollo Server answers it in its own words
  }
  // Literals are part of the text: checked once per text, like the parse.
  const unsafe = findUnsafeLiteral(document);
  if (unsafe) throw new ApiError('validation_failed', `The query is not valid: argument ${unsafe.field} ${unsafe.issue}.`, [unsafe]);
  const parsed = { document, literalsChecked: true };
  if (parsedQueries.size >= MAX_CACHED) parsedQueries.clear();
  parsedQueries.set(query, parsed);
  return parsed;
}

/**
 * Throws an ApiError (validation_failed) when the request must be refused; otherwise answers the
 * operation's estimated cost (1 when there is nothing to measure: Apollo Server will refuse it).
 */
export function admitGraphQLRequest(schema: GraphQLSchema | undefined, request: GraphQLRequestParts): number {
  if (typeof request.query !== 'string') return 1; // Apollo Server answers a missing query
  checkDocumentSize(request.query);
  const parsed = parseOnce(request.query);
  if (!parsed) return 1;
  const variables = request.variables && typeof request.variables === 'object' && !Array.isArray(request.variables) ? (request.variables as Record<string, unknown>) : {};
  assertStorableOperation(parsed.document, variables, !parsed.literalsChecked);
  const operation = getOperationAST(parsed.document, typeof request.operationName === 'string' ? request.operationName : undefined);
  if (!operation || !schema) return 1;
  return measureOperation(schema, parsed.document, operation, withDefaults(schema, operation, variables)).cost;
}

/**
 * The variables as the operation will run with them: a variable not sent takes its default
 * (`query($l: Int = 100)`), so the estimate counts the 100 and not the 20 assumed for no limit.
 */
function withDefaults(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): Record<string, unknown> {
  let filled = variables;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!definition.defaultValue || Object.hasOwn(variables, name)) continue;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) continue;
    if (filled === variables) filled = { ...variables };
    filled[name] = valueFromAST(definition.defaultValue, type);
  }
  return filled;
}
