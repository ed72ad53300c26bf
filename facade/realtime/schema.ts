// The gateway's schema: the supergraph's API schema with a Subscription type. Each message carries
// its place in the change feed (cursor, type, occurredAt) and the changed resource's current state,
// which is resolved through the graph: the subscriber's own selection on the resource becomes a query
// run by the gateway with the subscriber's credential, so it may select fields of any subgraph.
import { extendSchema, GraphQLError, Kind, parse, print, visit, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import type { FeedChange } from '../../platform/domain/change-feed.ts';
import { prepareOperation, type OperationRunner, type PreparedOperation } from '../graphql/operations.ts';
import type { GatewayContext } from '../graphql/context.ts';
import { ChangeStream } from './stream.ts';
import { readOf } from './hub.ts';
import { budgetedCache, parsedBytes } from '../graphql/document-memory.ts';

/** What the resource queries built from subscriptions may hold, least recently used first out. */
export const RESOURCE_QUERY_CACHE_BYTES = 2 * 1024 * 1024;
import type { SubscriptionContext } from './types.ts';
import { CHANGE_FIELD_RESOLVERS, REALTIME_SDL, SUBSCRIPTIONS, type ResourceSpec, type SubscriptionField, type SubscriptionSpec } from './subscriptions.ts';


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

function resourceQuery(info: GraphQLResolveInfo, resource: ResourceSpec, viaKey: boolean, runner: OperationRunner): ResourceQuery {
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
  const inner = resource.query(print(selectionSet));
  // An API key reads an event's resources through apiKey { … }.
  const { text, path } = viaKey && resource.event ? { text: `apiKey { ${inner.text} }`, path: ['apiKey', ...inner.path] } : inner;
  const definitions = [
    ...resource.variables,
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

async function resolveResource(change: FeedChange, info: GraphQLResolveInfo, ctx: SubscriptionContext, resource: ResourceSpec): Promise<unknown> {
  const { socket, runner } = ctx;
  const { operation, path } = resourceQuery(info, resource, socket.credential.kind === 'key', runner);
  const variables: Record<string, unknown> = { ...info.variableValues, ...resource.values(change) };
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

const resourceResolver = (resource: ResourceSpec) => (c: FeedChange, _a: unknown, ctx: SubscriptionContext, info: GraphQLResolveInfo) => resolveResource(c, info, ctx, resource);

function subscribeTo(spec: SubscriptionSpec) {
  return {
    subscribe: (_root: unknown, args: Record<string, unknown>, ctx: SubscriptionContext) =>
      new ChangeStream({
        hub: ctx.hub,
        db: ctx.db,
        after: ctx.after,
        filter: spec.filter(args),
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
  const specs = Object.entries(SUBSCRIPTIONS) as [SubscriptionField, SubscriptionSpec][];
  const resolvers: Record<string, Record<string, unknown>> = {
    Subscription: Object.fromEntries(specs.map(([field, spec]) => [field, subscribeTo(spec)])),
    ...Object.fromEntries(specs.map(([, spec]) => [spec.message, { ...CHANGE_FIELD_RESOLVERS, ...spec.fields.resolve, [spec.resource.field]: resourceResolver(spec.resource) }])),
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
