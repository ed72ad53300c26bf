// Trusted documents on /graphql: a request may name a document of the platform's manifest by its
// hash instead of sending its text, in either form clients use (GraphQL over HTTP's persisted
// documents, {"documentId": "sha256:<hex>"}, and Apollo's {"extensions": {"persistedQuery":
// {"version": 1, "sha256Hash": "<hex>"}}}). The manifest is the route table's operations, generated
// into schema/trusted-documents.json (npm run schema, run by npm run generate) in Apollo's persisted-query manifest format, which
// Apollo Router reads too. GRAPHQL_TRUSTED_DOCUMENTS decides what is accepted:
//   off      text only: a hash is answered PERSISTED_QUERY_NOT_SUPPORTED;
//   allow    (default) a hash of the manifest or any text;
//   require  a hash of the manifest only, except for the clients GRAPHQL_ANY_DOCUMENT_CLIENTS names
//            (application ids for their tokens, organisation ids for their API keys).
// A hash resolves to its text before admission: every document still passes the same checks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../platform/api/crypto.ts';
import { setting } from '../../platform/process/config.ts';
import { getOperationAST, parse } from 'graphql';
import { schemaDir } from '../../subgraphs/compose.ts';
import type { Context } from 'koa';
import type { RouteRow } from '../routes/table.ts';
import type { RequestScope } from '../../platform/domain/context.ts';
import { sendGraphQLRequestError } from '../http/problem.ts';
import type { GraphQLRequestParts } from './request-parts.ts';

export const TRUSTED_DOCUMENTS_PATH = path.join(schemaDir, 'trusted-documents.json');

export interface ManifestOperation {
  id: string;
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

export interface Manifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: ManifestOperation[];
}


/** The manifest of the route table's operations, one entry per distinct text, in name order. */
export function manifestOf(routes: RouteRow[]): Manifest {
  const operations = new Map<string, ManifestOperation>();
  // An operation's queryHash is the sha256 of its text (operations.ts): the manifest's id.
  for (const { operation } of routes) operations.set(operation.queryHash, { id: operation.queryHash, name: operation.name, type: operation.definition.operation, body: operation.source });
  return { format: 'apollo-persisted-query-manifest', version: 1, operations: [...operations.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)) };
}

export const printManifest = (manifest: Manifest) => `${JSON.stringify(manifest, null, 2)}\n`;

export type TrustedDocumentsMode = 'off' | 'allow' | 'require';

export interface TrustedDocumentsConfig {
  mode: TrustedDocumentsMode;
  /** Who may send any document when mode is require. */
  anyDocument: { applications: ReadonlySet<string>; organisations: ReadonlySet<string> };
}

/** GRAPHQL_TRUSTED_DOCUMENTS and GRAPHQL_ANY_DOCUMENT_CLIENTS; a value that cannot be read stops the start. */
export function trustedDocumentsConfig(env: NodeJS.ProcessEnv = process.env): TrustedDocumentsConfig {
  return { mode: setting('GRAPHQL_TRUSTED_DOCUMENTS', env), anyDocument: setting('GRAPHQL_ANY_DOCUMENT_CLIENTS', env) };
}

/** The committed manifest, by hash; checked at start that each body is one named operation. */
export function loadManifest(file = TRUSTED_DOCUMENTS_PATH): Map<string, string> {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const byHash = new Map<string, string>();
  for (const operation of manifest.operations) {
    if (sha256(operation.body) !== operation.id || !getOperationAST(parse(operation.body))) throw new Error(`${file}: the entry ${operation.name} does not match its id (npm run generate writes it again)`);
    byHash.set(operation.id, operation.body);
  }
  return byHash;
}

/** What a request names instead of a text: the hash, and which parameter named it. */
export interface NamedDocument {
  hash: string;
  field: 'documentId' | 'extensions.persistedQuery.sha256Hash';
}

export type Resolution =
  | { kind: 'text' }
  | { kind: 'named'; named: NamedDocument; text: string }
  | { kind: 'refused'; status: number; code: string; message: string; field: string };

/**
 * What the request's document is: its own text, a manifest document it names, or a refusal in the
 * conventions of the form it used (Apollo's PERSISTED_QUERY_* codes, which APQ clients act on).
 */
