// Installation: an application installed on a user, team, organisation or event.
import type { InstallationRow } from '../../../platform/domain/authority.ts';
import { TARGET_TYPES } from '../../../platform/domain/scopes.ts';
import { builder, refs } from '../builder.ts';
import './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { installationView } from '../views.ts';
import { pageType } from './page.ts';

export const TargetType = builder.enumType('AuthorityTargetType', {
  description: 'What an installation or an authority query is about.',
  values: TARGET_TYPES,
});

export const Installation = builder.objectRef<InstallationRow>('Installation').implement({
  description: installationView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, installationView, { targetType: TargetType }),
    organisation: t.field({
      type: refs.Organisation,
      nullable: true,
      resolve: (row) => (row.targetType === 'organisation' ? { id: row.targetId } : null),
    }),
    user: t.field({ type: refs.User, nullable: true, resolve: (row) => (row.targetType === 'user' ? { id: row.targetId } : null) }),
    team: t.field({ type: refs.Team, nullable: true, resolve: (row) => (row.targetType === 'team' ? { id: row.targetId } : null) }),
    event: t.field({ type: refs.Event, nullable: true, resolve: (row) => (row.targetType === 'event' ? { id: row.targetId } : null) }),
  }),
});

export const InstallationPage = pageType('InstallationPage', Installation);
