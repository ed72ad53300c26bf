// /graphql over HTTP: Apollo Server on the gateway (POST, GET and the GraphQL-over-HTTP media types),
// behind the admission checks of admission.ts; for a browser, the offline GraphiQL page of ide.ts.
// Every error answer is a GraphQL error body with a 4xx: the route's own refusals through problem.ts,
// Apollo's request errors with request-errors.ts's corrections and the request id added.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { GraphQLFormattedError } from 'graphql';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { apolloKoa } from '../../platform/graphql/apollo-koa.ts';
import type { ApolloGateway } from '@apollo/gateway';
import type { Logger } from 'pino';
import { readBody } from '../http/body.ts';
import { answerMethods } from '../http/allowed-methods.ts';
import { assertUtf8Query } from '../../platform/api/input-safety.ts';
import { scopeOf } from '../http/scope.ts';
import type { GatewayContext } from './context.ts';
import type { DirectGateway } from './direct-gateway.ts';
import type { TrustedDocuments } from './trusted-documents.ts';
import { PARSE_OPTIONS, admitOperation, validatedDocumentStore } from './admission.ts';
import type { GraphQLRequestParts } from './request-parts.ts';
import { conditionalIntrospectionRule, knownOperationTypesRule, requestErrorsPlugin } from './request-errors.ts';
import { answerErrorsAsGraphQL, sendRateLimited } from '../http/problem.ts';
import { credentialSelection } from './credential-fields.ts';
import { sendIde, wantsIde } from './ide.ts';
import type { RouteLimits } from '../routes/mount.ts';
import { beginCredentialCheck, outcomeOfAnswer, type CheckOutcome, type CredentialCheck } from '../http/credential-checks.ts';
import { unreachableAsUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../platform/db/unavailable.ts';

/**
 * An answer that holds a service_unavailable error (the database, or a subgraph, could not be
 * reached) is HTTP 503 with Retry-After, as REST answers are; data resolved before it stays in the body.
 */
/** An answer says what its operation was estimated to cost and what it spent from the quota (docs/graphql.md#limits). */
const costExtension: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single' || !contextValue.cost) return;
        const result = response.body.singleResult;
        result.extensions = { ...result.extensions, cost: contextValue.cost };
      },
    };
  },
};

const unavailableStatus: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        if (!response.body.singleResult.errors?.some((error) => error.extensions?.code === 'service_unavailable')) return;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      },
    };
  },
};

export async function startGraphQLServer(gateway: DirectGateway, logger: Logger) {
  const server = new ApolloServer<GatewayContext>({
    gateway,
    // Bearer tokens, never cookies, authorise this API: there is no ambient credential for a
    // cross-site request to ride on, so GET needs no preflight header.
    csrfPrevention: false,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // A subgraph the gateway could not reach (distributed topology) is service_unavailable, in the
    // API's words: not INTERNAL_SERVER_ERROR with the subgraph's address in the message.
    formatError: (formatted, error) => unreachableAsUnavailable(formatted, error, (err, suppressed) => logger.warn({ err, suppressed }, 'subgraph unreachable: answering 503')),
    parseOptions: PARSE_OPTIONS,
    validationRules: [knownOperationTypesRule, conditionalIntrospectionRule],
    // Bounded in bytes (admission.ts), not by Apollo's estimate of a document's JSON.
    documentStore: validatedDocumentStore(),
    // Every operation passes the admission checks on its full text; a hash-only persisted query
    // would skip them, so automatic persisted queries are off.
    persistedQueries: false,
    // Apollo's landing page loads Sandbox from a CDN: browsers get ide.ts's GraphiQL instead.
    plugins: [ApolloServerPluginLandingPageDisabled(), requestErrorsPlugin(), unavailableStatus, costExtension],
    // The platform drains requests on SIGTERM itself (facade/server.ts); Apollo's own handler would
    // stop the server at the signal and fail the GraphQL operations still in flight.
    stopOnTerminationSignals: false,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => logger.warn(message),
      error: (message) => logger.error(message),
    },
  });
  await server.start();
  return server;
}

function requestParts(ctx: Context): GraphQLRequestParts & { documentId?: unknown; extensions?: unknown } {
  if (ctx.method === 'POST') {
    const body = (ctx.request as { body?: unknown }).body;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as GraphQLRequestParts) : {};
  }
  const { query, variables, operationName, documentId, extensions } = ctx.query;
  const json = (text: unknown) => {
    if (typeof text !== 'string') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined; // Apollo Server answers malformed variables and extensions
    }
  };
  return { query, variables: json(variables), operationName, documentId, extensions: json(extensions) };
}

