// The contract of each competition write, in one place: its HTTP binding (method, path, status), the
// scope it needs, whether it takes If-Match and an Idempotency-Key, and its request body (the zod
// schema and the name of the GraphQL input type generated from it). The subgraph declares the
// mutation's arguments from it and enforces it; the REST route, its GraphQL document and the OpenAPI
// entry are built from it.
import type { z } from 'zod';
import type { Scope } from '../../platform/domain/scopes.ts';
import {
  broadcastInput,
  createEventInput,
  invitationInput,
  lineupInput,
  matchReportInput,
  participantChangeInput,
  participantInput,
  playdayUpdateInput,
  stageInput,
  stageSeedingInput,
  staffInput,
  standingAdjustmentInput,
  updateEventInput,
  vetoInput,
} from './inputs.ts';

export interface WriteContract {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The REST path; each {name} in it is also an ID argument of the mutation. */
  path: string;
  /** The request body and the name of its GraphQL input type (the mutation's `input` argument). */
  input?: { name: string; schema: z.ZodType };
  /** The scope the token needs; null: none, the write's own rule decides (a team's player answering its invitation). */
  scope: Scope | null;
  idempotent: boolean;
  status: 200 | 201;
  /**
   * False for the writes that take no If-Match: creating an event (there is no revision yet) and a
   * team answering its invitation (a player cannot be expected to follow the event's revision).
   * Every other write requires it.
   */
  ifMatch?: false;
  /** What the write is addressed to: an event (the default), or an organisation (a new event). */
  target?: 'organisation';
}

export const WRITES = {
  publishEvent: { method: 'POST', path: '/api/v2/events/{eventId}/publish', scope: 'event:manage', idempotent: true, status: 200 },
  updateVetoSettings: { method: 'PATCH', path: '/api/v2/events/{eventId}/settings/veto', input: { name: 'VetoSettingsInput', schema: vetoInput }, scope: 'event:manage', idempotent: false, status: 200 },
  createStage: { method: 'POST', path: '/api/v2/events/{eventId}/stages', input: { name: 'CreateStageInput', schema: stageInput }, scope: 'event.structure:manage', idempotent: true, status: 201 },
  seedStage: { method: 'PUT', path: '/api/v2/events/{eventId}/stages/{stageId}/seeding', input: { name: 'StageSeedingInput', schema: stageSeedingInput }, scope: 'event.structure:manage', idempotent: false, status: 200 },
  startStage: { method: 'POST', path: '/api/v2/events/{eventId}/stages/{stageId}/start', scope: 'event.structure:manage', idempotent: true, status: 200 },
  createInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations', input: { name: 'CreateInvitationInput', schema: invitationInput }, scope: 'event.participants:manage', idempotent: true, status: 201 },
  createStandingAdjustment: {
    method: 'POST',
    path: '/api/v2/events/{eventId}/standing-adjustments',
    input: { name: 'CreateStandingAdjustmentInput', schema: standingAdjustmentInput },
    scope: 'event.results:manage',
    idempotent: true,
    status: 201,
  },
  updateParticipant: { method: 'PATCH', path: '/api/v2/events/{eventId}/participants/{participantId}', input: { name: 'UpdateParticipantInput', schema: participantChangeInput }, scope: 'event.participants:manage', idempotent: false, status: 200 },
  changeLineup: { method: 'PUT', path: '/api/v2/events/{eventId}/participants/{participantId}/lineup', input: { name: 'LineupChangeInput', schema: lineupInput }, scope: 'event.participants:manage', idempotent: false, status: 200 },
  deleteParticipant: { method: 'DELETE', path: '/api/v2/events/{eventId}/participants/{participantId}', scope: 'event.participants:manage', idempotent: false, status: 200 },
  replacePlaydayStaff: { method: 'PUT', path: '/api/v2/events/{eventId}/playdays/{playdayId}/staff', input: { name: 'PlaydayStaffInput', schema: staffInput }, scope: 'broadcast:manage', idempotent: false, status: 200 },
  // Live writes overlays follow (extensions of the interface).
  reportMatch: { method: 'PATCH', path: '/api/v2/events/{eventId}/matches/{matchId}', input: { name: 'MatchReportInput', schema: matchReportInput }, scope: 'event.results:manage', idempotent: false, status: 200 },
  replaceBroadcast: { method: 'PUT', path: '/api/v2/events/{eventId}/broadcast', input: { name: 'BroadcastInput', schema: broadcastInput }, scope: 'broadcast:manage', idempotent: false, status: 200 },
  updatePlayday: { method: 'PATCH', path: '/api/v2/events/{eventId}/playdays/{playdayId}', input: { name: 'PlaydayUpdateInput', schema: playdayUpdateInput }, scope: 'broadcast:manage', idempotent: false, status: 200 },
  // Organiser writes (extensions of the interface): an event's life from creation to registration.
  createEvent: {
    method: 'POST',
    path: '/api/v2/organisations/{organisationId}/events',
    input: { name: 'CreateEventInput', schema: createEventInput },
    scope: 'event:manage',
    idempotent: true,
    status: 201,
    ifMatch: false,
    target: 'organisation',
  },
  updateEvent: { method: 'PATCH', path: '/api/v2/events/{eventId}', input: { name: 'UpdateEventInput', schema: updateEventInput }, scope: 'event:manage', idempotent: false, status: 200 },
  createParticipant: { method: 'POST', path: '/api/v2/events/{eventId}/participants', input: { name: 'CreateParticipantInput', schema: participantInput }, scope: 'event.participants:manage', idempotent: true, status: 201 },
  acceptInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations/{invitationId}/accept', scope: null, idempotent: true, status: 201, ifMatch: false },
  declineInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations/{invitationId}/decline', scope: null, idempotent: true, status: 200, ifMatch: false },
} as const satisfies Record<string, WriteContract>;

export type WriteOperation = keyof typeof WRITES;

/** A write's contract with every optional part visible. */
export const contractOf = (operation: WriteOperation): WriteContract => WRITES[operation];

/** The {names} of a write's path, in order: its ID arguments. */
export const pathParamsOf = (operation: WriteOperation): string[] => [...WRITES[operation].path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
