// One error vocabulary for every subgraph and the facade. `code` is the stable contract (docs/errors.md);
// `details` carries the precise reason. GraphQL errors carry both in `extensions`.
import { GraphQLError } from 'graphql';

export const errorStatus = {
  validation_failed: 400,
  invalid_token: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  precondition_required: 428,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetail {
  field?: string;
  issue: string;
  /** The match the issue is about, when it is another than the one addressed (downstream_started). */
  matchId?: string;
}

export interface ApiErrorOptions {
  /** More for GraphQL's extensions (e.g. oauthError). */
  extensions?: Record<string, unknown>;
  /** An HTTP status other than the code's own, for the few HTTP-level cases (405, 413, 415). */
  status?: number;
  /** Headers to answer with it (e.g. Allow). */
  headers?: Record<string, string>;
}

/** The one error class: thrown by subgraphs and the facade alike, answered by one function (facade/http/problem.ts). */
export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[], options: ApiErrorOptions = {}) {
    super(message, { extensions: { code, ...(details ? { details } : {}), ...options.extensions } });
    this.code = code;
    this.details = details;
    this.status = options.status ?? errorStatus[code];
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} was not found.`);
/** The row a lookup found, or not_found naming what was looked for. */
export async function foundOr<T>(lookup: Promise<T | null | undefined>, what: string): Promise<T> {
  const row = await lookup;
  if (row == null) throw notFound(what);
  return row;
}
export const forbidden = (message: string, issue: string) => new ApiError('forbidden', message, [{ issue }]);
export const invalidToken = (message = 'The access token is missing, unknown, expired or revoked.') =>
  new ApiError('invalid_token', message);
export const validationFailed = (message: string, details: ErrorDetail[]) =>
  new ApiError('validation_failed', message, details);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in errorStatus;
}

/** An OAuth 2.0 (RFC 6749 §5.2) error: `oauthError` is the RFC's error code. */
export const oauthError = (oauth: string, message: string) =>
  new ApiError(oauth === 'invalid_client' ? 'invalid_token' : 'validation_failed', message, undefined, { extensions: { oauthError: oauth } });
