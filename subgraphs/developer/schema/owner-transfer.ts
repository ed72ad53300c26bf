// Owner transfers: the queries and mutations the REST routes run. Rules live in ../owner-transfers/.
import { inputTypes, viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { builder } from '../builder.ts';
import { replayedField } from '../../../platform/graphql/builder.ts';
import { OwnerTransferStatusEnum } from './enums.ts';
import { PAGED_BY_LIMIT } from '../../../platform/graphql/demand-control.ts';
import { createTransferInput } from '../owner-transfers/inputs.ts';
import { ownerTransferView } from '../owner-transfers/views.ts';
import { createTransfer, getTransfer, listTransfers, transition, type TransferView } from '../owner-transfers/transfers.ts';
import { Owner } from './application.ts';
import { pageType } from './page.ts';

export const OwnerTransfer = builder.objectRef<TransferView & { replayed?: boolean }>('OwnerTransfer').implement({
  description: ownerTransferView.description,
  fields: (t) => ({
    ...viewFields(builder)(t, ownerTransferView, { fromOwner: Owner, toOwner: Owner }),
    replayed: replayedField(t),
  }),
});

const OwnerTransferPage = pageType('OwnerTransferPage', OwnerTransfer);

builder.queryFields((t) => ({
  ownerTransfers: t.field({
    type: OwnerTransferPage,
    description: "An application's owner transfers the caller is a party to, newest first.",
    args: { appId: t.arg.id({ required: true }), cursor: t.arg.string(), limit: t.arg.int(), status: t.arg({ type: OwnerTransferStatusEnum }) },
    directives: PAGED_BY_LIMIT,
    resolve: (_root, args, ctx) => listTransfers(ctx, String(args.appId), args),
  }),
  ownerTransfer: t.field({
    type: OwnerTransfer,
    args: { appId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getTransfer(ctx, String(args.appId), String(args.id)),
  }),
}));

const CreateOwnerTransferInput = inputTypes(builder)('CreateOwnerTransferInput', createTransferInput);

builder.mutationFields((t) => {
  const appId = t.arg.id({ required: true });
  const transferId = t.arg.id({ required: true });
  const idempotencyKey = t.arg.string({ required: true });
  const move = (kind: 'accept' | 'decline' | 'cancel', description: string) =>
    t.field({
      type: OwnerTransfer,
      description,
      args: { appId, transferId, idempotencyKey },
      resolve: (_root, args, ctx) => transition(ctx, kind, String(args.appId), String(args.transferId), args.idempotencyKey),
    });
  return {
    createOwnerTransfer: t.field({
      type: OwnerTransfer,
      description: "Offers the application to another owner (a user who manages the application's owner); one pending transfer at a time.",
      args: { appId, input: t.arg({ type: CreateOwnerTransferInput, required: true }), idempotencyKey },
      resolve: (_root, args, ctx) => createTransfer(ctx, String(args.appId), args.input.expiresInDays === null ? { toOwner: args.input.toOwner } : args.input, args.idempotencyKey),
    }),
    acceptOwnerTransfer: move('accept', 'Moves the application to the new owner of a pending transfer (a user who manages the new owner).'),
    declineOwnerTransfer: move('decline', 'Declines a pending transfer (a user who manages the new owner).'),
    cancelOwnerTransfer: move('cancel', "Withdraws a pending transfer (a user who manages the application's owner)."),
  };
});
