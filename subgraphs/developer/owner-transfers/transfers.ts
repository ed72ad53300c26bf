// Owner transfers of an application (docs/developer-apps.md). A user who manages the application's
// owner offers it to another owner; a user who manages that owner accepts it (the application moves,
// in one transaction) or declines it; the sender may cancel it; unanswered, it expires. Every
// transition is an idempotent POST (Idempotency-Key) guarded in its transaction, so that of any
// number of concurrent accepts exactly one moves the application, and each writes a change
// (application.owner_transfer.*) for webhooks.
import type { z } from 'zod';
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import type { OwnerTransfer } from '../../../platform/db/generated/client.ts';
import type { SqlStatement } from '../../../platform/db/database.ts';
import type { Authority } from '../../../platform/domain/authority.ts';
import { appendChanges } from '../../../platform/domain/change-log.ts';
import { failWith } from '../../../platform/db/guards.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { ApiError, forbidden, notFound } from '../../../platform/api/errors.ts';
import { findReplay, idempotentTransaction, replayInstead, requestHash, validateKey, type IdempotencyScope } from '../../../platform/domain/idempotency.ts';
import { keysetPage, type Page } from '../../../platform/api/pagination.ts';
import { validate } from '../../../platform/api/validation.ts';
import { managesOwner, type OwnerRef } from '../../../platform/domain/application-access.ts';
import { ownerExists } from '../owners.ts';
import { createTransferInput, DEFAULT_EXPIRY_DAYS, TRANSFER_STATUSES } from './inputs.ts';
import type { ownerTransferView } from './views.ts';
import type { ChangeDetails, ChangeType } from '../../../platform/domain/change-catalogue.ts';

type TransferChange = Extract<ChangeType, `application.owner_transfer.${string}`>;

export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

// A transfer as answered: the view's type (views.ts), declared once.
export type TransferView = z.output<typeof ownerTransferView>;

type Owner = TransferView['fromOwner'];
// The owner type columns only ever hold OWNER_TYPES (a transfer's input is validated against them).
const ownerRefOf = (type: string, id: string): Owner => ({ type: type as Owner['type'], id });

const DAY_MS = 24 * 60 * 60 * 1000;

/** A pending transfer past its expiry is answered as expired; nothing needs to run for it to expire. */
const statusOf = (row: Pick<OwnerTransfer, 'status' | 'expiresAt'>, now = Date.now()): TransferStatus =>
  row.status === 'pending' && row.expiresAt.getTime() <= now ? 'expired' : (row.status as TransferStatus);

