// A REST route is a row: a named GraphQL operation, how the request becomes its variables and how
// its result becomes the HTTP response. Rows are mounted by mount.ts and documented by openapi/.
import type { z } from 'zod';
import type { BodyType } from '../http/body.ts';
import type { PreparedOperation } from '../graphql/operations.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

export interface RouteRow {
  operationId: string;
  method: Method;
  /** OpenAPI-style path, e.g. /api/v2/events/{eventId}. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** bearer: OAuth access token; client: OAuth client authentication; apiKey: organisation API key in x-api-key (v1); none. */
  security: 'bearer' | 'client' | 'apiKey' | 'none';
  /** apiKey routes that an overlay token of the event (x-overlay-token) reads too: the event's own v1 routes. */
  overlay?: boolean;
  input: {
    path?: z.ZodObject;
    query?: z.ZodObject;
    headers?: z.ZodObject;
    body?: z.ZodType;
    bodyType?: BodyType;
    /** Headers the route requires although their absence is answered by the operation (If-Match → 428), not by validation. */
    requiredHeaders?: string[];
  };
  operation: PreparedOperation;
  variables(input: RouteInput): Record<string, unknown>;
  /** The REST `data` (or, for raw routes, the whole body) from the operation's data. */
  result(data: Record<string, unknown>): unknown;
  success: { status: 200 | 201; schema: z.ZodType; description: string };
  /** Error statuses this route can answer, for the documentation. */
  errors: number[];
  /** envelope: {"data": …}; list: the result is {data, meta}; raw: the result is the body (OAuth). */
  format?: 'envelope' | 'list' | 'raw';
  /** Status and headers that depend on the result: ETag, replay markers, 304. */
  respond?(data: Record<string, unknown>, input: RouteInput): { status?: number; headers?: Record<string, string>; notModified?: boolean };
  /** api: the platform error body; oauth: RFC 6749 error bodies. */
  errorFormat?: 'api' | 'oauth';
  responseHeaders?: Record<string, string>;
  /** Response headers to document (ETag, Idempotent-Replayed, …). */
  documentedHeaders?: Record<string, { description: string; schema: { type: string } }>;
  /** The route answers 304 Not Modified to a current If-None-Match. */
  notModified?: boolean;
  example?: { request?: string; response: unknown };
}

export const defineRoute = (row: RouteRow): RouteRow => row;
