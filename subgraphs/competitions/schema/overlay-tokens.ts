// An organisation's overlay tokens (one event's v1 reads and gateway subscriptions, for a browser
// source), managed by the users who manage its broadcast: the token is answered only when issued.
import { inputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { issuedOverlayTokenView, overlayTokenView } from '../views.ts';
import { builder } from '../builder.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { createOverlayToken, listOverlayTokens, revokeOverlayToken, type IssuedOverlayToken, type OverlayTokenView } from '../keys/overlay-tokens.ts';
import { overlayTokenCreateInput } from '../inputs.ts';
import { Organisation } from './organisation.ts';
import { pageType } from './page.ts';

const fieldsOf = viewFields(builder);

export const OverlayToken = builder.objectRef<OverlayTokenView>('OverlayToken').implement({
  description: overlayTokenView.description,
  fields: (t) => fieldsOf(t, overlayTokenView),
});

const IssuedOverlayTokenRef = builder.objectRef<IssuedOverlayToken>('IssuedOverlayToken').implement({
  fields: (t) => fieldsOf(t, issuedOverlayTokenView, { overlayToken: OverlayToken }),
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
