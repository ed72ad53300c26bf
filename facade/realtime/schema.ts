// The gateway's schema: the supergraph's API schema with a Subscription type. Each message carries
// its place in the change feed (cursor, type, occurredAt) and the changed resource's current state,
// which is resolved through the graph: the subscriber's own selection on the resource becomes a query
// run by the gateway with the subscriber's credential, so it may select fields of any subgraph.
import { extendSchema, GraphQLError, Kind, parse, print, visit, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import type { FeedChange } from '../../subgraphs/shared/change-feed.ts';
import { prepareOperation, type OperationRunner, type PreparedOperation } from '../graphql/operations.ts';
import type { GatewayContext } from '../graphql/context.ts';
import { ChangeStream } from './stream.ts';
import { readOf } from './hub.ts';
import { budgetedCache, parsedBytes } from '../graphql/document-memory.ts';

/** What the resource queries built from subscriptions may hold, least recently used first out. */
export const RESOURCE_QUERY_CACHE_BYTES = 2 * 1024 * 1024;
import type { SubscriptionContext } from './types.ts';
import type { ChangeType } from '../../subgraphs/shared/change-catalogue.ts';

const CHANGE_FIELDS = `
  """Where this change is in the feed: pass it as after to resume right after it."""
  cursor: String!
  """The change type, as in the webhook catalogue (match.updated, stage.created, …)."""
  type: String!
  occurredAt: DateTime!
  eventId: ID
  """The event revision after the change."""
  revision: Int`;

export const REALTIME_SDL = `
"""Any change to an event."""
type EventChange {${CHANGE_FIELDS}
  resourceType: String!
  resourceId: ID!
  """The event now."""
  event: Event!
}
"""A change to a match of an event (match.updated)."""
type MatchChange {${CHANGE_FIELDS}
  matchId: ID!
  """The match now."""
  match: Match!
}
"""A change to an event's broadcast configuration."""
type BroadcastChange {${CHANGE_FIELDS}
  """The configuration now."""
  broadcast: Broadcast!
}
"""A change to a playday: its live match, overlay score or staff."""
type PlaydayChange {${CHANGE_FIELDS}
  playdayId: ID!
  """The playday now."""
  playday: Playday!
}
"""The standings of a stage, or of one group of it, moved (standings.updated)."""
type StandingsChange {${CHANGE_FIELDS}
  stageId: ID!
  """The group whose table moved; null for a stage without groups."""
  groupId: ID
  """The participants whose row changed."""
  participantIds: [ID!]!
  """The table now, in rank order: its first 100 rows (GET …/stages/{stageId}/standings pages through larger ones)."""
  standings: [Standing!]!
}
"""Maps added or renamed by the platform operator."""
type MapsChange {${CHANGE_FIELDS}
  mapIds: [ID!]!
  """The maps added or renamed, as they are now."""
  maps: [Map!]!
}
"""
Live changes. Without after, from now on; with after (the cursor of a message received earlier, on
this or any other instance), every change after it first, then live: no gap, no duplicate.
"""
type Subscription {
  eventChanged(eventId: ID!, after: String): EventChange!
  matchChanged(eventId: ID!, matchId: ID, after: String): MatchChange!
  broadcastChanged(eventId: ID!, after: String): BroadcastChange!
  playdayChanged(eventId: ID!, playdayId: ID, after: String): PlaydayChange!
  standingsChanged(eventId: ID!, stageId: ID, groupId: ID, after: String): StandingsChange!
  mapsChanged(after: String): MapsChange!
}
extend schema { subscription: Subscription }
`;

export type SubscriptionField = 'eventChanged' | 'matchChanged' | 'broadcastChanged' | 'playdayChanged' | 'standingsChanged' | 'mapsChanged';

/** Which changes each subscription receives. */
export function changeFilter(field: SubscriptionField, args: Record<string, unknown>): (change: FeedChange) => boolean {
  const eventId = args.eventId as string | undefined;
  switch (field) {
    case 'eventChanged':
      return (c) => c.eventId === eventId;
    case 'matchChanged':
      return (c) => c.eventId === eventId && c.resourceType === 'match' && (args.matchId == null || c.resourceId === args.matchId);
    case 'broadcastChanged':
      return (c) => c.eventId === eventId && c.resourceType === 'broadcast';
    case 'playdayChanged':
      return (c) => c.eventId === eventId && c.resourceType === 'playday' && (args.playdayId == null || c.resourceId === args.playdayId);
    case 'standingsChanged':
      return (c) =>
        c.eventId === eventId &&
        c.type === ('standings.updated' satisfies ChangeType) &&
        (args.stageId == null || c.payload.stageId === args.stageId) &&
        (args.groupId == null || c.payload.groupId === args.groupId);
    case 'mapsChanged':
      return (c) => c.type === ('maps.updated' satisfies ChangeType);
  }
}

const mapIdsOf = (change: FeedChange) => [...new Set([...((change.payload.created as string[]) ?? []), ...((change.payload.updated as string[]) ?? [])])];

/** The query that reads a resource with a selection, for a credential: GraphQL text around `{ selection }`. */
function wrapper(kind: 'event' | 'match' | 'broadcast' | 'playday' | 'standings' | 'maps', viaKey: boolean, selection: string): { text: string; path: string[] } {
  if (kind === 'maps') return { text: `maps(ids: $__ids) ${selection}`, path: ['maps'] };
  if (kind === 'standings') {
    const event = `event(id: $__eventId) { standingPage(stageId: $__stageId, groupId: $__groupId, limit: 100) { data ${selection} } }`;
    const path = ['event', 'standingPage', 'data'];
    return viaKey ? { text: `apiKey { ${event} }`, path: ['apiKey', ...path] } : { text: event, path };
  }
  const inner = kind === 'event' ? selection : kind === 'match' ? `{ match(id: $__resourceId) ${selection} }` : kind === 'playday' ? `{ playday(id: $__resourceId) ${selection} }` : `{ broadcast ${selection} }`;
  const event = `event(id: $__eventId) ${inner}`;
  const path = kind === 'event' ? ['event'] : ['event', kind];
  return viaKey ? { text: `apiKey { ${event} }`, path: ['apiKey', ...path] } : { text: event, path };
}

// Results are shared by every subscriber asking the same thing with the same credential about changes
// found by the same read of the feed: a thousand overlays on one event cost one read per change, and
// fewer under load.
const shared = new Map<string, Promise<unknown>>();
interface ResourceQuery {
  operation: PreparedOperation;
  /** Where the resource is in the query's data. */
  path: string[];
}
// By query text, shared by every subscriber asking alike; and by the subscription's field node (one
// per distinct subscription text: the gateway parses each text once) and credential kind, whose
// queries differ, so that a subscription builds its query once, not once per change.
// Bounded in bytes: an operation holds its document, its query plan and its compiled code, measured
// at under twice the document's estimate (document-memory.ts).
const prepared = budgetedCache<string, PreparedOperation>('gateway_resource_queries', RESOURCE_QUERY_CACHE_BYTES, (operation) => 2 * parsedBytes(operation.document, operation.source));
const perField = { key: new WeakMap<FieldNode, ResourceQuery>(), token: new WeakMap<FieldNode, ResourceQuery>() };

/** Adds __typename to every selection set, so that abstract types resolve from the fetched data. */
function withTypenames<T extends SelectionSetNode | FragmentDefinitionNode>(node: T): T {
  return visit(node, {
    SelectionSet(set) {
      if (set.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias)) return undefined;
      return { ...set, selections: [...set.selections, { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }] };
    },
  });
}

