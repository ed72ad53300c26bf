// The contract of each competition write, in one place: its HTTP method, the scope it needs, whether
// it takes an Idempotency-Key and the status it answers. The subgraph enforces it; the REST route
// table and the OpenAPI document are built from it.
import type { Scope } from '../shared/scopes.ts';

export interface WriteContract {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  scope: Scope;
  idempotent: boolean;
  status: 200 | 201;
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
} as const satisfies Record<string, WriteContract>;

export type WriteOperation = keyof typeof WRITES;
