// graphql-ws over ws sockets (the library's makeServer, as its own use/ws adapter does), with frames
// coalesced per socket per event-loop turn: everything sent to a socket during one turn is written
// with a single system call when the turn ends. A change fans out to a thousand sockets in one turn,
// so an instance that falls behind catches up with several frames per write instead of paying a
// write per frame; an idle instance sends at once, as before.
//
// The frames come whole (subscription-messages.ts builds a subscription's `next` frame around the
// change's payload, encoded once), so a subscriber costs a copy of bytes, a reference in its outbox
// and one socket write, not a string, its UTF-8 encoding and two stream writes per message. The server negotiates no
// compression, so ws writes nothing but whole frames (pings, closes) to the same socket, each in one
// synchronous call.
//
// A send resolves once its frame is written and the socket is below its high-water mark, so that a
// subscriber that does not read holds at most that much in buffers: its backlog stays in its change
// stream (shared change records, not serialised frames), which closes it as a slow consumer when the
// backlog outgrows its bound.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';

/** What graphql-ws keeps per socket for its lifetime: the socket only (not its upgrade request). */
export interface Extra {
  socket: WebSocket;
}

export interface TransportOptions {
  log: (message: string, error?: unknown) => void;
  /**
   * At most `messages` incoming messages per socket in each window of `windowMs`: past them the socket
   * is closed with `closeCode` and what else it sends is dropped unread, so that a flood of subscribe
   * (or subscribe and complete) messages costs a counter, not a parse and a promise each.
   */
  messageLimit: { messages: number; windowMs: number; closeCode: number };
}

/**
 * What a socket has to write at the end of this turn. One per socket for its lifetime, reset after
 * each write rather than made anew: a fan-out touches a thousand of them in one turn, and objects
 * made per socket per turn outlive the young generation often enough for V8 to allocate them straight
 * into the old one (pretenuring), which then filled at the rate of delivery and was collected by a
 * full mark-compact every half second.
 */
interface Outbox {
  readonly ws: WebSocket;
  readonly raw: Duplex;
  /** Whole frames, in order; `count` of them are this turn's (the array keeps its capacity). */
  frames: (Buffer | null)[];
  count: number;
  bytes: number;
  /** Called once this turn's frames are written and the socket can take more. */
  wakers: (() => void)[];
  queued: boolean;
  /** Waiting for the socket to drain: its wakers are woken then (one listener, however many flushes wait). */
  draining: boolean;
}

/** A socket's side of a subscription: frames pushed are written at the end of the turn. */
export interface Outlet {
  /** One whole frame (textFrame); it is written as it is, so it may be shared with other sockets. */
  push(frame: Buffer): void;
  /** Whether the socket is below its high-water mark, counting what this turn has pushed. */
  writable(): boolean;
  whenWritable(wake: () => void): void;
}

export class CoalescingTransport {
  private readonly outboxes = new WeakMap<WebSocket, Outbox>();
  /**
   * The outboxes with something to write this turn: `queued` of them. A flush takes the queue and
   * leaves the spare in its place, so what its wake-ups push lands in the next turn's queue.
   */
  private queue: (Outbox | null)[] = [];
  private spare: (Outbox | null)[] = [];
  private queued = 0;

  constructor(private readonly options: TransportOptions) {}

  /** The upgrade's raw socket, kept so that a turn's frames can be written together; `accepted` sees the WebSocket first. */
  upgrade(wss: WebSocketServer, request: http.IncomingMessage, socket: Duplex, head: Buffer, accepted?: (ws: WebSocket) => void): void {
    wss.handleUpgrade(request, socket, head, (ws) => {
      this.outboxes.set(ws, { ws, raw: socket, frames: [], count: 0, bytes: 0, wakers: [], queued: false, draining: false });
      accepted?.(ws);
      wss.emit('connection', ws, request);
    });
  }

  outlet(ws: WebSocket): Outlet {
    const outbox = this.outboxes.get(ws)!;
    const { raw } = outbox;
    return {
      push: (frame) => this.push(outbox, frame),
      writable: () => ws.readyState === ws.OPEN && outbox.bytes + raw.writableLength < raw.writableHighWaterMark,
      // A socket that is closing wakes nobody: its subscriptions end when it has closed.
      whenWritable: (wake) => {
        if (ws.readyState !== ws.OPEN) return;
        outbox.wakers.push(wake);
        this.enqueue(outbox);
      },
    };
  }

