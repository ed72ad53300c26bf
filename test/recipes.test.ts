// The steps of docs/development.md's recipes that a test can check, each failing when it is skipped:
// a route module whose rows the table does not hold, a write contract no route serves (its handler
// is checked by the typecheck), a route or a subscription no document names, a
// change type missing from the catalogue or from the webhooks table (change-catalogue.test.ts), stale
// SDL or trusted documents (schema-drift.test.ts), a route without samples (e2e/openapi.test.ts).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../platform/process/paths.ts';
import { routeTable } from '../facade/routes/index.ts';
import type { RouteRow } from '../facade/routes/table.ts';
import { SUBSCRIPTIONS } from '../facade/realtime/subscriptions.ts';
import { WRITES } from '../subgraphs/competitions/write-contracts.ts';

const isRoute = (value: unknown): value is RouteRow =>
  typeof value === 'object' && value !== null && typeof (value as RouteRow).operationId === 'string' && typeof (value as RouteRow).path === 'string';

const docs = readdirSync(fromRoot('docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => readFileSync(fromRoot(path.join('docs', name)), 'utf8'))
  .join('\n');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the docs name the route's path: whole (its parameters as {name} or as a demo id), or its
 * tail after `…/` from any segment but the last (`POST …/{endpointId}/rotate-secret`).
 */
function named(route: RouteRow): boolean {
  const segments = route.path.split('/').slice(1);
  const pattern = (segment: string) => (/^\{\w+\}$/.test(segment) ? `(${escape(segment)}|[A-Za-z0-9_.$-]+)` : escape(segment));
  for (let from = 0; from < segments.length - 1 || from === 0; from++) {
    const tail = segments.slice(from).map(pattern).join('/');
    const head = from === 0 ? '' : '…/';
    if (new RegExp(`${escape(head)}${from === 0 ? '/' : ''}${tail}(?![A-Za-z0-9_/-])`).test(docs)) return true;
  }
  return false;
}

describe('adding a REST route', () => {
  it('every route a module of facade/routes exports is in the route table (a new module is registered in index.ts)', async () => {
    const listed = new Set(routeTable);
    const missing: string[] = [];
    for (const name of readdirSync(fromRoot('facade/routes')).filter((file) => file.endsWith('.ts'))) {
      const module = (await import(fromRoot(path.join('facade/routes', name)))) as Record<string, unknown>;
      for (const exported of Object.values(module)) {
        if (!Array.isArray(exported)) continue;
        for (const row of exported) if (isRoute(row) && !listed.has(row)) missing.push(`${name}: ${row.operationId}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every write contract is served by a route of the table, at its method and path (a writeRoute row in competition-writes.ts)', () => {
    const served = new Set(routeTable.map((route) => `${route.operationId} ${route.method.toUpperCase()} ${route.path}`));
    expect(Object.entries(WRITES).map(([operation, contract]) => `${operation} ${contract.method} ${contract.path}`).filter((write) => !served.has(write))).toEqual([]);
  });

  it('every route of the table is named in docs/ by its path', () => {
    expect(routeTable.filter((route) => !named(route)).map((route) => `${route.method.toUpperCase()} ${route.path}`)).toEqual([]);
  });
});

describe('adding a subscription', () => {
  it('every field of the realtime table is documented in docs/realtime.md', () => {
    const realtime = readFileSync(fromRoot('docs/realtime.md'), 'utf8');
    expect(Object.keys(SUBSCRIPTIONS).filter((field) => !new RegExp(`\\b${field}\\b`).test(realtime))).toEqual([]);
  });
});
