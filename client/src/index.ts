// @esports-platform/client: the platform's API from TypeScript. See docs/client.md.
import { authorizer, type Credentials } from './auth.ts';
import { ApiError, GraphQLResponseError, type GraphQLErrorEntry } from './errors.ts';
import { Gateway, type GatewayOptions, type ResumableSubscription } from './gateway.ts';
import { RestClient } from './rest.ts';
import { parseRateLimit, parseRetryAfter } from './rate-limits.ts';
import { Transport, type RetryOptions } from './transport.ts';
import { print, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { TadaDocumentNode } from 'gql.tada';

export interface ClientOptions {
  /** Where the platform answers, e.g. https://api.example.com (no default: say which). */
  baseUrl: string;
  /** The credential every request carries (default: none, for the public routes). */
  credentials?: Credentials;
  /** Retries of 429, 503 and failed connections (defaults in docs/client.md). */
  retry?: RetryOptions;
  /** Headers sent with every request (a User-Agent of yours, say). */
  headers?: Record<string, string>;
  /** A fetch of your own (a proxy agent, instrumentation); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** For gateway subscriptions: the WebSocket implementation and reconnection policy. */
  gateway?: Omit<GatewayOptions, 'url'> & { url?: string };
}

export class EsportsClient extends RestClient {
  private readonly baseUrl: string;
  private gatewayClient: Gateway | undefined;

  constructor(private readonly options: ClientOptions) {
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetcher = options.fetch ?? ((request: Request) => fetch(request));
    const plain = new Transport(fetcher, authorizer({ none: true }, unreachable), options.retry ?? {}, options.headers ?? {});
    const auth = authorizer(options.credentials ?? { none: true }, async (body, basic) => {
      const request = new Request(`${baseUrl}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
      const response = await plain.send(request, { repeatable: true });
      const answer = await response.json().catch(() => null);
      if (!response.ok) throw errorOf(response, answer, plain.attemptsOf(response));
      return answer as { access_token: string; expires_in: number };
    });
    const transport = new Transport(fetcher, auth, options.retry ?? {}, options.headers ?? {});
    super(baseUrl, transport);
    this.baseUrl = baseUrl;
    this.auth = auth;
  }

  private readonly auth;

  /**
   * Runs a query or mutation on /graphql and answers its data. An answer with errors throws a
   * GraphQLResponseError carrying them (and any partial data). Queries are retried like GETs;
   * mutations after a 429 only.
   */
  async graphql<Result, Variables>(
    document: TadaDocumentNode<Result, Variables> | DocumentNode,
    ...[variables, options]: Variables extends Record<string, never> ? [variables?: Variables, options?: { signal?: AbortSignal; retry?: RetryOptions | false }] : [variables: Variables, options?: { signal?: AbortSignal; retry?: RetryOptions | false }]
  ): Promise<Result> {
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    const request = new Request(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
      signal: options?.signal,
    });
    const response = await this.transport.send(request, { retry: options?.retry, repeatable: operation?.operation === 'query' });
    const answer = (await response.json().catch(() => null)) as { data?: Result | null; errors?: GraphQLErrorEntry[] } | null;
    if (answer?.errors?.length) throw new GraphQLResponseError(response.status, answer.errors, answer.data ?? null, response.headers.get('x-request-id'));
    if (!response.ok || !answer?.data) throw errorOf(response, answer, this.transport.attemptsOf(response));
    return answer.data;
  }

  /** A gateway subscription that resumes from its last cursor across reconnects (docs/client.md). */
  subscribe<Result extends Record<string, { cursor: string }>, Variables extends { after?: string | null }>(
    document: TadaDocumentNode<Result, Variables> | DocumentNode | string,
    variables: Omit<Variables, 'after'>,
    options?: { after?: string | null; signal?: AbortSignal },
  ): ResumableSubscription<Result[keyof Result]> {
    return this.gateway().subscribe<Result, Variables>(document, variables, options);
  }

  /** Closes the gateway socket, if one was opened. */
  async close(): Promise<void> {
    await this.gatewayClient?.dispose();
    this.gatewayClient = undefined;
  }

  private gateway(): Gateway {
    if (!this.gatewayClient) {
      const credentials = this.options.credentials ?? { none: true };
      const path = 'apiKey' in credentials || 'overlayToken' in credentials ? '/api/v1/gateway' : '/graphql';
      const url = this.options.gateway?.url ?? `${this.baseUrl.replace(/^http/, 'ws')}${path}`;
      this.gatewayClient = new Gateway({ ...this.options.gateway, url }, this.auth);
    }
    return this.gatewayClient;
  }
}

export function createClient(options: ClientOptions): EsportsClient {
  return new EsportsClient(options);
}

function errorOf(response: Response, body: unknown, attempts: number): ApiError {
  return new ApiError({ status: response.status, headers: response.headers, attempts, retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')), rateLimit: parseRateLimit(response.headers.get('ratelimit')) }, body);
}

const unreachable = async (): Promise<never> => {
  throw new Error('unreachable');
};

export type { Credentials, TokenProvider } from './auth.ts';
export { ApiError, ApiConnectionError, GatewayError, GraphQLResponseError } from './errors.ts';
export type { ErrorBody, ErrorCode, ErrorDetail, GraphQLErrorEntry, OAuthErrorBody } from './errors.ts';
export type { ApiPaths, ApiResult, BodyOf, CallOptions, NotModified } from './rest.ts';
export { RestClient, toEtag } from './rest.ts';
export type { RetryInfo, RetryOptions } from './transport.ts';
export type { RateLimit } from './rate-limits.ts';
export { parseRateLimit, parseRetryAfter } from './rate-limits.ts';
export { Gateway, type GatewayOptions, type ResumableSubscription } from './gateway.ts';
export { verifyWebhook, WebhookVerificationError, type VerifiedWebhook, type WebhookDelivery, type WebhookHeaders } from './webhooks.ts';
export { graphql, readFragment, type FragmentOf, type ResultOf, type VariablesOf, type TadaDocumentNode } from './graphql.ts';
export type { paths, components, operations } from './generated/openapi.ts';
