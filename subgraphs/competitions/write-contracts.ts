// The contract of each competition write, in one place: its HTTP method, the scope it needs, whether
// it takes an Idempotency-Key and the status it answers. The subgraph enforces it; the REST route
// table and the OpenAPI document are built from it.
import type { Scope } from '../shared/scopes.ts';

export interface WriteContract {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  publishEvent: { method: 'POST', scope: 'event:manage', idempotent: true, status: 200 },
  updateVetoSettings: { method: 'PATCH', scope: 'event:manage', idempotent: false, status: 200 },
  createStage: { method: 'POST', scope: 'event.structure:manage', idempotent: true, status: 201 },
  seedStage: { method: 'PUT', scope: 'event.structure:manage', idempotent: false, status: 200 },
  startStage: { method: 'POST', scope: 'event.structure:manage', idempotent: true, status: 200 },
  createInvitation: { method: 'POST', scope: 'event.participants:manage', idempotent: true, status: 201 },
  createStandingAdjustment: { method: 'POST', scope: 'event.results:manage', idempotent: true, status: 201 },
  updateParticipant: { method: 'PATCH', scope: 'event.participants:manage', idempotent: false, status: 200 },
  changeLineup: { method: 'PUT', scope: 'event.participants:manage', idempotent: false, status: 200 },
  deleteParticipant: { method: 'DELETE', scope: 'event.participants:manage', idempotent: false, status: 200 },
  replacePlaydayStaff: { method: 'PUT', scope: 'broadcast:manage', idempotent: false, status: 200 },
  // Live writes overlays follow (extensions of the interface).
  reportMatch: { method: 'PATCH', scope: 'event.results:manage', idempotent: false, status: 200 },
  replaceBroadcast: { method: 'PUT', scope: 'broadcast:manage', idempotent: false, status: 200 },
  updatePlayday: { method: 'PATCH', scope: 'broadcast:manage', idempotent: false, status: 200 },
  // Organiser writes (extensions of the interface): an event's life from creation to registration.
  createEvent: { method: 'POST', scope: 'event:manage', idempotent: true, status: 201, ifMatch: false, target: 'organisation' },
  updateEvent: { method: 'PATCH', scope: 'event:manage', idempotent: false, status: 200 },
  createParticipant: { method: 'POST', scope: 'event.participants:manage', idempotent: true, status: 201 },
  acceptInvitation: { method: 'POST', scope: null, idempotent: true, status: 201, ifMatch: false },
  declineInvitation: { method: 'POST', scope: null, idempotent: true, status: 200, ifMatch: false },
} as const satisfies Record<string, WriteContract>;

export type WriteOperation = keyof typeof WRITES;

/** A write's contract with every optional part visible. */
export const contractOf = (operation: WriteOperation): WriteContract => WRITES[operation];
