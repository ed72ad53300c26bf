// The REST API, typed from the OpenAPI document (openapi-typescript) and called through openapi-fetch,
// which turns paths, parameters and bodies into requests. What this module adds: every refusal is an
// ApiError; a write that takes an Idempotency-Key gets one generated once per call (kept on every
// retry); `ifMatch` takes a read's ETag; lists are iterated page by page with `for await`.
import createFetchClient from 'openapi-fetch';
import type { MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { paths } from './generated/openapi.ts';
import { WRITE_PRECONDITIONS } from './generated/preconditions.ts';
import { ApiError } from './errors.ts';
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rate-limits.ts';
import type { RetryOptions, Transport } from './transport.ts';

type PreconditionHeader = 'idempotency-key' | 'if-match';

/** The client fills these in: an Idempotency-Key of its own, If-Match from `ifMatch`. */
type RelaxHeaders<H> = [H] extends [never] ? H : [H] extends [undefined] ? H : Omit<H, PreconditionHeader> & { [K in Extract<keyof H, PreconditionHeader>]?: H[K] };
type RelaxParameters<P> = P extends { header: infer H }
  ? Omit<P, 'header'> & (RequiredKeysOf<RelaxHeaders<H>> extends never ? { header?: RelaxHeaders<H> } : { header: RelaxHeaders<H> })
  : P;
type RelaxOperation<O> = O extends { parameters: infer P } ? Omit<O, 'parameters'> & { parameters: RelaxParameters<P> } : O;
/** The API's paths, with the precondition headers the client manages made optional. */
export type ApiPaths = { [P in keyof paths]: { [M in keyof paths[P]]: M extends HttpMethod ? RelaxOperation<paths[P][M]> : paths[P][M] } };

/** Options of one call, beside openapi-fetch's own (params, body, headers, signal). */
export interface CallOptions {
  /** If-Match: a read's ETag (the `etag` of its result, or the result itself), or a revision number. */
  ifMatch?: string | number | { etag: string | null } | null;
  /** The Idempotency-Key of this logical write; generated when the write takes one and none is given. */
  idempotencyKey?: string;
  /** This call's retry policy (merged over the client's), or false to send it once. */
  retry?: RetryOptions | false;
  signal?: AbortSignal;
}

type Init<P extends keyof ApiPaths, M extends HttpMethod> = MaybeOptionalInit<ApiPaths[P], M> & CallOptions;
type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I & { [key: string]: unknown }] : [init: I & { [key: string]: unknown }];
type SuccessBody<O> = O extends { responses: infer R } ? { [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never }[keyof R] : never;
export type BodyOf<P extends keyof ApiPaths, M extends HttpMethod> = ApiPaths[P] extends Record<M, infer O> ? SuccessBody<O> : never;
type DataOf<B> = B extends { data: infer D } ? D : B;

/** A successful answer. */
export interface ApiResult<B> {
  /** The body: {data} for a resource, {data, meta} for a page, the body itself for OAuth. */
  body: B;
  /** `body.data`: the resource, or the page's items. */
  data: DataOf<B>;
  status: number;
  headers: Headers;
  /** The strong ETag (a resource's revision): pass it, or this result, as `ifMatch` of a write. */
  etag: string | null;
  /** The write was answered from its Idempotency-Key: it had been made before. */
  replayed: boolean;
  requestId: string | null;
  rateLimit: RateLimit | null;
  /** Requests sent for this call (more than 1 after retries). */
  attempts: number;
}

/** 304: the ETag sent in If-None-Match is still current. */
export interface NotModified {
  status: 304;
  notModified: true;
  etag: string | null;
  headers: Headers;
}

type ListPaths = { [P in PathsWithMethod<ApiPaths, 'get'>]: BodyOf<P, 'get'> extends { meta: { nextCursor: string | null } } ? P : never }[PathsWithMethod<ApiPaths, 'get'>];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function toEtag(value: NonNullable<CallOptions['ifMatch']>): string {
  if (typeof value === 'number') return `"${value}"`;
  if (typeof value === 'string') return value;
  if (!value.etag) throw new TypeError('ifMatch was given a result without an ETag: read the resource whose revision the write depends on.');
  return value.etag;
}

export class RestClient {
  /** openapi-fetch's client over the same transport (no ApiError, no generated keys): for what the helpers do not cover. */
  readonly raw;

  constructor(
    baseUrl: string,
    protected readonly transport: Transport,
  ) {
    this.raw = createFetchClient<ApiPaths>({ baseUrl, fetch: (request) => transport.send(request, { repeatable: SAFE_METHODS.has(request.method) }) });
  }

  get<P extends PathsWithMethod<ApiPaths, 'get'>, I extends Init<P, 'get'>>(path: P, ...init: InitArgs<I>) {
    return this.call<P, 'get'>('get', path, init[0]);
  }
  post<P extends PathsWithMethod<ApiPaths, 'post'>, I extends Init<P, 'post'>>(path: P, ...init: InitArgs<I>) {
    return this.call<P, 'post'>('post', path, init[0]);
  }
  put<P extends PathsWithMethod<ApiPaths, 'put'>, I extends Init<P, 'put'>>(path: P, ...init: InitArgs<I>) {
    return this.call<P, 'put'>('put', path, init[0]);
  }
  patch<P extends PathsWithMethod<ApiPaths, 'patch'>, I extends Init<P, 'patch'>>(path: P, ...init: InitArgs<I>) {
    return this.call<P, 'patch'>('patch', path, init[0]);
  }
  delete<P extends PathsWithMethod<ApiPaths, 'delete'>, I extends Init<P, 'delete'>>(path: P, ...init: InitArgs<I>) {
    return this.call<P, 'delete'>('delete', path, init[0]);
  }

  /** A GET that may answer 304 to If-None-Match (`ifNoneMatch`: an ETag kept from an earlier read). */
  async getIfChanged<P extends PathsWithMethod<ApiPaths, 'get'>, I extends Init<P, 'get'>>(path: P, ifNoneMatch: string | null, ...init: InitArgs<I>): Promise<ApiResult<BodyOf<P, 'get'>> | NotModified> {
    const options = (init[0] ?? {}) as Record<string, unknown>;
    const headers = new Headers(options.headers as HeadersInit | undefined);
    if (ifNoneMatch) headers.set('if-none-match', ifNoneMatch);
    return this.send('get', path, { ...options, headers }, true);
  }

  /** Every page of a list, fetched as the loop asks for it: `for await (const page of api.pages(…))`. */
  async *pages<P extends ListPaths, I extends Init<P, 'get'>>(path: P, ...init: InitArgs<I>): AsyncGenerator<ApiResult<BodyOf<P, 'get'>>, void, undefined> {
    const options = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    let cursor = options.params?.query?.cursor as string | undefined;
    for (;;) {
      const page = await this.call<P, 'get'>('get', path, { ...options, params: { ...options.params, query: { ...options.params?.query, ...(cursor ? { cursor } : {}) } } });
      yield page;
      const meta = (page.body as { meta: { nextCursor: string | null; hasMore: boolean } }).meta;
      if (!meta.hasMore || !meta.nextCursor) return;
      cursor = meta.nextCursor;
    }
  }

  /** Every item of a list, page after page. */
  async *items<P extends ListPaths, I extends Init<P, 'get'>>(path: P, ...init: InitArgs<I>): AsyncGenerator<DataOf<BodyOf<P, 'get'>> extends (infer T)[] ? T : never, void, undefined> {
    const pages = this.pages<P, I>(path, ...init) as AsyncGenerator<{ data: unknown }>;
    for await (const page of pages) yield* page.data as never[];
  }

  private async call<P extends keyof ApiPaths, M extends HttpMethod>(method: M, path: P, init: unknown): Promise<ApiResult<BodyOf<P, M>>> {
    return this.send(method, path, init, false) as Promise<ApiResult<BodyOf<P, M>>>;
  }

  private async send(method: HttpMethod, path: keyof ApiPaths, init: unknown, allowNotModified: boolean): Promise<ApiResult<never> | NotModified> {
    const { ifMatch, idempotencyKey, retry, ...options } = (init ?? {}) as CallOptions & { headers?: HeadersInit; params?: { header?: Record<string, unknown> } };
    const METHOD = method.toUpperCase();
    const rule = WRITE_PRECONDITIONS[`${METHOD} ${path}`];
    const headers = new Headers(options.headers);
    if (ifMatch != null) headers.set('if-match', toEtag(ifMatch));
    if (rule?.idempotencyKey) {
      // Once per logical write: every retry of this call sends the same key.
      headers.set('idempotency-key', idempotencyKey ?? (options.params?.header?.['idempotency-key'] as string | undefined) ?? crypto.randomUUID());
    }
    const repeatable = SAFE_METHODS.has(METHOD) || headers.has('idempotency-key') || headers.has('if-match') || options.params?.header?.['if-match'] != null;
    const { response, data, error } = await this.raw.request(method as 'get', path as never, {
      ...(options as object),
      headers,
      fetch: (request: Request) => this.transport.send(request, { retry, repeatable }),
    } as never);
    const etag = response.headers.get('etag');
    if (response.status === 304 && allowNotModified) return { status: 304, notModified: true, etag, headers: response.headers };
    if (!response.ok) {
      throw new ApiError(
        { status: response.status, headers: response.headers, attempts: this.transport.attemptsOf(response), retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')), rateLimit: parseRateLimit(response.headers.get('ratelimit')) },
        error,
      );
    }
    const body = data as never;
    return {
      body,
      data: (body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body) as never,
      status: response.status,
      headers: response.headers,
      etag,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      requestId: response.headers.get('x-request-id'),
      rateLimit: parseRateLimit(response.headers.get('ratelimit')),
      attempts: this.transport.attemptsOf(response),
    };
  }
}
