// The vocabulary of authority. Scopes: what a token may ask. Permissions: what the actor may do on a
// target. Entitlements: what the application's owner has paid for.
export const SCOPES = [
  'event:manage',
  'event.structure:manage',
  'event.participants:manage',
  'event.results:manage',
  'broadcast:manage',
] as const;
/** What each scope lets an application do, as the consent page says it. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'event:manage': 'Create events, change and publish them, and change their settings (map veto)',
  'event.structure:manage': 'Add stages and groups to events',
  'event.participants:manage': 'Invite and register teams and manage participants and their lineups',
  'event.results:manage': 'Report match results and adjust standings',
  'broadcast:manage': 'Manage broadcast configuration, playdays and their staff',
  'esports:publish': 'Publish esports data',
};

/** Scopes of data providers: publishing esports data. */
export const PROVIDER_SCOPES = ['esports:publish'] as const;

/** Every scope an application may be granted: what the OAuth metadata lists and a token request may name. */
export const KNOWN_SCOPES: readonly string[] = [...SCOPES, ...PROVIDER_SCOPES];

/** What a scope (and the permission of the same name) lets its holder do, as it reads after "may not". */
export const SCOPE_ACTIONS: Record<string, string> = {
  'event:manage': 'create, change or publish events',
  'event.structure:manage': 'add or change stages and groups',
  'event.participants:manage': 'invite or register teams or manage participants',
  'event.results:manage': 'report results or adjust standings',
  'broadcast:manage': 'manage the broadcast, playdays or their staff',
  'esports:publish': 'publish esports data',
};

export type Scope = (typeof SCOPES)[number] | (typeof PROVIDER_SCOPES)[number];

export const TARGET_TYPES = ['user', 'team', 'organisation', 'event'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** Permissions an organisation role grants on the organisation and its events. */
export const ROLE_PERMISSIONS: Record<string, readonly string[]> = {
  administrator: ['organisation:read', 'event:read', ...SCOPES],
  moderator: ['organisation:read', 'event:read', 'event.participants:manage', 'event.results:manage', 'broadcast:manage'],
  viewer: ['organisation:read', 'event:read'],
};

/** The organisation roles that grant a permission, as a sentence's subject: "administrators and moderators". */
export function rolesGranting(permission: string): string {
  const roles = Object.entries(ROLE_PERMISSIONS).filter(([, permissions]) => permissions.includes(permission)).map(([role]) => `${role}s`);
  return roles.length > 1 ? `${roles.slice(0, -1).join(', ')} and ${roles.at(-1)}` : (roles[0] ?? 'no role');
}

/** Permissions a team role grants on the team. */
export const TEAM_ROLE_PERMISSIONS: Record<string, readonly string[]> = {
  captain: ['team:read', 'team:manage'],
  coach: ['team:read', 'team:manage'],
  player: ['team:read'],
  substitute: ['team:read'],
};
