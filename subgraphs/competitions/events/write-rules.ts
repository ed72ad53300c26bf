// What every event write checks and answers alike: its preconditions (If-Match, Idempotency-Key), a
// conflict, an event that no longer changes, a write that changes nothing.
import { canonicalJson } from '../../../platform/api/canonical-json.ts';
import { ApiError } from '../../../platform/api/errors.ts';
import type { EventState } from './event-write.ts';

export interface Preconditions {
  ifMatch?: string | null;
  idempotencyKey?: string | null;
}

export const conflict = (message: string, issue: string) => new ApiError('conflict', message, [{ issue }]);
export const CLOSED_STATES = ['completed', 'cancelled'];

export function assertOpen(event: EventState) {
  if (CLOSED_STATES.includes(event.state)) throw conflict(`The event is ${event.state}: its structure can no longer change.`, 'event_closed');
}

export const sameJson = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
export const unchanged = (resourceId: string) => ({ resourceId, changed: false, changes: [], statements: [] });
