// Request bodies of the owner-transfer routes, defined once (REST validation, OpenAPI, GraphQL inputs).
import { z } from 'zod';
import { graphql } from '../../../platform/graphql/zod-graphql.ts';
import { OWNER_TYPES } from '../vocabulary.ts';

export const TRANSFER_STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export const DEFAULT_EXPIRY_DAYS = 7;
export const MAX_EXPIRY_DAYS = 30;

export const ownerInput = z
  .object({
    type: z.enum(OWNER_TYPES).describe('organisation, team or user').register(graphql, { name: 'OwnerType' }),
    id: z.string().min(1).max(100),
  })
  .strict()
  .describe('An owner of applications.')
  .meta({ id: 'OwnerRef' })
  .register(graphql, { name: 'OwnerRefInput' });

export const createTransferInput = z
  .object({
    toOwner: ownerInput,
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(MAX_EXPIRY_DAYS)
      .nullish()
      .describe(`Days the transfer may be accepted, 1–${MAX_EXPIRY_DAYS}; default ${DEFAULT_EXPIRY_DAYS}.`),
  })
  .strict()
  .meta({ id: 'CreateOwnerTransferRequest' });
