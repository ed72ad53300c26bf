// The realtime gateway's subscriptions, one row each: the field and its arguments, the message type
// with its own fields, which changes of the feed it receives, the resource its message carries (the
// query around the subscriber's selection and the variables it takes from the change) and what the
// caller must be able to see to subscribe. The SDL, the resolvers (schema.ts) and the access check
// (server.ts) are derived from this table: a subscription is added here and nowhere else.
import type { FeedChange } from '../../platform/domain/change-feed.ts';
import type { ChangeDetails, ChangeType } from '../../platform/domain/change-catalogue.ts';

/** The resource a message carries, read through the graph with the subscriber's selection and credential. */
export interface ResourceSpec {
  /** The message field that carries it, its GraphQL type and description. */
  field: string;
  type: string;
  description: string;
  /** The query text around `{ selection }` (inside `apiKey { … }` for an API key when `event` is true), and where the resource is in its data. */
  query(selection: string): { text: string; path: string[] };
  /** Under the event, so that an API key reads it through `apiKey { … }`. */
  event: boolean;
  /** Variable definitions the query text uses (their names start with __). */
  variables: string[];
  /** Their values for a change. */
  values(change: FeedChange): Record<string, unknown>;
}

export interface SubscriptionSpec {
  /** Arguments besides `after`, as SDL. */
  args: string;
  /** The message type and its description. */
  message: string;
  description: string;
  /** The message's own fields (besides the change's and the resource), as SDL lines and resolvers by name. */
  fields: { sdl: string; resolve: Record<string, (change: FeedChange) => unknown> };
  resource: ResourceSpec;
  filter(args: Record<string, unknown>): (change: FeedChange) => boolean;
  /**
   * What the caller must be able to see to subscribe: the event (`eventId`), and a resource of it
   * when its argument is given; `public` for reference data any credential may follow.
   */
  access: 'public' | { child?: { field: 'match' | 'playday' | 'stage'; arg: string } };
}

const underEvent = (inner: string, path: string[]) => (selection: string) => ({ text: `event(id: $__eventId) ${inner.replace('%', selection)}`, path: ['event', ...path] });
const EVENT_VARIABLE = '$__eventId: ID!';
const eventOf = (change: FeedChange) => ({ __eventId: change.eventId });
// The details of the one type a subscription's filter lets through, as the catalogue declares them.
const standingsOf = (change: FeedChange) => change.payload as ChangeDetails<'standings.updated'>;
const mapIdsOf = (change: FeedChange) => {
  const { created, updated } = change.payload as ChangeDetails<'maps.updated'>;
  return [...new Set([...(created ?? []), ...(updated ?? [])])];
};
const STANDINGS_UPDATED: ChangeType = 'standings.updated';
const MAPS_UPDATED: ChangeType = 'maps.updated';

