// Conditional reads (ETag and If-None-Match) of the list reads of every subgraph, and of the REST
// routes that answer 304 for them.
import { createHash } from 'node:crypto';
import type { Page } from './pagination.ts';

export interface ConditionalPage<T> extends Partial<Page<T>> {
  etag: string;
  notModified: boolean;
}

/**
 * A strong ETag of a conditional read: `prefix` names the read, `version` is what every change to
 * it moves (an event revision, a change-log sequence), and `parts` (joined by |) tell apart the views
 * of one version, e.g. binding, cursor and page size.
 */
export function pageEtag(prefix: string, version: number | string, ...parts: (string | number)[]): string {
  return `"${prefix}${version}-${createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 12)}"`;
}

/**
 * True when an If-None-Match header lists this ETag, or is * (any current representation) —
 * callers answer 304 only for a request that would otherwise have answered 200. The comparison is
 * weak, as RFC 9110 has it for If-None-Match: W/"x" matches "x" (a proxy may have weakened it).
 */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string, wildcard = true): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return (wildcard && value === '*') || (value.startsWith('W/') ? value.slice(2) : value) === etag;
  });
}
