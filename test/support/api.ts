// Small helpers for talking to the API in tests.
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