export const toTransferView = (row: OwnerTransfer): TransferView => ({
  id: row.id,
  applicationId: row.applicationId,
  status: statusOf(row),
  fromOwner: ownerRefOf(row.fromOwnerType, row.fromOwnerId),
  toOwner: ownerRefOf(row.toOwnerType, row.toOwnerId),
  revision: row.revision,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** Which side of an application's transfers the caller is on. */
interface Parties {
  authority: Authority;
  /** A user who manages the application's current owner (the sender side), or the application itself. */
  ownerSide: boolean;
  userId: string | null;
  owner: OwnerRef;
}

async function partiesOf(ctx: SubgraphContext, applicationId: string): Promise<Parties> {
  const authority = await ctx.authority();
  const app = await ctx.db.application.findUnique({ where: { id: applicationId }, select: { ownerType: true, ownerId: true } });
  if (!app) throw notFound('The application');
  const owner = { type: app.ownerType, id: app.ownerId };
  if (authority.actor.type === 'application') {
    return { authority, ownerSide: authority.applicationId === applicationId, userId: null, owner };
  }
  return { authority, ownerSide: await managesOwner(ctx, authority.actor.userId, owner), userId: authority.actor.userId, owner };
}

/** The caller may see a transfer: the application itself, a manager of its owner, or a manager of the transfer's new owner. */
async function mayRead(ctx: SubgraphContext, parties: Parties, row: OwnerTransfer): Promise<boolean> {
  if (parties.ownerSide) return true;
  return parties.userId !== null && managesOwner(ctx, parties.userId, { type: row.toOwnerType, id: row.toOwnerId });
}

async function transferOf(ctx: SubgraphContext, applicationId: string, transferId: string): Promise<OwnerTransfer> {
  const row = await ctx.db.ownerTransfer.findUnique({ where: { id: transferId } });
  if (!row || row.applicationId !== applicationId) throw notFound('The owner transfer');
  return row;
}

export interface TransferListArgs {
  cursor?: string | null;
  limit?: number | null;
  status?: string | null;
}

/** The application's transfers the caller is a party to, newest first. */
export async function listTransfers(ctx: SubgraphContext, applicationId: string, args: TransferListArgs): Promise<Page<TransferView>> {
  const parties = await partiesOf(ctx, applicationId);
  if (args.status != null && !(TRANSFER_STATUSES as readonly string[]).includes(args.status)) {
    throw new ApiError('validation_failed', `status must be one of ${TRANSFER_STATUSES.join(', ')}.`, [{ field: 'status', issue: 'invalid' }]);
  }
  const now = new Date();
  const byStatus =
    args.status == null
      ? {}
      : args.status === 'expired'
        ? { status: 'pending', expiresAt: { lte: now } }
        : args.status === 'pending'
          ? { status: 'pending', expiresAt: { gt: now } }
          : { status: args.status };
  // Receivers see the transfers to owners they manage; who those are is asked of each candidate owner.
  let receiving = {};
  if (!parties.ownerSide) {
    if (parties.userId === null) throw notFound('The application');
    const candidates = await ctx.db.ownerTransfer.findMany({ where: { applicationId }, select: { toOwnerType: true, toOwnerId: true }, distinct: ['toOwnerType', 'toOwnerId'] });
    const managed = [];
    for (const owner of candidates) {
      if (await managesOwner(ctx, parties.userId, { type: owner.toOwnerType, id: owner.toOwnerId })) managed.push(owner);
    }
    receiving = { OR: managed.length ? managed : [{ id: { in: [] } }] };
  }
  return keysetPage({
    binding: `owner-transfers|${applicationId}|${args.status ?? ''}`,
    args,
    order: ['createdAt', 'id'],
    direction: 'desc',
    where: { applicationId, ...byStatus, ...receiving },
    find: (where, orderBy, take) => ctx.db.ownerTransfer.findMany({ where, orderBy, take }),
    map: toTransferView,
  });
}

export async function getTransfer(ctx: SubgraphContext, applicationId: string, transferId: string): Promise<TransferView> {
  const parties = await partiesOf(ctx, applicationId);
  const row = await transferOf(ctx, applicationId, transferId);
  if (!(await mayRead(ctx, parties, row))) throw notFound('The owner transfer');
  return toTransferView(row);
}

const idempotencyScope = (authority: Authority, route: string, key: string | null | undefined, request: unknown): IdempotencyScope => ({
  applicationId: authority.applicationId,
  method: 'POST',
  route,
  key: validateKey(key),
  requestHash: requestHash(request),
});

const ownerUser = (authority: Authority, what: string): string => {
  if (authority.actor.type !== 'user') throw forbidden(`${what} needs a user's token: an application cannot decide on its own ownership.`, 'user_actor_required');
  return authority.actor.userId;
};

/** The change of a transition, for webhooks. Not tied to an organisation or event: it goes to the application's own endpoints. */
const changeStatements = (type: TransferChange, transfer: TransferView): SqlStatement[] =>
  appendChanges([
    {
      type,
      organisationId: null,
      eventId: null,
      resourceType: 'application',
      resourceId: transfer.applicationId,
      revision: null,
      // A transfer that has just moved is never expired (an expired one is refused before it moves).
      payload: { transferId: transfer.id, status: transfer.status as ChangeDetails<TransferChange>['status'], fromOwner: transfer.fromOwner, toOwner: transfer.toOwner, expiresAt: transfer.expiresAt },
    },
  ]);

// Locked before the transfer, by every transition and by creation, so that they queue in one order.
const LOCK_APPLICATION_SQL = `SELECT CASE WHEN count(*) = 0 THEN ${failWith('missing', 'count(*)')} END AS guard FROM (SELECT id FROM "Application" WHERE id = $1 FOR UPDATE) a`;

const NO_PENDING_SQL = `
  SELECT CASE WHEN count(*) > 0 THEN ${failWith('pending_exists', 'min(id)')} END AS guard
  FROM "OwnerTransfer" WHERE "applicationId" = $1 AND status = 'pending' AND "expiresAt" > ${NOW}`;

const OWNER_UNCHANGED_SQL = `
  SELECT CASE WHEN count(*) = 0 THEN ${failWith('owner_changed', 'count(*)')} END AS guard
  FROM "Application" WHERE id = $1 AND "ownerType" = $2 AND "ownerId" = $3`;

const INSERT_TRANSFER_SQL = `
  INSERT INTO "OwnerTransfer" (id, "applicationId", "fromOwnerType", "fromOwnerId", "toOwnerType", "toOwnerId", status, revision, "createdAt", "expiresAt")
  VALUES ($1, $2, $3, $4, $5, $6, 'pending', 1, $7::timestamp, $8::timestamp)`;

export async function createTransfer(ctx: SubgraphContext, applicationId: string, body: unknown, idempotencyKey: string | null | undefined): Promise<TransferView & { replayed: boolean }> {
  const parties = await partiesOf(ctx, applicationId);
  const userId = ownerUser(parties.authority, 'Offering an application to another owner');
  const scope = idempotencyScope(parties.authority, 'createOwnerTransfer', idempotencyKey, { applicationId, body });
  let input;
  try {
    input = validate(createTransferInput, body);
    if (!(await managesOwner(ctx, userId, parties.owner))) throw forbidden("The user does not manage this application's owner.", 'missing_permission');
    if (input.toOwner.type === parties.owner.type && input.toOwner.id === parties.owner.id) {
      throw new ApiError('validation_failed', 'The application already belongs to this owner.', [{ field: 'toOwner', issue: 'same_owner' }]);
    }
    if (!(await ownerExists(ctx, input.toOwner))) {
      throw new ApiError('validation_failed', `There is no ${input.toOwner.type} ${input.toOwner.id}.`, [{ field: 'toOwner.id', issue: 'not_found' }]);
    }
  } catch (error) {
    const replay = await replayInstead(ctx.db, scope, error);
    if (replay) return { ...(replay.body as TransferView), replayed: true };
    throw error;
  }
  const createdAt = new Date();
  const transfer: TransferView = {
    id: newId('otr'),
    applicationId,
    status: 'pending',
    fromOwner: ownerRefOf(parties.owner.type, parties.owner.id),
    toOwner: input.toOwner,
    revision: 1,
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + (input.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS).toISOString(),
  };
  const { body: result, replayed } = await idempotentTransaction(
    ctx,
    scope,
    { status: 201, body: transfer },
    [
      { text: LOCK_APPLICATION_SQL, values: [applicationId] },
      { text: OWNER_UNCHANGED_SQL, values: [applicationId, parties.owner.type, parties.owner.id] },
      { text: NO_PENDING_SQL, values: [applicationId] },
      {
        text: INSERT_TRANSFER_SQL,
        values: [transfer.id, applicationId, parties.owner.type, parties.owner.id, input.toOwner.type, input.toOwner.id, transfer.createdAt.replace('Z', ''), transfer.expiresAt.replace('Z', '')],
      },
      ...changeStatements('application.owner_transfer.created', transfer),
    ],
    (check, value) =>
      check === 'pending_exists'
        ? new ApiError('conflict', `Transfer ${value} of this application is still pending: cancel it first.`, [{ issue: 'transfer_pending', field: value }])
        : check === 'owner_changed'
          ? new ApiError('conflict', "The application's owner changed while the transfer was being created.", [{ issue: 'owner_changed' }])
          : check === 'missing'
            ? notFound('The application')
            : undefined,
  );
  return { ...result, replayed };
}

// The transfer as it must be for a transition: pending, unexpired, at the revision read (nothing moved
// it since), and for acceptance still from the application's current owner. Locked until commit.
const TRANSITION_GUARD_SQL = `
  SELECT CASE
      WHEN t.status <> 'pending' OR t.revision <> $3 THEN ${failWith('not_pending', 't.status')}
      WHEN t."expiresAt" <= ${NOW} THEN ${failWith('expired', 't.revision')}
      WHEN $4::boolean AND (a."ownerType" <> t."fromOwnerType" OR a."ownerId" <> t."fromOwnerId") THEN ${failWith('owner_changed', 'a."ownerType"')}
    END AS guard
  FROM "OwnerTransfer" t JOIN "Application" a ON a.id = t."applicationId"
  WHERE t.id = $1 AND t."applicationId" = $2
  FOR UPDATE OF t`;

const SET_STATUS_SQL = `
  UPDATE "OwnerTransfer" SET status = $2, revision = revision + 1, "acceptedAt" = CASE WHEN $2 = 'accepted' THEN ${NOW} ELSE "acceptedAt" END
  WHERE id = $1`;

const MOVE_APPLICATION_SQL = `UPDATE "Application" SET "ownerType" = $2, "ownerId" = $3, revision = revision + 1 WHERE id = $1`;

type Transition = 'accept' | 'decline' | 'cancel';

const TRANSITIONS: Record<Transition, { status: TransferStatus; change: TransferChange; route: string; what: string }> = {
  accept: { status: 'accepted', change: 'application.owner_transfer.accepted', route: 'acceptOwnerTransfer', what: 'Accepting an owner transfer' },
  decline: { status: 'declined', change: 'application.owner_transfer.declined', route: 'declineOwnerTransfer', what: 'Declining an owner transfer' },
  cancel: { status: 'cancelled', change: 'application.owner_transfer.cancelled', route: 'cancelOwnerTransfer', what: 'Cancelling an owner transfer' },
};

function conflictOf(transfer: OwnerTransfer, check: string): ApiError | undefined {
  if (check === 'not_pending') {
    return new ApiError('conflict', 'The owner transfer is no longer pending.', [{ field: 'status', issue: 'not_pending' }]);
  }
  if (check === 'expired') {
    return new ApiError('conflict', `The owner transfer expired at ${transfer.expiresAt.toISOString()}.`, [{ field: 'expiresAt', issue: 'expired' }]);
  }
  if (check === 'owner_changed') {
    return new ApiError('conflict', `The application no longer belongs to ${transfer.fromOwnerType} ${transfer.fromOwnerId}, who offered it.`, [
      { field: 'fromOwner', issue: 'owner_changed' },
    ]);
  }
  return undefined;
}

/** Accept or decline (a user who manages the new owner), or cancel (a user who manages the application's owner). */
export async function transition(
  ctx: SubgraphContext,
  kind: Transition,
  applicationId: string,
  transferId: string,
  idempotencyKey: string | null | undefined,
): Promise<TransferView & { replayed: boolean }> {
  const spec = TRANSITIONS[kind];
  const parties = await partiesOf(ctx, applicationId);
  const scope = idempotencyScope(parties.authority, spec.route, idempotencyKey, { applicationId, transferId });
  const current = await transferOf(ctx, applicationId, transferId);
  const userId = ownerUser(parties.authority, spec.what);
  const decider = kind === 'cancel' ? parties.owner : { type: current.toOwnerType, id: current.toOwnerId };
  if (!(await managesOwner(ctx, userId, decider))) {
    // A replay answers even if the user's role changed since the first request.
    const replay = await findReplay(ctx.db, scope);
    if (replay) return { ...(replay.body as TransferView), replayed: true };
    throw forbidden(
      kind === 'cancel' ? "Only a user who manages the application's owner may cancel its transfer." : `Only a user who manages ${current.toOwnerType} ${current.toOwnerId} may ${kind} this transfer.`,
      'missing_permission',
    );
  }
  const after: TransferView = { ...toTransferView(current), status: spec.status, revision: current.revision + 1 };
  const statements: SqlStatement[] = [
    { text: LOCK_APPLICATION_SQL, values: [applicationId] },
    { text: TRANSITION_GUARD_SQL, values: [transferId, applicationId, current.revision, kind === 'accept'] },
    { text: SET_STATUS_SQL, values: [transferId, spec.status] },
    ...(kind === 'accept' ? [{ text: MOVE_APPLICATION_SQL, values: [applicationId, current.toOwnerType, current.toOwnerId] }] : []),
    ...changeStatements(spec.change, after),
  ];
  const { body, replayed } = await idempotentTransaction(ctx, scope, { status: 200, body: after }, statements, (check) =>
    check === 'missing' ? notFound('The application') : conflictOf(current, check),
  );
  return { ...body, replayed };
}
