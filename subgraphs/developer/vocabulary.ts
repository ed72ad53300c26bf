// Values of the developer subgraph that its REST routes name too: declared once here.

/** An installation's status. */
export const INSTALLATION_STATUSES = ['active', 'revoked'] as const;

/** What may own an application. */
export const OWNER_TYPES = ['organisation', 'team', 'user'] as const;