function resourceQuery(info: GraphQLResolveInfo, kind: Parameters<typeof wrapper>[0], viaKey: boolean, runner: OperationRunner): ResourceQuery {
  const cache = viaKey ? perField.key : perField.token;
  const cached = cache.get(info.fieldNodes[0]);
  if (cached) return cached;
  const selections = info.fieldNodes.flatMap((node: FieldNode) => node.selectionSet?.selections ?? []);
  const selectionSet = withTypenames({ kind: Kind.SELECTION_SET, selections } as SelectionSetNode);
  // Fragments and variables the selection uses, transitively.
  const fragments = new Map<string, FragmentDefinitionNode>();
  const variables = new Set<string>();
  const collect = (node: SelectionSetNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (!fragments.has(name) && info.fragments[name]) {
          fragments.set(name, withTypenames(info.fragments[name]));
          collect(info.fragments[name]);
        }
      },
      Variable(variable) {
        variables.add(variable.name.value);
      },
    });
  collect(selectionSet);
  const { text, path } = wrapper(kind, viaKey, print(selectionSet));
  const definitions = [
    ...(kind === 'maps' ? ['$__ids: [ID!]!'] : ['$__eventId: ID!']),
    ...(kind === 'match' || kind === 'playday' ? ['$__resourceId: ID!'] : []),
    ...(kind === 'standings' ? ['$__stageId: ID!', '$__groupId: ID'] : []),
    ...(info.operation.variableDefinitions ?? []).filter((d) => variables.has(d.variable.name.value)).map((d) => print(d)),
  ];
  const source = `query RealtimeResource(${definitions.join(', ')}) { ${text} } ${[...fragments.values()].map((f) => print(f)).join(' ')}`;
  let operation = prepared.get(source);
  if (!operation) {
    operation = prepareOperation(source);
    runner.check(operation);
    prepared.set(source, operation);
  }
  const query = { operation, path };
  cache.set(info.fieldNodes[0], query);
  return query;
}

