// The line an overlay shows when it is not showing live data: reconnecting (small, in a corner) or
// stopped (the whole overlay gives way to the message, so no stale score stays on air).
export type Status = 'live' | 'reconnecting' | 'stopped';

export function showStatus(status: Status, message = ''): void {
  const line = document.getElementById('status')!;
  document.body.dataset.status = status;
  line.hidden = status === 'live';
  line.textContent = message;
  if (status === 'stopped') document.getElementById('overlay')?.replaceChildren();
}

export const REFUSED = "This overlay's token was revoked or has expired: ask the organiser for a new overlay address.";
