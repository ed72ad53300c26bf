// An application's owner, installations, the authority context and a user's authorisations as read:
// REST and OpenAPI take these schemas, and the GraphQL types take their fields from them
// (platform/graphql/zod-graphql.ts viewFields).
import { z } from 'zod';
import { graphql, idString, dateTimeString } from '../../platform/graphql/zod-graphql.ts';
import { TARGET_TYPES } from '../../platform/domain/scopes.ts';
import { INSTALLATION_STATUSES, OWNER_TYPES } from './vocabulary.ts';

export const ownerView = z
  .object({ type: z.enum(OWNER_TYPES).register(graphql, { name: 'OwnerType' }), id: idString })
  .strict()
  .describe('Who owns an application: an organisation, a team or a user.')
  .meta({ id: 'Owner' });

export const installationView = z
  .object({
    id: idString,
    applicationId: idString,
    targetType: z.enum(TARGET_TYPES),
    targetId: idString,
    status: z.enum(INSTALLATION_STATUSES).register(graphql, { name: 'InstallationStatus' }),
    createdAt: dateTimeString,
  })
  .describe('An installation of an application on a user, team, organisation or event.')
  .meta({ id: 'Installation' });

export const authorityContextView = z
  .object({
    requestId: z.string(),
    applicationId: idString,
    actor: z.discriminatedUnion('type', [
      z.object({ type: z.literal('application'), applicationId: idString }).strict(),
      z.object({ type: z.literal('user'), userId: idString }).strict(),
    ]),
    owner: ownerView,
    installation: installationView.nullable(),
    scopes: z.array(z.string()),
    permissions: z.array(z.string()),
    entitlements: z.array(z.string()),
  })
  .strict()
  .meta({ id: 'AuthorityContext' });

export const userAuthorizationView = z
  .object({
    applicationId: idString,
    applicationName: z.string(),
    scopes: z.array(z.string()),
    authorizedAt: z.string(),
    lastUsedAt: z.string().nullable().describe('When a token was last issued under it.'),
  })
  .strict()
  .describe('An application the user has authorised to act for them.')
  .meta({ id: 'UserAuthorization' });

export const revokedUserAuthorizationView = userAuthorizationView.extend({ revokedAt: z.string() }).strict().meta({ id: 'RevokedUserAuthorization' });
