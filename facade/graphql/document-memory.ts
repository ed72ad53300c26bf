// The memory that GraphQL documents hold, in bytes: an upper bound of what a parsed document retains,
// caches bounded by it (never by a count of entries: one document of 5,000 tokens holds more than a
// thousand small ones), and the bytes that requests being answered may hold at once, per client and
// in all.
import { LRUCache } from 'lru-cache';
import type { DocumentNode } from 'graphql';
import { GRAPHQL_LIMITS } from './limits.ts';
import { setting } from '../../platform/process/config.ts';

/**
 * An upper bound of the heap (bytes) a document parsed by graphql-js with its locations retains: its
 * nodes, its locations and the token list they point into, and the text. Measured on Node 20 with
 * graphql 16 over documents of every kind (test/document-memory.test.ts holds the estimate above the
 * measurement): at most about 490 bytes per token (`{ a a a … }`: a field node, its name node,
 * empty argument and directive lists, a location and a token each) and about 17 per byte of text (a
 * string of escapes, which the lexer builds a piece at a time); this adds a fifth on top of each.
 */
export function documentBytes(tokens: number, textLength: number): number {
  return 2048 + 600 * tokens + 24 * textLength;
}

/** The bound for a parsed document (graphql-js records its token count on it). */
export function parsedBytes(document: DocumentNode, text?: string): number {
  const tokens = (document as { tokenCount?: number }).tokenCount ?? GRAPHQL_LIMITS.tokens;
  return documentBytes(tokens, text?.length ?? document.loc?.source.body.length ?? GRAPHQL_LIMITS.documentBytes);
}


/** The budgets, from the environment (docs/deployment.md#memory lists them with their defaults). */
export const DOCUMENT_MEMORY = {
  /** Each of the two document caches of /graphql: admission's parse cache and Apollo Server's store of validated documents. */
  cacheBytes: setting('GRAPHQL_DOCUMENT_CACHE_MB') * 1024 * 1024,
  /** Documents that requests being answered hold, all clients together. */
  inFlightBytes: setting('GRAPHQL_INFLIGHT_MB') * 1024 * 1024,
  /** The same, for one client address (or one gateway credential). */
  inFlightPerClientBytes: setting('GRAPHQL_INFLIGHT_PER_CLIENT_MB') * 1024 * 1024,
};


/** An LRU cache whose entries' estimated sizes add up to at most maxBytes; an entry over a quarter of it is not kept. */
export function byteBoundedCache<K extends {}, V extends {}>(maxBytes: number, sizeOf: (value: V, key: K) => number): LRUCache<K, V> {
  return new LRUCache<K, V>({
    maxSize: maxBytes,
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
  });
}

/** A reservation of bytes: given back once, at the latest when its request (or subscription) has ended. */
export interface Hold {
  /**
   * Holds `bytes` from now on: gives back what it held beyond them, or takes more when the budgets
   * allow it (false, and nothing changes, when they do not).
   */
  resize(bytes: number): boolean;
  release(): void;
  readonly bytes: number;
}

/**
 * Bytes held on behalf of clients: a request reserves what its document may hold before it parses
 * it and gives it back when it has been answered; a subscription holds what it keeps for as long as
 * it runs. A reservation that would take a client, or everyone together, over its budget is refused:
 * the request or subscription is answered at once instead.
 */
export class InFlightBytes {
  private total = 0;
  // Clients with something held only: no entry outlives what it counts.
  private readonly perClient = new Map<string, number>();

  constructor(
    readonly maxBytes: number,
    readonly maxPerClient: number,
  ) {}

  private refusal(client: string, more: number): 'client' | 'total' | null {
    if ((this.perClient.get(client) ?? 0) + more > this.maxPerClient) return 'client';
    if (this.total + more > this.maxBytes) return 'total';
    return null;
  }

  /** The reservation, or whose budget it would exceed: the client's or everyone's. */
  reserve(client: string, bytes: number): Hold | 'client' | 'total' {
    const refused = this.refusal(client, bytes);
    if (refused) return refused;
    this.add(client, bytes);
    let held = bytes;
    return {
      resize: (to) => {
        if (to > held && this.refusal(client, to - held)) return false;
        this.add(client, to - held);
        held = to;
        return true;
      },
      release: () => {
        this.add(client, -held);
        held = 0;
      },
      get bytes() {
        return held;
      },
    };
  }

  private add(client: string, bytes: number): void {
    this.total += bytes;
    const held = (this.perClient.get(client) ?? 0) + bytes;
    if (held > 0) this.perClient.set(client, held);
    else this.perClient.delete(client);
  }

  get bytes(): number {
    return this.total;
  }

  /** What one client holds now. */
  heldBy(client: string): number {
    return this.perClient.get(client) ?? 0;
  }
}

/** One for the process: /graphql over HTTP and the gateway's subscriptions share it. */
export const inFlightDocuments = new InFlightBytes(DOCUMENT_MEMORY.inFlightBytes, DOCUMENT_MEMORY.inFlightPerClientBytes);

/** The process's memory budgets by name, for /metrics: what each holds now and its bound. */
const budgets = new Map<string, { used: () => number; limit: number }>();

export function registerMemoryBudget(name: string, limit: number, used: () => number): void {
  budgets.set(name, { used, limit });
}

export function memoryBudgets(): { name: string; used: number; limit: number }[] {
  return [...budgets].map(([name, { used, limit }]) => ({ name, used: used(), limit }));
}

/** A byte-bounded cache (byteBoundedCache) whose bytes /metrics reports as the budget `name`. */
export function budgetedCache<K extends {}, V extends {}>(name: string, maxBytes: number, sizeOf: (value: V, key: K) => number): LRUCache<K, V> {
  const cache = byteBoundedCache<K, V>(maxBytes, sizeOf);
  registerMemoryBudget(name, maxBytes, () => cache.calculatedSize);
  return cache;
}

/** A cache by text as the KeyValueCache interface of Apollo's utils (Apollo Server's document store, the gateway's query plans). */
export function asKeyValueCache<V extends {}>(cache: LRUCache<string, V>) {
  return {
    get: async (key: string) => cache.get(key),
    set: async (key: string, value: V) => void cache.set(key, value),
    delete: async (key: string) => cache.delete(key),
    clear: () => cache.clear(),
  };
}

registerMemoryBudget('graphql_in_flight_documents', DOCUMENT_MEMORY.inFlightBytes, () => inFlightDocuments.bytes);
