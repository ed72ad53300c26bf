// The contract of each competition write, in one place: its HTTP binding (method, path, status), the
// scope it needs, whether it takes If-Match and an Idempotency-Key, its request body (the zod
// schema and the name of the GraphQL input type generated from it) and what the mutation does. The
// subgraph declares the mutation from it (schema/event-writes.ts, with the write's handler) and
// enforces it; the REST route, its GraphQL document and the OpenAPI entry are built from it.
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
  /** What the mutation does, as its GraphQL description says (the route row has its own, longer one). */
  description: string;
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
  publishEvent: { method: 'POST', path: '/api/v2/events/{eventId}/publish', scope: 'event:manage', idempotent: true, status: 200, description: 'Publishes a draft event: its state becomes scheduled. Needs event:manage.' },
  updateVetoSettings: { method: 'PATCH', path: '/api/v2/events/{eventId}/settings/veto', input: { name: 'VetoSettingsInput', schema: vetoInput }, scope: 'event:manage', idempotent: false, status: 200, description: 'Replaces the map veto configurations, normalised to the size of the map pool. Needs event:manage.' },
  createStage: { method: 'POST', path: '/api/v2/events/{eventId}/stages', input: { name: 'CreateStageInput', schema: stageInput }, scope: 'event.structure:manage', idempotent: true, status: 201, description: 'Adds a stage with a format, a best-of value and optional groups. Needs event.structure:manage.' },
  seedStage: { method: 'PUT', path: '/api/v2/events/{eventId}/stages/{stageId}/seeding', input: { name: 'StageSeedingInput', schema: stageSeedingInput }, scope: 'event.structure:manage', idempotent: false, status: 200, description: "Sets a pending stage's manual seeding: participantIds (seed 1 first) or, for round robin stages with groups, groups. Needs event.structure:manage." },
  startStage: { method: 'POST', path: '/api/v2/events/{eventId}/stages/{stageId}/start', scope: 'event.structure:manage', idempotent: true, status: 200, description: 'Starts a pending stage: freezes its seeding and generates its rounds and matches in one transaction. Needs event.structure:manage.' },
  createInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations', input: { name: 'CreateInvitationInput', schema: invitationInput }, scope: 'event.participants:manage', idempotent: true, status: 201, description: 'Invites a team, optionally into a stage and a group of that stage. Needs event.participants:manage.' },
  createStandingAdjustment: {
    method: 'POST',
    path: '/api/v2/events/{eventId}/standing-adjustments',
    input: { name: 'CreateStandingAdjustmentInput', schema: standingAdjustmentInput },
    scope: 'event.results:manage',
    idempotent: true,
    status: 201,
    description: 'Adds a points adjustment for a participant of a stage or group standing. Needs event.results:manage.',
  },
  updateParticipant: { method: 'PATCH', path: '/api/v2/events/{eventId}/participants/{participantId}', input: { name: 'UpdateParticipantInput', schema: participantChangeInput }, scope: 'event.participants:manage', idempotent: false, status: 200, description: "Sets a participant's status, selected groups or signup answers (by action). Needs event.participants:manage." },
  changeLineup: { method: 'PUT', path: '/api/v2/events/{eventId}/participants/{participantId}/lineup', input: { name: 'LineupChangeInput', schema: lineupInput }, scope: 'event.participants:manage', idempotent: false, status: 200, description: "Sets a lineup member's role, or adds or removes a member, in this event or every open event of the team. Needs event.participants:manage." },
  deleteParticipant: { method: 'DELETE', path: '/api/v2/events/{eventId}/participants/{participantId}', scope: 'event.participants:manage', idempotent: false, status: 200, description: 'Removes a registration before it is placed into matches. Needs event.participants:manage.' },
  replacePlaydayStaff: { method: 'PUT', path: '/api/v2/events/{eventId}/playdays/{playdayId}/staff', input: { name: 'PlaydayStaffInput', schema: staffInput }, scope: 'broadcast:manage', idempotent: false, status: 200, description: 'Replaces the playday staff roster with the users and roles given. Needs broadcast:manage.' },
  // Live writes overlays follow (extensions of the interface).
  reportMatch: { method: 'PATCH', path: '/api/v2/events/{eventId}/matches/{matchId}', input: { name: 'MatchReportInput', schema: matchReportInput }, scope: 'event.results:manage', idempotent: false, status: 200, description: "Reports a match: status, scheduled time, scores, per-map results, free win, stream. Absent fields keep their value; null clears. Needs event.results:manage." },
  replaceBroadcast: { method: 'PUT', path: '/api/v2/events/{eventId}/broadcast', input: { name: 'BroadcastInput', schema: broadcastInput }, scope: 'broadcast:manage', idempotent: false, status: 200, description: "Replaces the event's broadcast configuration (absent fields take their defaults). Needs broadcast:manage." },
  updatePlayday: { method: 'PATCH', path: '/api/v2/events/{eventId}/playdays/{playdayId}', input: { name: 'PlaydayUpdateInput', schema: playdayUpdateInput }, scope: 'broadcast:manage', idempotent: false, status: 200, description: "Sets a playday's live match and overlay score. Absent fields keep their value; null clears. Needs broadcast:manage." },
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
    description: 'Creates a draft event in the organisation (revision 1); the slug is derived from the name unless given. Needs event:manage.',
  },
  updateEvent: { method: 'PATCH', path: '/api/v2/events/{eventId}', input: { name: 'UpdateEventInput', schema: updateEventInput }, scope: 'event:manage', idempotent: false, status: 200, description: "Changes an event's name, slug, description, game, schedule, time zone, visibility or branding. Absent fields keep their value; null clears. Needs event:manage." },
  createParticipant: { method: 'POST', path: '/api/v2/events/{eventId}/participants', input: { name: 'CreateParticipantInput', schema: participantInput }, scope: 'event.participants:manage', idempotent: true, status: 201, description: "Registers a team in the event (status registered, the team's members as its lineup), optionally in a group of a stage. Needs event.participants:manage." },
  acceptInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations/{invitationId}/accept', scope: null, idempotent: true, status: 201, ifMatch: false, description: "Accepts a pending invitation for the invited team: the team is registered in the invitation's stage and group. For a user who plays in that team; resourceId is the new participant." },
  declineInvitation: { method: 'POST', path: '/api/v2/events/{eventId}/invitations/{invitationId}/decline', scope: null, idempotent: true, status: 200, ifMatch: false, description: 'Declines a pending invitation for the invited team. For a user who plays in that team; resourceId is the invitation.' },
} as const satisfies Record<string, WriteContract>;

export type WriteOperation = keyof typeof WRITES;

/** A write's contract with every optional part visible. */
export const contractOf = (operation: WriteOperation): WriteContract => WRITES[operation];

/** The {names} of a path, as a type: a write's ID arguments. */
type ParamsOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never;
/** A write's ID arguments by name, each as a string (the mutation's handler reads them). */
export type PathIdsOf<K extends WriteOperation> = Record<ParamsOf<(typeof WRITES)[K]['path']>, string>;

/** The {names} of a write's path, in order: its ID arguments. */
export const pathParamsOf = (operation: WriteOperation): string[] => [...WRITES[operation].path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
