// A route's operation sent as a GraphQL request, and the normalising of answers two servers give: shared
// by the tests that compare two ways of running the same operations (direct and gateway execution,
// the platform and a federation router).
import type { RouteRow } from '../../facade/routes/table.ts';
import { samplePath, type Sample } from './route-samples.ts';

/**
 * What differs by nature between two servers: request ids, issued tokens, generated resource ids, and
 * the moments each loaded its demo data (updatedAt, and the cursors that hold creation times).
 */
export function normalise(text: string): string {
  return text
    .replace(/"updatedAt":"[^"]+"/g, '"updatedAt":"…"')
    .replace(/"nextCursor":"[^"]+"/g, '"nextCursor":"…"')
    .replace(/"requestId":"[^"]+"/g, '"requestId":"…"')
    .replace(/"(access_token|accessToken|refresh_token|refreshToken)":"[^"]+"/g, '"$1":"…"')
    .replace(/"secret":"whsec_[^"]+"/g, '"secret":"whsec_…"')
    .replace(/"(key|prefix)":"okey_[^"]+"/g, '"$1":"okey_…"')
    .replace(/"(token|prefix)":"ovl_[^"]+"/g, '"$1":"ovl_…"')
    .replace(/"(lastUsedAt|expiresAt|revokedAt|authorizedAt)":"[^"]+"/g, '"$1":"…"')
    // Last-use marks are written after the answer, on each server at its own moment.
    .replace(/"lastUsedAt":null/g, '"lastUsedAt":"…"')
    .replace(/"(iat|exp)":\d+/g, '"$1":…')
    .replace(/"(createdAt|updatedAt|deliveredAt|startedAt)":"[^"]+"/g, '"$1":"…"')
    .replace(/\b(chg_test)_[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, '$1_…')
    .replace(/\b(evt|par|stg|grp|inv|adj|tok|whe|dlv|key|otr|ovt)_[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, '$1_…');
}

/** The /graphql request that runs a route sample's operation with the variables the route would give it; null when the route refuses the sample first. */
export async function graphqlRequestOf(row: RouteRow, sample: Sample): Promise<{ headers: Record<string, string>; body: string } | null> {
  const path = await samplePath(sample);
  const init = (typeof sample.init === 'function' ? await sample.init() : sample.init) ?? {};
  const url = new URL(path, 'http://localhost');
  const names = [...row.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const match = new RegExp(`^${row.path.replace(/\{\w+\}/g, '([^/]+)')}$`).exec(url.pathname);
  if (!match) return null;
  const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]));
  let body: unknown;
  if (typeof init.body === 'string') {
    try {
      body = row.input.bodyType === 'form' ? Object.fromEntries(new URLSearchParams(init.body)) : JSON.parse(init.body);
    } catch {
      return null;
    }
  }
  const parts = {
    path: row.input.path?.safeParse(Object.fromEntries(names.map((name, k) => [name, decodeURIComponent(match[k + 1])]))),
    query: row.input.query?.safeParse(Object.fromEntries(url.searchParams)),
    headers: row.input.headers?.safeParse(headers),
    body: row.input.body?.safeParse(body),
  };
  if (Object.values(parts).some((part) => part && !part.success)) return null;
  let variables: Record<string, unknown>;
  try {
    variables = row.variables({ path: (parts.path?.data ?? {}) as Record<string, string>, query: parts.query?.data ?? {}, headers: parts.headers?.data ?? {}, body: parts.body?.data });
  } catch {
    return null;
  }
  const credentials = Object.fromEntries(Object.entries(headers).filter(([name]) => ['authorization', 'x-api-key', 'x-overlay-token', 'svc-installation-id'].includes(name)));
  return { headers: credentials, body: JSON.stringify({ query: row.operation.source, variables, operationName: row.operation.name }) };
}
