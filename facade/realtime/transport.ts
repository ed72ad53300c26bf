// graphql-ws over ws sockets (the library's makeServer, as its own use/ws adapter does), with frames
// coalesced per socket per event-loop turn: everything sent to a socket during one turn is written
// with a single system call when the turn ends. A change fans out to a thousand sockets in one turn,
// so an instance that falls behind catches up with several frames per write instead of paying a
// write per frame; an idle instance sends at once, as before.
//
// The frames are built here rather than by ws.send: a message is a text frame of parts encoded once
// (the change's payload, shared by every subscriber alike; the subscription's own prefix), so that a
// subscriber costs a frame header, a copy into one buffer and one socket write, not a string, its
// UTF-8 encoding and two stream writes per message. The server negotiates no compression, so ws
// writes nothing but whole frames (pings, closes) to the same socket, each in one synchronous call.
//
// A send resolves once its frame is written and the socket is below its high-water mark, so that a
// subscriber that does not read holds at most that much in buffers: its backlog stays in its change
// stream (shared change records, not serialised frames), which closes it as a slow consumer when the
// backlog outgrows its bound.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';

export interface Extra {
  socket: WebSocket;
  request: http.IncomingMessage;
}

export interface TransportOptions {
  log: (message: string, error?: unknown) => void;
}

interface Outbox {
  /** Frame headers and payload parts, in order. */
  parts: Buffer[];
  bytes: number;
  /** Called once this outbox is written and its socket can take more. */
  wakers: (() => void)[];
}

/** A socket's side of a subscription: frames pushed are written at the end of the turn. */
export interface Outlet {
  /** One text message: the subscription's prefix, the shared payload and the closing part (UTF-8 already). */
  push(prefix: Buffer, payload: Buffer, suffix: Buffer): void;
  /** Whether the socket is below its high-water mark, counting what this turn has pushed. */
  writable(): boolean;
  whenWritable(wake: () => void): void;
}

export class CoalescingTransport {
  private readonly raw = new WeakMap<WebSocket, Duplex>();
  private readonly outboxes = new Map<WebSocket, Outbox>();
  private flushScheduled = false;

  constructor(private readonly options: TransportOptions) {}

  /** The upgrade's raw socket, kept so that a turn's frames can be written together. */
  upgrade(wss: WebSocketServer, request: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    wss.handleUpgrade(request, socket, head, (ws) => {
      this.raw.set(ws, socket);
      wss.emit('connection', ws, request);
    });
  }

  outlet(ws: WebSocket): Outlet {
    const raw = this.raw.get(ws)!;
    return {
      push: (prefix, payload, suffix) => this.push(ws, prefix, payload, suffix),
      writable: () => ws.readyState === ws.OPEN && (this.outboxes.get(ws)?.bytes ?? 0) + raw.writableLength < raw.writableHighWaterMark,
      // A socket that is closing wakes nobody: its subscriptions end when it has closed.
      whenWritable: (wake) => void (ws.readyState === ws.OPEN && this.outbox(ws).wakers.push(wake)),
    };
  }

  serve(wss: WebSocketServer, serverOptions: ServerOptions<Record<string, unknown>, Extra>): void {
    const server = makeServer(serverOptions);
    wss.options.handleProtocols = handleProtocols;
    wss.on('connection', (ws: WebSocket, request: http.IncomingMessage) => {
      ws.once('error', (error) => {
        this.options.log('gateway socket error', error);
        ws.close(CloseCode.InternalServerError, 'Internal server error');
      });
      const closed = server.opened(
        {
          protocol: ws.protocol,
          send: (data) => {
            if (ws.readyState !== ws.OPEN) return;
            this.push(ws, Buffer.from(data));
            return new Promise<void>((resolve) => this.outbox(ws).wakers.push(resolve));
          },
          close: (code, reason) => ws.close(code, reason),
          onMessage: (handle) =>
            ws.on('message', async (data) => {
              try {
                await handle(String(data));
              } catch (error) {
                this.options.log('gateway message handling failed', error);
                ws.close(CloseCode.InternalServerError, 'Internal server error');
              }
            }),
        },
        { socket: ws, request },
      );
      ws.once('close', (code, reason) => {
        const outbox = this.outboxes.get(ws);
        this.outboxes.delete(ws);
        outbox?.wakers.forEach((wake) => wake());
        void closed(code, String(reason));
      });
    });
  }

  private outbox(ws: WebSocket): Outbox {
    let outbox = this.outboxes.get(ws);
    if (!outbox) {
      this.outboxes.set(ws, (outbox = { parts: [], bytes: 0, wakers: [] }));
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    }
    return outbox;
  }

  private push(ws: WebSocket, first: Buffer, second?: Buffer, third?: Buffer): void {
    if (ws.readyState !== ws.OPEN) return;
    const outbox = this.outbox(ws);
    const length = first.length + (second?.length ?? 0) + (third?.length ?? 0);
    const header = frameHeader(length);
    outbox.parts.push(header, first);
    if (second) outbox.parts.push(second);
    if (third) outbox.parts.push(third);
    outbox.bytes += header.length + length;
  }

  private flush(): void {
    this.flushScheduled = false;
    const outboxes = [...this.outboxes];
    this.outboxes.clear();
    for (const [ws, { parts, bytes, wakers }] of outboxes) {
      const raw = this.raw.get(ws);
      const wake = () => wakers.forEach((w) => w());
      if (ws.readyState !== ws.OPEN || !raw) {
        wake();
        continue;
      }
      if (parts.length) raw.write(parts.length === 1 ? parts[0] : Buffer.concat(parts, bytes));
      if (!wakers.length) continue;
      if (!raw.writableNeedDrain) wake();
      else {
        const settle = () => {
          raw.off('drain', settle);
          ws.off('close', settle);
          wake();
        };
        raw.once('drain', settle);
        ws.once('close', settle);
      }
    }
  }
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
