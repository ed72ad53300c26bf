// An organisation's overlay tokens (one event's v1 reads and gateway subscriptions, for a browser
// source), managed by the users who manage its broadcast: the token is answered only when issued.
import { inputTypes } from '../../shared/zod-graphql.ts';
import { builder } from '../builder.ts';
import { PAGED_BY_LIMIT } from '../../shared/demand-control.ts';
import { createOverlayToken, listOverlayTokens, revokeOverlayToken, type IssuedOverlayToken, type OverlayTokenView } from '../overlay-tokens.ts';
import { overlayTokenCreateInput } from '../inputs.ts';
import { Organisation } from './organisation.ts';
import { pageType } from './page.ts';

export const OverlayToken = builder.objectRef<OverlayTokenView>('OverlayToken').implement({
  description: 'An overlay token: reads one event through v1 (x-overlay-token) and the gateway, never anything else. Never the token itself, which is shown once.',
  fields: (t) => ({
    id: t.exposeID('id'),
    organisationId: t.exposeID('organisationId'),
    eventId: t.exposeID('eventId', { description: 'The one event it reads.' }),
    label: t.exposeString('label'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to recognise it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When it stops working.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'To the minute.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const IssuedOverlayTokenRef = builder.objectRef<IssuedOverlayToken>('IssuedOverlayToken').implement({
  fields: (t) => ({
    overlayToken: t.field({ type: OverlayToken, resolve: (issued) => issued.overlayToken }),
    token: t.exposeString('token', { description: 'The token: send it in x-overlay-token, or put it in an overlay URL. Shown only now.' }),
  }),
});

const OverlayTokenPage = pageType('OverlayTokenPage', OverlayToken);

builder.objectFields(Organisation, (t) => ({
  overlayTokens: t.field({
    type: OverlayTokenPage,
    description: 'Overlay tokens in creation order, revoked and expired ones included; for users who manage the broadcast.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) },
    directives: PAGED_BY_LIMIT,
    resolve: (organisation, args, ctx) => listOverlayTokens(ctx, organisation.id, args),
  }),
}));

const CreateOverlayTokenInput = inputTypes(builder)('CreateOverlayTokenInput', overlayTokenCreateInput);

builder.mutationFields((t) => ({
  createOverlayToken: t.field({
    type: IssuedOverlayTokenRef,
    description: 'Issues an overlay token for one event of the organisation (at most 30 days); the token is answered only here.',
    args: { organisationId: t.arg.id({ required: true }), input: t.arg({ type: CreateOverlayTokenInput, required: true }) },
    resolve: (_root, args, ctx) => createOverlayToken(ctx, String(args.organisationId), args.input),
  }),
  revokeOverlayToken: t.field({
    type: OverlayToken,
    description: 'Revokes an overlay token: it stops working at once and the gateway closes its sockets (4403).',
    args: { organisationId: t.arg.id({ required: true }), tokenId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeOverlayToken(ctx, String(args.organisationId), String(args.tokenId)),
  }),
}));
