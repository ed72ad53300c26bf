// Small helpers for talking to the API in tests.
import { expect } from 'vitest';
import { bearer } from './server.ts';

export interface Call {
  method?: string;
  token?: string | null;
  ifMatch?: string | number | null;
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(base: string, path: string, options: Call = {}) {
  const headers: Record<string, string> = { ...(options.token === null ? {} : bearer(options.token ?? 'demo-token-app')), ...options.headers };
  if (options.ifMatch != null) headers['if-match'] = typeof options.ifMatch === 'number' ? `"${options.ifMatch}"` : options.ifMatch;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

let counter = 0;
export const uniqueKey = (prefix = 'key') => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** Expects an error answer: its status, its code and, when given, a field or issue among its details. */
export function expectError(response: Awaited<ReturnType<typeof call>>, status: number, code: string, issueOrField?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  if (issueOrField) expect(response.body.error.details.flatMap((d: { field?: string; issue: string }) => [d.field, d.issue])).toContain(issueOrField);
}

/** A write mutation by POST /graphql: its data (write results by field) or its errors. */
export async function writeByGraphQL(base: string, query: string, variables: Record<string, unknown>, token = 'demo-token-app') {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, { resourceId: string; revision: number; updated: boolean; replayed: boolean }>; errors?: { extensions: { code: string; details?: { field?: string; issue: string }[] } }[] };
}
