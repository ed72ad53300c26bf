// An application's owner as read: REST and OpenAPI take this schema, and the GraphQL Owner takes its
// fields from it (shared/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString } from '../shared/zod-graphql.ts';
import { OWNER_TYPES } from './vocabulary.ts';

export const ownerView = z
  .object({ type: z.enum(OWNER_TYPES).register(graphql, { name: 'OwnerType' }), id: idString })
  .strict()
  .describe('Who owns an application: an organisation, a team or a user.')
  .meta({ id: 'Owner' });
