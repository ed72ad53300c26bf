// What an organisation API key (x-api-key) can read: the v1 read API runs these fields. Everything
// hangs off Query.apiKey, which resolves the key once, so no field can forget to check it.
import type { KeyAuthority } from '../../../platform/domain/api-keys.ts';
import { builder } from '../builder.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { mapView } from '../views.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { keyEvent, keyEventsPage, keyEventView, keyUser, mapsById, mapsPage, outsideOverlay, type EventView } from '../keys/api-key-reads.ts';
import { User } from './user.ts';
import { Organisation } from './organisation.ts';
import { Event, EventPage, eventListArgs } from './event.ts';
import { pageType } from './page.ts';
import { OverlayToken } from './overlay-tokens.ts';
import { sentOverlayToken } from '../keys/overlay-tokens.ts';

export const MapRef = builder.prismaObject('Map', {
  description: mapView.description,
  fields: (t) => viewFields(builder)(t, mapView),
});

const MapPage = pageType('MapPage', MapRef);

builder.queryFields((t) => ({
  maps: t.field({
    type: [MapRef],
    description: 'Maps by id (at most 100), in the order asked; unknown ids are left out. Any valid access token or organisation API key.',
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx) => mapsById(ctx, args.ids.map(String)),
  }),
}));

const ApiKeyEventView = builder.objectRef<EventView>('ApiKeyEventView').implement({
  description: 'An event as one v1 view reads it: a strong ETag for that view, and the event unless the ETag matched.',
  fields: (t) => ({
    etag: t.exposeString('etag'),
    notModified: t.exposeBoolean('notModified'),
    event: t.field({ type: Event, nullable: true, resolve: (view) => view.event }),
  }),
});

const ApiKeyView = builder.objectRef<KeyAuthority>('ApiKeyView').implement({
  description: "What the organisation API key sent in x-api-key can read: its organisation's data and reference data.",
  fields: (t) => ({
    overlayToken: t.field({
      type: OverlayToken,
      description: 'The overlay token sent in x-overlay-token: the event it reads, its label and when it expires. not_found for an organisation API key.',
      resolve: (key, _args, ctx) => sentOverlayToken(ctx, key),
    }),
    organisation: t.field({
      type: Organisation,
      description: "The key's organisation.",
      resolve: async (key, _args, ctx) => {
        outsideOverlay(key, 'The resource');
        return (await ctx.loaders.organisation.load(key.organisationId))!;
      },
    }),
    events: t.field({
      type: EventPage,
      description: "The organisation's events in creation order; ifNoneMatch as on organisationEvents.",
      args: eventListArgs(t.arg),
      directives: PAGED_BY_LIMIT,
      resolve: (key, args, ctx) => keyEventsPage(ctx, key, args),
    }),
    event: t.field({
      type: Event,
      description: 'An event of the organisation; any other is not_found.',
      args: { id: t.arg.id({ required: true }) },
      resolve: (key, args, ctx) => keyEvent(ctx, key, String(args.id)),
    }),
    eventView: t.field({
      type: ApiKeyEventView,
      description: 'An event of the organisation for one view (say, its stages page): the ETag is its revision with the view, so an ifNoneMatch that matches reads nothing more.',
      args: {
        id: t.arg.id({ required: true }),
        view: t.arg.string({ required: true, description: 'What is read from the event (the v1 route and its parameters).' }),
        ifNoneMatch: t.arg.string(),
      },
      resolve: (key, args, ctx) => keyEventView(ctx, key, String(args.id), args.view, args.ifNoneMatch),
    }),
    user: t.field({
      type: User,
      description: 'A user who takes part in an event of the organisation (a member of a participating team or lineup): public fields only. Anyone else is not_found.',
      args: { id: t.arg.id({ required: true }) },
      resolve: (key, args, ctx) => keyUser(ctx, key, String(args.id)),
    }),
    maps: t.field({
      type: MapPage,
      description: 'Maps in id order.',
      args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) },
      directives: PAGED_BY_LIMIT,
      resolve: (_key, args, ctx) => mapsPage(ctx, args),
    }),
  }),
});

builder.queryFields((t) => ({
  apiKey: t.field({
    type: ApiKeyView,
    description: 'Reads with an organisation API key (header x-api-key); a missing, unknown or revoked key is invalid_token.',
    resolve: (_root, _args, ctx) => ctx.keyAuthority(),
  }),
}));
