// Typed failures: every answer the API refuses becomes an ApiError carrying the API's own error body,
// so a caller switches on `code` (the closed list of docs/errors.md) rather than on message text.
import type { components } from './generated/openapi.ts';
import type { RateLimit } from './rate-limits.ts';

/** The platform's error body (docs/errors.md). */
export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['error']['code'];
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];

/** An RFC 6749 §5.2 error body, as the OAuth endpoints answer. */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  /** How many requests were sent for this call (1 when it was not retried). */
  attempts: number;
  retryAfterSeconds: number | null;
  rateLimit: RateLimit | null;
}

/** A non-2xx answer of the REST API or an OAuth endpoint. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The platform's code (`rate_limited`, `precondition_failed`, …), or the OAuth `error`. */
  readonly code: ErrorCode | string;
  readonly details: ErrorDetail[];
  readonly requestId: string | null;
  /** The body as answered: the platform's error body, an OAuth error body, or the raw text. */
  readonly body: ErrorBody | OAuthErrorBody | string;
  readonly headers: Headers;
  readonly attempts: number;
  /** Seconds from Retry-After, on 429 and 503. */
  readonly retryAfterSeconds: number | null;
  readonly rateLimit: RateLimit | null;

  constructor(answer: Answer, body: unknown) {
    const platform = isErrorBody(body) ? body.error : undefined;
    const oauth = !platform && isOAuthErrorBody(body) ? body : undefined;
    const code = platform?.code ?? oauth?.error ?? `http_${answer.status}`;
    const message = platform?.message ?? oauth?.error_description ?? oauth?.error ?? (typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${answer.status}`);
    super(`${answer.status} ${code}: ${message}`);
    this.status = answer.status;
    this.code = code;
    this.details = platform?.details ?? [];
    this.requestId = platform?.requestId ?? answer.headers.get('x-request-id');
    this.body = platform ? (body as ErrorBody) : oauth ?? (typeof body === 'string' ? body : JSON.stringify(body));
    this.headers = answer.headers;
    this.attempts = answer.attempts;
    this.retryAfterSeconds = answer.retryAfterSeconds;
    this.rateLimit = answer.rateLimit;
  }
}

/** The request never got an answer: the connection failed (after the retries allowed, if any). */
export class ApiConnectionError extends Error {
  override readonly name = 'ApiConnectionError';
  constructor(
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface GraphQLErrorEntry {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; details?: ErrorDetail[]; requestId?: string; retryAfter?: number; [key: string]: unknown };
}

/** A GraphQL answer with errors: a refused request (4xx, no data) or field errors beside partial data. */
export class GraphQLResponseError extends Error {
  override readonly name = 'GraphQLResponseError';
  /** The first error's extensions.code. */
  readonly code: string | undefined;
  constructor(
    readonly status: number,
    readonly errors: GraphQLErrorEntry[],
    /** What was resolved before the errors (null or absent on a request error). */
    readonly data: unknown,
    readonly requestId: string | null,
  ) {
    super(`${status} ${errors[0]?.extensions?.code ?? 'graphql_error'}: ${errors.map((e) => e.message).join('; ')}`);
    this.code = errors[0]?.extensions?.code;
  }
}

/** A gateway subscription that ended for good: refused (not_found, forbidden, an expired cursor…) or its socket closed for a reason a reconnect cannot fix (4403). */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    message: string,
    /** The API's code from extensions.code, or `closed` for a socket close. */
    readonly code: string,
    readonly details: ErrorDetail[] = [],
    /** The WebSocket close code, when the socket closed. */
    readonly closeCode?: number,
  ) {
    super(message);
  }
}

export function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function isOAuthErrorBody(body: unknown): body is OAuthErrorBody {
  return typeof (body as { error?: unknown } | null)?.error === 'string';
}