export const SUBSCRIPTIONS = {
  eventChanged: {
    args: 'eventId: ID!',
    message: 'EventChange',
    description: 'Any change to an event.',
    fields: { sdl: 'resourceType: String!\n  resourceId: ID!', resolve: { resourceType: (c) => c.resourceType, resourceId: (c) => c.resourceId } },
    resource: { field: 'event', type: 'Event!', description: 'The event now.', event: true, query: (selection) => ({ text: `event(id: $__eventId) ${selection}`, path: ['event'] }), variables: [EVENT_VARIABLE], values: eventOf },
    filter: (args) => (c) => c.eventId === args.eventId,
    access: {},
  },
  matchChanged: {
    args: 'eventId: ID!, matchId: ID',
    message: 'MatchChange',
    description: 'A change to a match of an event (match.updated).',
    fields: { sdl: 'matchId: ID!', resolve: { matchId: (c) => c.resourceId } },
    resource: {
      field: 'match',
      type: 'Match!',
      description: 'The match now.',
      event: true,
      query: underEvent('{ match(id: $__resourceId) % }', ['match']),
      variables: [EVENT_VARIABLE, '$__resourceId: ID!'],
      values: (c) => ({ ...eventOf(c), __resourceId: c.resourceId }),
    },
    filter: (args) => (c) => c.eventId === args.eventId && c.resourceType === 'match' && (args.matchId == null || c.resourceId === args.matchId),
    access: { child: { field: 'match', arg: 'matchId' } },
  },
  broadcastChanged: {
    args: 'eventId: ID!',
    message: 'BroadcastChange',
    description: "A change to an event's broadcast configuration.",
    fields: { sdl: '', resolve: {} },
    resource: { field: 'broadcast', type: 'Broadcast!', description: 'The configuration now.', event: true, query: underEvent('{ broadcast % }', ['broadcast']), variables: [EVENT_VARIABLE], values: eventOf },
    filter: (args) => (c) => c.eventId === args.eventId && c.resourceType === 'broadcast',
    access: {},
  },
  playdayChanged: {
    args: 'eventId: ID!, playdayId: ID',
    message: 'PlaydayChange',
    description: 'A change to a playday: its live match, overlay score or staff.',
    fields: { sdl: 'playdayId: ID!', resolve: { playdayId: (c) => c.resourceId } },
    resource: {
      field: 'playday',
      type: 'Playday!',
      description: 'The playday now.',
      event: true,
      query: underEvent('{ playday(id: $__resourceId) % }', ['playday']),
      variables: [EVENT_VARIABLE, '$__resourceId: ID!'],
      values: (c) => ({ ...eventOf(c), __resourceId: c.resourceId }),
    },
    filter: (args) => (c) => c.eventId === args.eventId && c.resourceType === 'playday' && (args.playdayId == null || c.resourceId === args.playdayId),
    access: { child: { field: 'playday', arg: 'playdayId' } },
  },
  standingsChanged: {
    args: 'eventId: ID!, stageId: ID, groupId: ID',
    message: 'StandingsChange',
    description: 'The standings of a stage, or of one group of it, moved (standings.updated).',
    fields: {
      sdl: 'stageId: ID!\n  """The group whose table moved; null for a stage without groups."""\n  groupId: ID\n  """The participants whose row changed."""\n  participantIds: [ID!]!',
      resolve: { stageId: (c) => standingsOf(c).stageId, groupId: (c) => standingsOf(c).groupId ?? null, participantIds: (c) => standingsOf(c).participantIds ?? [] },
    },
    resource: {
      field: 'standings',
      type: '[Standing!]!',
      description: 'The table now, in rank order: its first 100 rows (GET …/stages/{stageId}/standings pages through larger ones).',
      event: true,
      query: (selection) => ({
        text: `event(id: $__eventId) { standingPage(stageId: $__stageId, groupId: $__groupId, limit: 100) { data ${selection} } }`,
        path: ['event', 'standingPage', 'data'],
      }),
      variables: [EVENT_VARIABLE, '$__stageId: ID!', '$__groupId: ID'],
      values: (c) => ({ ...eventOf(c), __stageId: standingsOf(c).stageId, __groupId: standingsOf(c).groupId ?? null }),
    },
    filter: (args) => (c) =>
      c.eventId === args.eventId && c.type === STANDINGS_UPDATED && (args.stageId == null || standingsOf(c).stageId === args.stageId) && (args.groupId == null || standingsOf(c).groupId === args.groupId),
    access: { child: { field: 'stage', arg: 'stageId' } },
  },
  mapsChanged: {
    args: '',
    message: 'MapsChange',
    description: 'Maps added or renamed by the platform operator.',
    fields: { sdl: 'mapIds: [ID!]!', resolve: { mapIds: mapIdsOf } },
    resource: {
      field: 'maps',
      type: '[Map!]!',
      description: 'The maps added or renamed, as they are now.',
      event: false,
      query: (selection) => ({ text: `maps(ids: $__ids) ${selection}`, path: ['maps'] }),
      variables: ['$__ids: [ID!]!'],
      values: (c) => ({ __ids: mapIdsOf(c) }),
    },
    filter: () => (c) => c.type === MAPS_UPDATED,
    access: 'public',
  },
} satisfies Record<string, SubscriptionSpec>;

export type SubscriptionField = keyof typeof SUBSCRIPTIONS;

export const subscriptionSpec = (field: string): SubscriptionSpec | undefined => (Object.hasOwn(SUBSCRIPTIONS, field) ? SUBSCRIPTIONS[field as SubscriptionField] : undefined);

const CHANGE_FIELDS = `
  """Where this change is in the feed: pass it as after to resume right after it."""
  cursor: String!
  """The change type, as in the webhook catalogue (match.updated, stage.created, …)."""
  type: String!
  occurredAt: DateTime!
  eventId: ID
  """The event revision after the change."""
  revision: Int`;

/** The resolvers of the fields every message has. */
export const CHANGE_FIELD_RESOLVERS: Record<string, (change: FeedChange) => unknown> = {
  cursor: (c) => c.cursor,
  type: (c) => c.type,
  occurredAt: (c) => c.createdAt,
  eventId: (c) => c.eventId,
  revision: (c) => c.revision,
};

/** The Subscription type and its message types. */
export const REALTIME_SDL = `${Object.values(SUBSCRIPTIONS)
  .map(
    (spec: SubscriptionSpec) => `"""${spec.description}"""
type ${spec.message} {${CHANGE_FIELDS}${spec.fields.sdl ? `\n  ${spec.fields.sdl}` : ''}
  """${spec.resource.description}"""
  ${spec.resource.field}: ${spec.resource.type}
}`,
  )
  .join('\n')}
"""
Live changes. Without after, from now on; with after (the cursor of a message received earlier, on
this or any other instance), every change after it first, then live: no gap, no duplicate.
"""
type Subscription {
${Object.entries(SUBSCRIPTIONS)
  .map(([field, spec]: [string, SubscriptionSpec]) => `  ${field}(${spec.args ? `${spec.args}, ` : ''}after: String): ${spec.message}!`)
  .join('\n')}
}
extend schema { subscription: Subscription }
`;
