// Schemas shared by many routes: headers, error body, list metadata.
import { z } from 'zod';

export const requestIdHeader = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/)
  .optional()
  .describe('Your identifier for this request (≤ 128 of A–Z a–z 0–9 . _ : -); echoed in x-request-id, else one is generated.');

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
      details: z.array(z.object({ field: z.string().optional(), issue: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

export const pageMeta = z
  .object({ nextCursor: z.string().nullable(), hasMore: z.boolean() })
  .meta({ id: 'PageMeta' });