const ALLOW = ['GET', 'POST'];

/**
 * An empty operationName is no operationName (GraphQL over HTTP says so for GET; for a JSON body
 * likewise): Apollo Server would look for an operation named "" and find none.
 */
function dropEmptyOperationName(ctx: Context): void {
  if (ctx.method === 'POST') {
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    if (body && typeof body === 'object' && body.operationName === '') delete body.operationName;
  } else if (ctx.query.operationName === '') {
    const search = new URLSearchParams(ctx.querystring);
    search.delete('operationName');
    ctx.querystring = search.toString();
  }
}

/** Apollo Server's error answers carry the request id in every error's extensions, as the platform's do. */
function addRequestId(ctx: Context): void {
  if (ctx.status < 400 || typeof ctx.body !== 'string') return;
  try {
    const body = JSON.parse(ctx.body) as { errors?: { extensions?: Record<string, unknown> }[] };
    for (const error of body.errors ?? []) error.extensions = { ...error.extensions, requestId: ctx.state.requestId };
    ctx.body = JSON.stringify(body);
  } catch {
    // not a GraphQL error body: left as Apollo wrote it
  }
}

/** What the answer of Apollo Server says of the credential field's check. */
function outcomeOfBody(body: unknown, responseKey: string): CheckOutcome {
  // An answer that cannot be read (streamed) keeps the failure: it cannot be told a right secret.
  if (typeof body !== 'string') return 'failed';
  try {
    const { data, errors } = JSON.parse(body) as { data?: Record<string, unknown> | null; errors?: GraphQLFormattedError[] };
    return outcomeOfAnswer(errors, data?.[responseKey] != null);
  } catch {
    return 'failed';
  }
}

export function mountGraphQL(router: Router, server: ApolloServer<GatewayContext>, gateway: ApolloGateway, { limits, sql }: RouteLimits, documents: TrustedDocuments) {
  // The scope made for the rate limit is the one the operation runs with: one token lookup per request.
  const handler = apolloKoa(server, async (ctx) => ({ scope: (ctx.state.scope as GatewayContext['scope'] | undefined) ?? scopeOf(ctx), cost: ctx.state.graphqlCost as GatewayContext['cost'] }));
  router.all('graphql', '/graphql', async (ctx, next) => {
    ctx.state.route = '/graphql';
    // Everything /graphql refuses (method, media type, body, limits, quota) is a GraphQL error body.
    answerErrorsAsGraphQL(ctx);
    if (answerMethods(ctx, ALLOW, 'GraphQL accepts GET and POST.')) return;
    // Its parameters decoded leniently would carry U+FFFD into the operation: refused instead.
    if (ctx.method === 'GET') assertUtf8Query(ctx.querystring);
    if (wantsIde(ctx)) return sendIde(ctx);
    if (ctx.method === 'POST') (ctx.request as { body?: unknown }).body = (await readBody(ctx, 'json', { fieldsWithin: 'variables' })) ?? {};
    dropEmptyOperationName(ctx);
    const parts = requestParts(ctx);
    // Each operation spends its estimated cost from the caller's quota: a wide query more than a narrow one.
    const admission = await admitOperation(ctx, gateway.schema, parts, { limits, sql }, documents);
    if (!admission) return;
    // A field that checks a client secret is a check like /oauth/token's: the same failures of the
    // address and the same quota of the client.
    const { document, operation, variables } = admission;
    const credential = gateway.schema && document && operation ? credentialSelection(gateway.schema, document, operation, variables) : null;
    let check: CredentialCheck | undefined;
    if (credential) {
      const admitted = await beginCredentialCheck(limits, ctx.ip, credential.clientId);
      if ('refused' in admitted) return sendRateLimited(ctx, admitted.refused);
      check = admitted.check;
    }
    try {
      await handler(ctx, next);
    } catch (error) {
      await check?.settle('unknown');
      throw error;
    }
    if (check && credential) await check.settle(outcomeOfBody(ctx.body, credential.responseKey));
    // What could not be served spends nothing.
    if (ctx.status === 503) admission.quota.giveBack?.();
    addRequestId(ctx);
  });
}
