// The resume scenario of the realtime gateway, shared by the in-process and the two-process tests:
// 20 writers make 500 changes on evt_live through the given servers while one subscriber drops its
// socket at random moments and comes back, to the next server in turn, with the last cursor it took.
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { call } from './api.ts';

export interface ResumeScenario {
  /** Servers the subscriber connects to, in turn. */
  subscribeTo: string[];
  /** Servers the writers write through, in turn. */
  writeTo: string[];
  apiKey: string;
  /** A cursor from before the first write. */
  after: string;
  revisionOf(): Promise<number>;
}

export interface ResumeOutcome {
  /** The revision of every change received, in the order received. */
  received: number[];
  errors: unknown[];
  reconnects: number;
}

const WRITERS = 20;
const CHANGES_EACH = 25;
export const RESUME_CHANGES = WRITERS * CHANGES_EACH;

export async function resumeUnderWriters(scenario: ResumeScenario): Promise<ResumeOutcome> {
  let cursor = scenario.after;
  const received: number[] = [];
  const errors: unknown[] = [];
  let done = false;
  let reconnects = 0;
  // The subscriber: take changes until a random moment (after 1 to 40 of them, or 50 to 450 ms after
  // the first), drop the socket, and come back with the last cursor received.
  const subscriber = (async () => {
    while (!done || received.length < RESUME_CHANGES) {
      const base = scenario.subscribeTo[reconnects % scenario.subscribeTo.length];
      const client = createClient({ url: base.replace(/^http/, 'ws') + '/api/v1/gateway', webSocketImpl: WebSocket, connectionParams: { apiKey: scenario.apiKey }, retryAttempts: 0 });
      // Messages still in flight on a socket being dropped are not counted: the next connection
      // resumes from the last cursor taken.
      let active = true;
      await new Promise<void>((resolve) => {
        const quota = 1 + Math.floor(Math.random() * 40);
        let taken = 0;
        let timer: NodeJS.Timeout | undefined;
        const idle = setTimeout(resolve, 3000);
        client.subscribe<{ eventChanged: { cursor: string; revision: number } }>(
          { query: 'subscription ($after: String) { eventChanged(eventId: "evt_live", after: $after) { cursor revision } }', variables: { after: cursor } },
          {
            next: ({ data }) => {
              if (!active) return;
              received.push(data!.eventChanged.revision);
              cursor = data!.eventChanged.cursor;
              clearTimeout(idle);
              timer ??= setTimeout(resolve, 50 + Math.random() * 400);
              if (++taken >= quota) {
                active = false;
                resolve();
              }
            },
            error: (error) => {
              errors.push(error);
              resolve();
            },
            complete: () => undefined,
          },
        );
      });
      active = false;
      await client.dispose();
      reconnects++;
      if (done && received.length >= RESUME_CHANGES) break;
    }
  })();
  // Each writer reports its own match, retrying on 412 until the write lands.
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let n = 1; n <= CHANGES_EACH; n++) {
        const base = scenario.writeTo[(w + n) % scenario.writeTo.length];
        for (;;) {
          const response = await call(base, `/api/v2/events/evt_live/matches/mtc_live_b_${String(101 + w).padStart(3, '0')}`, {
            method: 'PATCH',
            body: { scoreA: n },
            ifMatch: await scenario.revisionOf(),
          });
          if (response.status === 200) break;
          if (response.status !== 412) throw new Error(`a write answered ${response.status}: ${JSON.stringify(response.body)}`);
        }
      }
    }),
  );
  done = true;
  await Promise.race([subscriber, new Promise((_, reject) => setTimeout(() => reject(new Error(`received ${received.length} of ${RESUME_CHANGES}`)), 30_000))]);
  return { received, errors, reconnects };
}