export function resolveDocument(mode: TrustedDocumentsMode, manifest: ReadonlyMap<string, string>, request: { query?: unknown; documentId?: unknown; extensions?: unknown }): Resolution {
  const persisted = (request.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
  const named: NamedDocument | null =
    request.documentId !== undefined
      ? { hash: typeof request.documentId === 'string' && request.documentId.startsWith('sha256:') ? request.documentId.slice(7) : String(request.documentId), field: 'documentId' }
      : persisted && typeof persisted === 'object'
        ? { hash: String(persisted.sha256Hash ?? ''), field: 'extensions.persistedQuery.sha256Hash' }
        : null;
  if (!named) return { kind: 'text' };
  if (named.field === 'documentId' && typeof request.documentId !== 'string') {
    return { kind: 'refused', status: 400, code: 'BAD_REQUEST', message: 'documentId must be a string, given once.', field: 'documentId' };
  }
  if (mode === 'off') return { kind: 'refused', status: 400, code: 'PERSISTED_QUERY_NOT_SUPPORTED', message: 'PersistedQueryNotSupported', field: named.field };
  if (typeof request.query === 'string') {
    // A text with its hash (an APQ client registering it): run as text when they agree; nothing is registered.
    if (sha256(request.query) !== named.hash) return { kind: 'refused', status: 400, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: 'The query does not match its sha256Hash.', field: named.field };
    return { kind: 'text' };
  }
  const text = /^[0-9a-f]{64}$/.test(named.hash) ? manifest.get(named.hash) : undefined;
  if (text === undefined) return { kind: 'refused', status: 404, code: 'PERSISTED_QUERY_NOT_FOUND', message: 'PersistedQueryNotFound', field: named.field };
  return { kind: 'named', named, text };
}

/** The HTTP side: resolves a named document into the request Apollo Server reads, and applies the mode. */
export class TrustedDocuments {
  constructor(
    readonly config: TrustedDocumentsConfig,
    private readonly manifest: ReadonlyMap<string, string>,
  ) {}

  /**
   * The request's parts once its named document is resolved (the body or URL rewritten to carry its
   * text), or null when it was refused (answered here). Runs after the request has paid its entry:
   * the require mode reads the caller's credential, resolved by that charge.
   */
  async admit(ctx: Context, parts: GraphQLRequestParts & { documentId?: unknown; extensions?: unknown }, scope: RequestScope): Promise<GraphQLRequestParts | null> {
    const resolution = resolveDocument(this.config.mode, this.manifest, parts);
    if (resolution.kind === 'refused') {
      sendGraphQLRequestError(ctx, resolution.status, resolution.code, resolution.message, [{ field: resolution.field, issue: resolution.code.toLowerCase() }]);
      return null;
    }
    const query = resolution.kind === 'named' ? resolution.text : parts.query;
    // A request without a text (a batch, a missing query) is Apollo Server's to refuse, in its words.
    if (this.config.mode === 'require' && typeof query === 'string' && resolution.kind !== 'named' && !this.manifest.has(sha256(query)) && !(await this.mayRunAny(scope))) {
      sendGraphQLRequestError(ctx, 400, 'PERSISTED_QUERY_NOT_IN_LIST', 'Only the documents of the platform\'s manifest run here: send one by its documentId (docs/graphql.md, Trusted documents).', [{ field: 'query', issue: 'not_in_manifest' }]);
      return null;
    }
    if (resolution.kind === 'text' && parts.documentId === undefined && !hasPersistedQuery(parts.extensions)) return parts;
    rewrite(ctx, query as string | undefined);
    return { ...parts, query };
  }

  /** Whether the caller is one of GRAPHQL_ANY_DOCUMENT_CLIENTS (its token's application, or its key's organisation). */
  private async mayRunAny(scope: RequestScope): Promise<boolean> {
    const { applications, organisations } = this.config.anyDocument;
    const authority = scope.authority ? await scope.authority.catch(() => null) : null;
    if (authority && applications.has(authority.applicationId)) return true;
    const key = scope.keyOrganisation ? await scope.keyOrganisation.catch(() => null) : null;
    return Boolean(key && !key.eventId && organisations.has(key.organisationId));
  }
}

const hasPersistedQuery = (extensions: unknown) => Boolean(extensions && typeof extensions === 'object' && 'persistedQuery' in extensions);

/** Puts the document's text where Apollo Server reads it, without the parameters that named it. */
function rewrite(ctx: Context, query: string | undefined): void {
  const strip = (extensions: Record<string, unknown>) => {
    const { persistedQuery: _named, ...rest } = extensions;
    return rest;
  };
  if (ctx.method === 'POST') {
    const body = (ctx.request as { body?: Record<string, unknown> }).body!;
    delete body.documentId;
    if (query !== undefined) body.query = query;
    if (body.extensions && typeof body.extensions === 'object' && !Array.isArray(body.extensions)) body.extensions = strip(body.extensions as Record<string, unknown>);
    return;
  }
  const search = new URLSearchParams(ctx.querystring);
  search.delete('documentId');
  if (query !== undefined) search.set('query', query);
  const extensions = search.get('extensions');
  if (extensions) {
    try {
      const rest = strip(JSON.parse(extensions) as Record<string, unknown>);
      if (Object.keys(rest).length) search.set('extensions', JSON.stringify(rest));
      else search.delete('extensions');
    } catch {
      // Apollo Server answers extensions that are not JSON
    }
  }
  ctx.querystring = search.toString();
}
