// An organisation's API keys (v1), managed by its administrators: the key itself is answered only
// when it is issued (creation, rotation).
import { inputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { apiKeyView, issuedApiKeyView } from '../views.ts';
import { builder } from '../builder.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey, type ApiKeyView, type IssuedApiKey } from '../keys/api-key-admin.ts';
import { apiKeyCreateInput, apiKeyRotateInput } from '../inputs.ts';
import { Organisation } from './organisation.ts';
import { pageType } from './page.ts';

const fieldsOf = viewFields(builder);

export const OrganisationApiKey = builder.objectRef<ApiKeyView>('OrganisationApiKey').implement({
  description: apiKeyView.description,
  fields: (t) => fieldsOf(t, apiKeyView),
});

const IssuedApiKeyRef = builder.objectRef<IssuedApiKey>('IssuedApiKey').implement({
  fields: (t) => fieldsOf(t, issuedApiKeyView, { apiKey: OrganisationApiKey }),
});

const ApiKeyPage = pageType('OrganisationApiKeyPage', OrganisationApiKey);

builder.objectFields(Organisation, (t) => ({
  apiKeys: t.field({
    type: ApiKeyPage,
    description: 'API keys in creation order, revoked ones included; administrators only.',
    args: { cursor: t.arg.string(), limit: t.arg.int({ description: '1–100, default 20' }) },
    directives: PAGED_BY_LIMIT,
    resolve: (organisation, args, ctx) => listApiKeys(ctx, organisation.id, args),
  }),
}));

const inputType = inputTypes(builder);
const CreateApiKeyInput = inputType('CreateApiKeyInput', apiKeyCreateInput);
const RotateApiKeyInput = inputType('RotateApiKeyInput', apiKeyRotateInput);

builder.mutationFields((t) => ({
  createOrganisationApiKey: t.field({
    type: IssuedApiKeyRef,
    description: 'Issues a new API key for the organisation; the key is answered only here. Administrators only.',
    args: { organisationId: t.arg.id({ required: true }), input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, args, ctx) => createApiKey(ctx, String(args.organisationId), args.input),
  }),
  rotateOrganisationApiKey: t.field({
    type: IssuedApiKeyRef,
    description: 'Issues a replacement key; the old one stops at once, or after graceSeconds.',
    args: { organisationId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }), input: t.arg({ type: RotateApiKeyInput }) },
    resolve: (_root, args, ctx) =>
      rotateApiKey(ctx, String(args.organisationId), String(args.keyId), args.input ? Object.fromEntries(Object.entries(args.input).filter(([, v]) => v !== null)) : {}),
  }),
  revokeOrganisationApiKey: t.field({
    type: OrganisationApiKey,
    description: 'Revokes a key: it stops working at once.',
    args: { organisationId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeApiKey(ctx, String(args.organisationId), String(args.keyId)),
  }),
}));