  serve(wss: WebSocketServer, serverOptions: ServerOptions<Record<string, unknown>, Extra>): void {
    const server = makeServer(serverOptions);
    wss.options.handleProtocols = handleProtocols;
    wss.on('connection', (ws: WebSocket) => {
      const outbox = this.outboxes.get(ws)!;
      ws.once('error', (error) => {
        // A client's protocol error (a frame over the size limit, bad UTF-8, a bad opcode): ws has
        // already closed the socket with the code that says so (1009, 1007, 1002); nothing to log.
        if (String((error as { code?: unknown }).code ?? '').startsWith('WS_ERR_')) return;
        this.options.log('gateway socket error', error);
        ws.close(CloseCode.InternalServerError, 'Internal server error');
      });
      const closed = server.opened(
        {
          protocol: ws.protocol,
          send: (data) => {
            if (ws.readyState !== ws.OPEN) return;
            this.push(outbox, textFrame(Buffer.from(data)));
            return new Promise<void>((resolve) => outbox.wakers.push(resolve));
          },
          close: (code, reason) => ws.close(code, reason),
          onMessage: (handle) => {
            const { messages, windowMs, closeCode } = this.options.messageLimit;
            let windowStart = Date.now();
            let count = 0;
            ws.on('message', async (data) => {
              // A socket being closed reads nothing more (ws still parses what has arrived).
              if (ws.readyState !== ws.OPEN) return;
              const now = Date.now();
              if (now - windowStart >= windowMs) {
                windowStart = now;
                count = 0;
              }
              if (++count > messages) {
                ws.close(closeCode, `Too many messages: at most ${messages} in ${windowMs / 1000} s.`);
                // A flooder need not answer the close: it is cut off a second later.
                setTimeout(() => ws.terminate(), 1000).unref();
                return;
              }
              try {
                await handle(String(data));
              } catch (error) {
                this.options.log('gateway message handling failed', error);
                ws.close(CloseCode.InternalServerError, 'Internal server error');
              }
            });
          },
        },
        { socket: ws },
      );
      ws.once('close', (code, reason) => {
        this.wake(outbox);
        void closed(code, String(reason));
      });
    });
  }

  private enqueue(outbox: Outbox): void {
    if (outbox.queued) return;
    outbox.queued = true;
    if (this.queued === 0) setImmediate(() => this.flush());
    this.queue[this.queued++] = outbox;
  }

  private push(outbox: Outbox, frame: Buffer): void {
    if (outbox.ws.readyState !== outbox.ws.OPEN) return;
    outbox.frames[outbox.count++] = frame;
    outbox.bytes += frame.length;
    this.enqueue(outbox);
  }

  private flush(): void {
    const queue = this.queue;
    const count = this.queued;
    this.queue = this.spare;
    this.spare = queue;
    this.queued = 0;
    for (let i = 0; i < count; i++) {
      const outbox = queue[i]!;
      queue[i] = null;
      outbox.queued = false;
      const { ws, raw, frames } = outbox;
      const written = outbox.count;
      const bytes = outbox.bytes;
      outbox.count = 0;
      outbox.bytes = 0;
      if (ws.readyState === ws.OPEN && written) {
        raw.write(written === 1 ? frames[0]! : Buffer.concat(frames.slice(0, written) as Buffer[], bytes));
      }
      for (let f = 0; f < written; f++) frames[f] = null;
      if (!outbox.wakers.length || outbox.draining) continue;
      if (ws.readyState !== ws.OPEN || !raw.writableNeedDrain) this.wake(outbox);
      else {
        outbox.draining = true;
        const settle = () => {
          raw.off('drain', settle);
          ws.off('close', settle);
          outbox.draining = false;
          this.wake(outbox);
        };
        raw.once('drain', settle);
        ws.once('close', settle);
      }
    }
  }

  private wake(outbox: Outbox): void {
    if (!outbox.wakers.length) return;
    const wakers = outbox.wakers;
    outbox.wakers = [];
    for (const wake of wakers) wake();
  }
}

/**
 * A final, unmasked text frame of a UTF-8 message in up to three parts, in one buffer. Parts rather
 * than rest parameters: it runs once per subscriber per change, and an array per call is garbage.
 */
export function textFrame(first: Buffer, second?: Buffer, third?: Buffer): Buffer {
  const length = first.length + (second?.length ?? 0) + (third?.length ?? 0);
  const header = frameHeader(length);
  const frame = Buffer.allocUnsafe(header.length + length);
  let offset = header.copy(frame, 0);
  offset += first.copy(frame, offset);
  if (second) offset += second.copy(frame, offset);
  third?.copy(frame, offset);
  return frame;
}

// Subscribers alike get frames of one length: their header is made once and only ever copied.
const headers = new Map<number, Buffer>();

/** The header of a final, unmasked text frame of `length` payload bytes (RFC 6455 §5.2). */
function frameHeader(length: number): Buffer {
  let header = headers.get(length);
  if (!header) {
    if (headers.size >= 4096) headers.clear();
    headers.set(length, (header = encodeFrameHeader(length)));
  }
  return header;
}

function encodeFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const header = Buffer.alloc(10);
  header[0] = 0x81;
  header[1] = 127;
  header.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
  header.writeUInt32BE(length >>> 0, 6);
  return header;
}
