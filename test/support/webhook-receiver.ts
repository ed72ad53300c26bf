// A real HTTP receiver for webhook tests: records every request, verifies nothing itself (tests do,
// with the standardwebhooks package), and answers what the test scripts (status, headers, delay).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  /** Requests open at this receiver when this one arrived, itself included. */
  open: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Never answer: the request stays open until the sender gives up. */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to each request (default 200). */
  answer: (request: Received, index: number) => Answer;
  /** The most requests that were open at once. */
  readonly maxOpen: number;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  let open = 0;
  let maxOpen = 0;
  const receiver = {
    received: [] as Received[],
    answer: (() => ({ status: 200, body: 'ok' })) as Receiver['answer'],
  };
  const server = http.createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), open };
      const index = receiver.received.push(request) - 1;
      const answer = receiver.answer(request, index);
      if (answer.hang) return;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // A getter: Object.assign would copy the value it has now.
  Object.defineProperty(receiver, 'maxOpen', { get: () => maxOpen });
  return Object.assign(receiver as typeof receiver & { readonly maxOpen: number }, {
    url: `http://127.0.0.1:${port}${path}`,
    async waitFor(count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline) throw new Error(`The receiver got ${receiver.received.length} of ${count} requests in ${timeoutMs} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return receiver.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
