// Schemas shared by many routes: headers, error body, list metadata.
import { z } from 'zod';
import { matchesIfNoneMatch } from '../../platform/api/conditional-reads.ts';
import { etagOf } from '../../platform/api/preconditions.ts';
import { INSTALLATION_ID_MAX_LENGTH } from '../../platform/domain/authority.ts';
import type { RouteInput } from './table.ts';

// Never a reason to refuse a request: one that does not fit the rule is replaced (http/request-id.ts).
export const requestIdHeader = z
  .string()
  .optional()
  .describe('Your identifier for this request (≤ 128 of A–Z a–z 0–9 . _ : -): echoed in x-request-id. Otherwise, or when it does not fit that rule, one is generated; the request is not refused for it.');

/**
 * svc-installation-id. Whether it is required, its length and what it must name, the subgraph judges
 * (platform/domain/authority.ts namedInstallation), so that REST and GraphQL answer the same error.
 */
export const installationHeader = (description: string) => z.string().optional().describe(`${description} At most ${INSTALLATION_ID_MAX_LENGTH} characters.`);

export const errorBody = z
  .object({
    error: z.object({
      code: z.enum([
        'validation_failed',
        'invalid_token',
        'forbidden',
        'not_found',
        'conflict',
        'precondition_failed',
        'precondition_required',
        'rate_limited',
        'internal',
        'service_unavailable',
      ]),
      message: z.string(),
      requestId: z.string(),
      details: z
        .array(
          z.object({
            field: z.string().optional(),
            issue: z.string(),
            matchId: z.string().optional().describe('The match the issue is about, when another than the one addressed (downstream_started: the match that already started).'),
          }),
        )
        .optional(),
    }),
  })
  .meta({ id: 'Error' });

export const pageMeta = z
  .object({ nextCursor: z.string().nullable(), hasMore: z.boolean() })
  .meta({ id: 'PageMeta' });

/** A path parameter naming a resource by id. */
export const idParam = z.string().min(1).max(128);
// Digits only: Number() would also read 0x10, 1e2 or " 1" as a page size.
export const limitParam = z
  .preprocess((value) => (typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : value), z.number({ error: 'must be a whole number written in digits' }).int().min(1).max(100))
  .optional()
  .describe('Page size, 1–100 (default 20).');
export const cursorParam = z.string().min(1).max(500).optional().describe('meta.nextCursor of the previous page.');

/**
 * The GraphQL selection that answers a response schema: its fields in order, nested objects (and lists
 * of them, nullable or not) as sub-selections. Derived, so a field is added in one place: the schema.
 */
export function selectionOf(schema: z.ZodObject): string {
  return Object.entries(schema.shape)
    .map(([name, field]) => {
      const sub = subSelection(field as z.ZodType);
      return sub ? `${name} { ${sub} }` : name;
    })
    .join(' ');
}

/**
 * What a field selects below it: an object's fields; for a union (a GraphQL union), each option's
 * fields in a fragment on the GraphQL type its meta id names. null for a leaf.
 */
function subSelection(schema: z.ZodType): string | null {
  if (schema instanceof z.ZodObject) return selectionOf(schema);
  if (schema instanceof z.ZodUnion) {
    return (schema.options as z.ZodType[])
      .map((option) => {
        const type = (z.globalRegistry.get(option) as { id?: string } | undefined)?.id;
        if (!type || !(option instanceof z.ZodObject)) throw new Error('Each option of a union read from GraphQL is an object whose meta id is its GraphQL type.');
        return `... on ${type} { ${selectionOf(option)} }`;
      })
      .join(' ');
  }
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return subSelection(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return subSelection(schema.element as z.ZodType);
  return null;
}

/** Headers of a conditional read. */
export const readHeaders = z.object({ 'if-none-match': z.string().max(500).optional(), 'x-request-id': requestIdHeader });

export const ETAG_DOC = { ETag: { description: 'Strong ETag of this page; send it as If-None-Match to get 304 while it is current.', schema: { type: 'string' } } };

/**
 * respond of a read whose ETag is the event revision of the object `pick` finds in the data: the
 * ETag header, and 304 when If-None-Match lists it.
 */
export const revisionEtag = (pick: (data: Record<string, unknown>) => unknown) => (data: Record<string, unknown>, input: RouteInput) => {
  const etag = etagOf((pick(data) as { revision: number }).revision);
  return { headers: { ETag: etag }, notModified: matchesIfNoneMatch(input.headers['if-none-match'] as string | undefined, etag) };
};

/** A conditional page ({etag, notModified, data, meta}) picked from the operation's data, answered as a list with its ETag or as 304. */
export const conditionalList = (pick: (data: Record<string, unknown>) => unknown) => ({
  result: (data: Record<string, unknown>) => {
    const page = pick(data) as { data: unknown[]; meta: unknown };
    return { data: page.data, meta: page.meta };
  },
  respond: (data: Record<string, unknown>) => {
    const page = pick(data) as { etag: string; notModified: boolean };
    return { headers: { ETag: page.etag }, notModified: page.notModified };
  },
});

/** Headers of a POST that creates: Idempotency-Key required. */
export const idempotentHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).describe('Required: your unique key for this request; a retry with it replays the first result (24 h).'),
  'x-request-id': requestIdHeader,
});

export const REPLAY_HEADER = {
  'Idempotent-Replayed': { description: 'true when this is the stored result of an earlier request with the same Idempotency-Key.', schema: { type: 'string' } },
};

/** The Idempotent-Replayed header of an answer whose `replayed` is true. */
export const replayedHeader = (value: unknown): Record<string, string> => ((value as { replayed?: boolean }).replayed ? { 'Idempotent-Replayed': 'true' } : {});