async function resolveResource(change: FeedChange, info: GraphQLResolveInfo, ctx: SubscriptionContext, kind: Parameters<typeof wrapper>[0]): Promise<unknown> {
  const { socket, runner } = ctx;
  const { operation, path } = resourceQuery(info, kind, socket.credential.kind === 'key', runner);
  const variables: Record<string, unknown> = { ...info.variableValues };
  if (kind === 'maps') variables.__ids = mapIdsOf(change);
  else {
    variables.__eventId = change.eventId;
    if (kind === 'match' || kind === 'playday') variables.__resourceId = change.resourceId;
    if (kind === 'standings') [variables.__stageId, variables.__groupId] = [change.payload.stageId, change.payload.groupId ?? null];
  }
  const key = `${readOf(change)}|${operation.queryHash}|${socket.credential.hash}|${JSON.stringify(variables)}`;
  let result = shared.get(key);
  if (!result) {
    const context: GatewayContext = { scope: { ...socket.credential.scope(), requestId: `rt_${change.id}`, deadline: Date.now() + 10_000 } };
    const running: Promise<unknown> = runner.run(operation, variables, context).then(({ data, errors }) => {
      if (errors?.length) {
        const [first] = errors;
        // A read the database could not serve is tried again (subscription-messages.ts): not from this cache.
        if (first.extensions?.code === 'service_unavailable' && shared.get(key) === running) shared.delete(key);
        throw new GraphQLError(first.message, { extensions: first.extensions });
      }
      return path.reduce<unknown>((value, step) => (value as Record<string, unknown> | null)?.[step], data);
    });
    result = running;
    shared.set(key, result);
    setTimeout(() => shared.delete(key), 5_000).unref();
  }
  return result;
}

const resource = (kind: Parameters<typeof wrapper>[0]) => (c: FeedChange, _a: unknown, ctx: SubscriptionContext, info: GraphQLResolveInfo) =>
  resolveResource(c, info, ctx, kind);

const changeFields = {
  cursor: (c: FeedChange) => c.cursor,
  type: (c: FeedChange) => c.type,
  occurredAt: (c: FeedChange) => c.createdAt,
  eventId: (c: FeedChange) => c.eventId,
  revision: (c: FeedChange) => c.revision,
};

function subscribeTo(field: SubscriptionField) {
  return {
    subscribe: (_root: unknown, args: Record<string, unknown>, ctx: SubscriptionContext) =>
      new ChangeStream({
        hub: ctx.hub,
        db: ctx.db,
        after: ctx.after,
        filter: changeFilter(field, args),
        maxQueued: ctx.limits.maxQueued,
        maxQueuedBytes: ctx.limits.maxQueuedBytes,
        memory: ctx.memory,
        onOverflow: () => ctx.socket.close(ctx.limits.slowConsumerCode, 'Too far behind: reconnect and resume from your last cursor.'),
      }),
    resolve: (change: FeedChange) => change,
  };
}

/** The API schema with the gateway's Subscription type and its message types (no resolvers: what tools such as the IDE describe). */
export const withSubscriptions = (apiSchema: GraphQLSchema): GraphQLSchema => extendSchema(apiSchema, parse(REALTIME_SDL));

/** The realtime schema over the gateway's API schema, with its resolvers. */
export function realtimeSchema(apiSchema: GraphQLSchema): GraphQLSchema {
  const schema = withSubscriptions(apiSchema);
  const resolvers: Record<string, Record<string, unknown>> = {
    Subscription: Object.fromEntries((['eventChanged', 'matchChanged', 'broadcastChanged', 'playdayChanged', 'standingsChanged', 'mapsChanged'] as const).map((f) => [f, subscribeTo(f)])),
    EventChange: {
      ...changeFields,
      resourceType: (c: FeedChange) => c.resourceType,
      resourceId: (c: FeedChange) => c.resourceId,
      event: resource('event'),
    },
    MatchChange: {
      ...changeFields,
      matchId: (c: FeedChange) => c.resourceId,
      match: resource('match'),
    },
    BroadcastChange: {
      ...changeFields,
      broadcast: resource('broadcast'),
    },
    PlaydayChange: {
      ...changeFields,
      playdayId: (c: FeedChange) => c.resourceId,
      playday: resource('playday'),
    },
    StandingsChange: {
      ...changeFields,
      stageId: (c: FeedChange) => c.payload.stageId,
      groupId: (c: FeedChange) => c.payload.groupId ?? null,
      participantIds: (c: FeedChange) => c.payload.participantIds ?? [],
      standings: resource('standings'),
    },
    MapsChange: {
      ...changeFields,
      mapIds: (c: FeedChange) => mapIdsOf(c),
      maps: resource('maps'),
    },
  };
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName) as unknown as { getFields(): Record<string, { resolve?: unknown; subscribe?: unknown }> };
    for (const [name, resolver] of Object.entries(fields)) {
      const field = type.getFields()[name];
      if (typeof resolver === 'function') field.resolve = resolver;
      else Object.assign(field, resolver);
    }
  }
  return schema;
}

/**
 * Inside a resource the data is the gateway's answer, keyed by response name (aliases included), so
 * fields read their value by the key they answer under.
 */
export const responseKeyResolver = (source: unknown, _args: unknown, _ctx: unknown, info: GraphQLResolveInfo) =>
  (source as Record<string, unknown> | null)?.[info.path.key as string];
