// An owner transfer as read: the REST responses and OpenAPI take this schema, and the GraphQL
// OwnerTransfer takes its fields from it (platform/graphql/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString, dateTimeString } from '../../../platform/graphql/zod-graphql.ts';
import { ownerView } from '../views.ts';
import { TRANSFER_STATUSES } from './inputs.ts';

export const ownerTransferView = z
  .object({
    id: idString,
    applicationId: idString,
    status: z
      .enum(TRANSFER_STATUSES)
      .register(graphql, { name: 'OwnerTransferStatus' })
      .describe('pending, accepted, declined, cancelled, or expired (pending past expiresAt)'),
    fromOwner: ownerView.describe('The owner when the transfer was offered.'),
    toOwner: ownerView,
    revision: z.number().int().describe('Moves on with each change of status.'),
    createdAt: dateTimeString,
    expiresAt: dateTimeString,
  })
  .strict()
  .describe('An offer of an application to another owner.')
  .meta({ id: 'OwnerTransfer' });
