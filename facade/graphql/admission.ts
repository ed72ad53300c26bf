// What /graphql checks before Apollo Server sees a request: the query's size and token count, the
// document's limits (limits.ts) and that no literal or variable holds text the database cannot
// store. A refused request answers 400 with a GraphQL error body naming the limit or the field.
//
// Memory: a document is parsed for admission, and cached (bounded in bytes) only once its request has
// been admitted and charged, so that documents nobody paid for never outlive their request; while a
// request is being answered its document's bytes are reserved from the in-flight budgets
// (document-memory.ts), per client address and in all.
import { GraphQLError, getOperationAST, isInputType, parse, typeFromAST, valueFromAST, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { ApiError, type ErrorCode, type ErrorDetail } from '../../platform/api/errors.ts';
import { sendError, sendRateLimited } from '../http/problem.ts';
import { assertStorableOperation, findUnsafeLiteral } from '../../platform/api/input-safety.ts';
import { GRAPHQL_LIMITS, checkDocumentSize, limitError, measureDocument } from './limits.ts';
import { DOCUMENT_MEMORY, asKeyValueCache, budgetedCache, inFlightDocuments, parsedBytes } from './document-memory.ts';
import type { Context } from 'koa';
import type { RouteLimits } from '../routes/mount.ts';
import type { TrustedDocuments } from './trusted-documents.ts';
import type { GraphQLRequestParts } from './request-parts.ts';
import { scopeOf } from '../http/scope.ts';
import { nextTurn } from '../http/turns.ts';
import { addressKey, chargeCaller, operationPoints, rateLimitHeaders, type Decision } from '../http/rate-limits.ts';

export interface Parsed {
  document: DocumentNode;
  /** Its estimated size (document-memory.ts). */
  bytes: number;
}

// By query text: the parse of every admitted text, shared by the requests (and gateway subscriptions)
// that send it again. The text is the document's own source, so it is counted once, in its size.
const admitted = budgetedCache<string, Parsed>('graphql_parsed_documents', DOCUMENT_MEMORY.cacheBytes, (parsed) => parsed.bytes);

export const PARSE_OPTIONS = { maxTokens: GRAPHQL_LIMITS.tokens };

/**
 * Apollo Server's store of validated documents (it parses and validates a text it has not stored),
 * bounded by the same estimate instead of its default, which counts a document's JSON: a tenth of
 * what it holds.
 */
export function validatedDocumentStore() {
  return asKeyValueCache(budgetedCache<string, DocumentNode>('graphql_validated_documents', DOCUMENT_MEMORY.cacheBytes, (document) => parsedBytes(document)));
}

/**
 * The parsed document of a query text: from the cache when the text was admitted before, else parsed
 * now (and not cached: see remember); its literals checked. A syntax error is answered, as graphql-js
 * words it (Apollo Server answers it in its own words; the realtime gateway sends it). Throws the
 * tokens limit and unstorable literals.
 */
export function parseQuery(query: string): Parsed | GraphQLError {
  const cached = admitted.get(query);
  if (cached) return cached;
  let document: DocumentNode;
  try {
    document = parse(query, PARSE_OPTIONS);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (/Document contains more th\w+ \d+ tokens/.test(error.message)) {
      throw limitError('tokens', `The query has more than ${GRAPHQL_LIMITS.tokens} tokens.`);
    }
    return error;
  }
  // Literals are part of the text: checked once per text, like the parse.
  const unsafe = findUnsafeLiteral(document);
  if (unsafe) throw new ApiError('validation_failed', `The query is not valid: argument ${unsafe.field} ${unsafe.issue}.`, [unsafe]);
  return { document, bytes: parsedBytes(document, query) };
}

/** Keeps the parse of a text whose request was admitted and charged, for the next request that sends it. */
export function remember(query: string, parsed: Parsed): void {
  if (!admitted.has(query)) admitted.set(query, parsed);
}

export interface Admission {
  /** The operation's estimated cost (1 when there is nothing to measure: Apollo Server will refuse it). */
  cost: number;
  /** What its document holds (0 when there is none). */
  bytes: number;
  /** The parsed document (null when there is none: Apollo Server will refuse the request). */
  document: DocumentNode | null;
  /** The query's syntax error, when it has one (then there is no document). */
  syntaxError?: GraphQLError;
  /** The operation the request runs (null when the document names none that can run). */
  operation: OperationDefinitionNode | null;
  /** The request's variables, as an object ({} when it sent none, or none that are an object). */
  variables: Record<string, unknown>;
  /** Caches the parse, once the request has been charged. */
  remember(): void;
}

/**
 * The checks every GraphQL document passes before anything else reads it (of /graphql and of the
 * realtime gateway's subscriptions), in one synchronous step: its size, its parse (or the cached one),
 * storable literals and variables, and the limits of limits.ts, with its estimated cost. Throws an
 * ApiError (validation_failed) when the request must be refused.
 */
export function admitGraphQLRequest(schema: GraphQLSchema | undefined, request: GraphQLRequestParts): Admission {
  const variables = request.variables && typeof request.variables === 'object' && !Array.isArray(request.variables) ? (request.variables as Record<string, unknown>) : {};
  const nothing: Admission = { cost: 1, bytes: 0, document: null, operation: null, variables, remember: () => undefined };
  if (typeof request.query !== 'string') return nothing; // Apollo Server answers a missing query
  const query = request.query;
  checkDocumentSize(query);
  const parsed = parseQuery(query);
  if (parsed instanceof GraphQLError) return { ...nothing, syntaxError: parsed };
  assertStorableOperation(parsed.document, variables, false);
  const operation = getOperationAST(parsed.document, typeof request.operationName === 'string' ? request.operationName : undefined) ?? null;
  if (!schema) return { ...nothing, document: parsed.document, operation };
  const cost = measureDocument(schema, parsed.document, operation, operation ? withDefaults(schema, operation, variables) : variables).cost;
  return { cost: operation ? cost : 1, bytes: parsed.bytes, document: parsed.document, operation, variables, remember: () => remember(query, parsed) };
}

/**
 * Spends the rest of an operation's estimated cost (a tenth, at least 1 in all) once its parse has
 * spent 1 (`entry`). Past the quota, the refusal; else a decision whose giveBack returns both charges
 * (a request that cannot be served spends nothing).
 */
export async function chargeRest(entry: Decision, cost: number, take: (points: number) => Promise<Decision>): Promise<Decision> {
  const rest = operationPoints(cost) - 1;
  if (rest <= 0) return entry;
  const charged = await take(rest);
  if (!charged.allowed) return charged;
  return { ...charged, giveBack: () => (entry.giveBack?.(), charged.giveBack?.()) };
}

/** A GraphQL error answer of the admission (the request never reaches Apollo Server), in the media type asked for. */
function refuse(ctx: Context, status: number, code: ErrorCode, message: string, details: ErrorDetail[] | undefined, headers: Record<string, string> = {}): null {
  ctx.set(headers);
  sendError(ctx, status, code, message, details);
  return null;
}

/**
 * Admits a /graphql request (answering what admission found), or answers it (400 over a limit, 429
 * past a quota or the client's in-flight bytes, 503 past everyone's) and answers null. In order, so that no work a client can
 * cause comes before it has paid for it:
 * 1. the request spends 1 from its caller's quota (its token's, its key's, else its address's): what
 *    a parse costs, refused or not; a document named by its hash is resolved (trusted-documents.ts);
 * 2. in a turn of the event loop of its own (turns.ts), the text is parsed (or taken from the cache)
 *    and measured against the limits, in one synchronous step: no other request runs while it is
 *    held without being counted;
 * 3. it reserves what its document holds from the in-flight budgets until it has been answered (both
 *    parses: admission's, and Apollo Server's of a text it has not validated before);
 * 4. the operation spends the rest of its estimated cost (a tenth, at least 1 in all);
 * 5. only then is the parse cached, for the next request that sends the same text.
 */
export async function admitOperation(
  ctx: Context,
  schema: GraphQLSchema | undefined,
  sent: GraphQLRequestParts,
  { limits, sql }: RouteLimits,
  documents?: TrustedDocuments,
): Promise<(Admission & { quota: Decision }) | null> {
  const scope = (ctx.state.scope = scopeOf(ctx));
  const entry = await chargeCaller(limits, sql, scope, ctx.ip, 1);
  if (!entry.allowed) {
    sendRateLimited(ctx, entry);
    return null;
  }
  // A document named by its hash becomes its text here; the mode may refuse the request.
  const request = documents ? await documents.admit(ctx, sent, scope) : sent;
  if (!request) {
    ctx.set(rateLimitHeaders(entry));
    return null;
  }
  const client = addressKey(ctx.ip);
  await nextTurn();
  let admission: Admission;
  try {
    admission = admitGraphQLRequest(schema, request);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.set(rateLimitHeaders(entry));
    return refuse(ctx, 400, error.code, error.message, error.details);
  }
  if (admission.bytes > 0) {
    const hold = inFlightDocuments.reserve(client, 2 * admission.bytes);
    if (hold === 'client') {
      return refuse(ctx, 429, 'rate_limited', 'Too many GraphQL documents of this client are being answered at once: retry in a second.', [{ issue: 'in_flight_limit' }], {
        ...rateLimitHeaders(entry),
        'Retry-After': '1',
      });
    }
    if (hold === 'total') {
      return refuse(ctx, 503, 'service_unavailable', 'The server is answering too many GraphQL documents at once: retry in a second.', [{ issue: 'in_flight_limit' }], {
        'Retry-After': '1',
      });
    }
    ctx.res.once('close', hold.release);
  }
  const quota = await chargeRest(entry, admission.cost, (points) => chargeCaller(limits, sql, scope, ctx.ip, points));
  if (!quota.allowed) {
    sendRateLimited(ctx, quota);
    return null;
  }
  admission.remember();
  ctx.set(rateLimitHeaders(quota));
  // What the answer reports in extensions.cost (http.ts).
  ctx.state.graphqlCost = { estimated: admission.cost, charged: operationPoints(admission.cost) };
  // Apollo Server parses, validates and plans next, in one synchronous step: a turn of its own.
  await nextTurn();
  return { ...admission, quota };
}

/**
 * The variables as the operation will run with them: a variable not sent takes its default
 * (`query($l: Int = 100)`), so the estimate counts the 100 and not the 20 assumed for no limit.
 */
export function withDefaults(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): Record<string, unknown> {
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
