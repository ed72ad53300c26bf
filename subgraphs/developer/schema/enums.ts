// The developer subgraph's enums for output fields and arguments, declared once from the
// vocabularies its REST routes and inputs use. Values are lower-case names, as in REST.
import { builder } from '../builder.ts';
import { enumType } from '../../../platform/graphql/zod-graphql.ts';
import { INSTALLATION_STATUSES, OWNER_TYPES } from '../vocabulary.ts';
import { ENDPOINT_STATUSES } from '../webhooks/inputs.ts';
import { TRANSFER_STATUSES } from '../owner-transfers/inputs.ts';

export const InstallationStatusEnum = enumType(builder, 'InstallationStatus', INSTALLATION_STATUSES, 'An installation works while active; revoked, it grants nothing.');
export const WebhookEndpointStatusEnum = enumType(builder, 'WebhookEndpointStatus', ENDPOINT_STATUSES, 'An endpoint receives deliveries while active.');
export const OwnerTypeEnum = enumType(builder, 'OwnerType', OWNER_TYPES, 'What owns an application.');
export const OwnerTransferStatusEnum = enumType(builder, 'OwnerTransferStatus', TRANSFER_STATUSES, 'Where an owner transfer is: expired is a pending one past expiresAt.');
