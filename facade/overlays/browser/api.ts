// The v1 reads of an overlay, with the overlay token of the page's address in x-overlay-token. A
// refused token (401) stops the overlay; a rate limit or an outage (429, 503) or a network failure is
// waited out (Retry-After, else a growing pause) and the read tried again, so a browser source left
// running on match day recovers by itself.
import { showStatus } from './status.ts';

export type Row = Record<string, any>;

/** The token was refused: unknown, revoked or expired. */
export class TokenRefused extends Error {}

/** A 4xx other than 401 and 429: the overlay asked for something that is not there. */
export class ReadFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function pageParams(): URLSearchParams {
  return new URLSearchParams(location.search);
}

export class OverlayApi {
  private readonly etags = new Map<string, { etag: string; body: Row }>();

  constructor(readonly token: string) {}

  /** The answer's body; with remember, a read again of an unchanged resource costs a 304. */
  async read(path: string): Promise<Row> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      const known = this.etags.get(path);
      try {
        response = await fetch(path, {
          headers: { 'x-overlay-token': this.token, ...(known ? { 'if-none-match': known.etag } : {}) },
          cache: 'no-store',
        });
      } catch {
        showStatus('reconnecting', 'Reconnecting…');
        await pause(Math.min(10_000, 500 * 2 ** attempt));
        continue;
      }
      if (response.status === 304 && known) return known.body;
      if (response.status === 401) throw new TokenRefused();
      if (response.status === 429 || response.status >= 500) {
        const retryAfter = Number(response.headers.get('retry-after'));
        showStatus('reconnecting', 'Reconnecting…');
        await pause(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : Math.min(10_000, 500 * 2 ** attempt));
        continue;
      }
      const body = (await response.json().catch(() => null)) as Row | null;
      if (!response.ok || !body) throw new ReadFailed(response.status, body?.error?.message ?? `The platform answered ${response.status}.`);
      const etag = response.headers.get('etag');
      if (etag) this.etags.set(path, { etag, body });
      return body;
    }
  }

  /** Every item of a list, page by page. */
  async all(path: string): Promise<Row[]> {
    const items: Row[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page = await this.read(`${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.data);
      cursor = page.meta?.hasMore ? page.meta.nextCursor : null;
    } while (cursor);
    return items;
  }

  /** The one event this token reads. */
  async eventId(): Promise<string> {
    return (await this.read('/api/v1/overlay-token')).data.eventId;
  }
}
