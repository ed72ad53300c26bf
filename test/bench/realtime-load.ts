// The realtime benchmark's load, in a process of its own: the subscribers (one socket each) and the
// writer. The benchmark's own process holds some 250 MB of heap (the database set-up, the other
// parts' modules) whose young collections took up to 33 ms under this load, long enough to show up
// as latency of the gateway it measures; here the heap holds little but the sockets.
//
// Run by realtime.ts with a JSON configuration as its argument; it prints `subscribed`, `measuring` and
// `measured` when it gets there (the parent samples the servers then) and `result <json>` at the end.
import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';

export interface LoadConfig {
  gatewayUrl: string;
  writerUrl: string;
  subscribers: number;
  writesPerSecond: number;
  seconds: number;
  warmUpMs: number;
  fullClient: boolean;
  initialRevision: number;
}

export interface LoadResult {
  writes: number;
  total: number;
  received: number;
  expected: number;
  errors: number;
  elapsedMs: number;
  /** This process's CPU while writing and delivering, ms. */
  cpu: { user: number; system: number };
  /** p50, p99 and max (ms) of each latency. */
  fromSend: number[];
  fromAnswer: number[];
  firstAfterAnswer: number[];
  fanOut: number[];
  /** Sockets the gateway closed while they were subscribed, by close code. */
  closedByServer: Record<string, number>;
}

const closedByServer: Record<string, number> = {};
const countClose = (code: string) => (closedByServer[code] = (closedByServer[code] ?? 0) + 1);

interface Subscriber {
  ready: Promise<void>;
  dispose(): Promise<void>;
}

/** A masked client frame (RFC 6455 §5.3): what a client sends is masked, here with a random key. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const extended = payload.length < 126 ? 0 : 2;
  const frame = Buffer.alloc(2 + extended + 4 + payload.length);
  frame[0] = 0x80 | opcode;
  frame[1] = 0x80 | (extended ? 126 : payload.length);
  if (extended) frame.writeUInt16BE(payload.length, 2);
  const mask = randomBytes(4);
  mask.copy(frame, 2 + extended);
  for (let i = 0; i < payload.length; i++) frame[2 + extended + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

/**
 * The protocol and nothing more, on a socket of its own: the WebSocket handshake written by hand, frames
 * read straight from the socket into one buffer per subscriber (net's `onread`, without a Buffer and a
 * stream event per read), every text message JSON-parsed, `next` payloads handed on, pings answered;
 * the subscription's id is a UUID, as the graphql-ws client makes it. A ws client per subscriber cost
 * this process about a fifth more CPU per message, on cores it shares with the gateway it measures.
 */
function minimalSubscriber(url: string, apiKey: string, query: string, onNext: (payload: { data: { eventChanged: { revision: number } } }) => void, onError: () => void): Subscriber {
  const target = new URL(url);
  // Bytes read and not yet taken: the start of a frame (or of the handshake's answer) that is not whole.
  let buffer = Buffer.allocUnsafe(4096);
  let filled = 0;
  let upgraded = false;
  let disposing = false;
  let closeCode = 'socket closed without a close frame';
  let onReady: () => void = () => undefined;
  let onFailed: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onFailed = reject;
  });
  const socket: net.Socket = net.connect({
    host: target.hostname,
    port: Number(target.port),
    noDelay: true,
    // Each read lands in a scratch buffer and is appended to this subscriber's own.
    onread: {
      buffer: scratch,
      callback: (bytes: number, chunk: Uint8Array) => {
        if (filled + bytes > buffer.length) {
          const larger = Buffer.allocUnsafe(Math.max(buffer.length * 2, filled + bytes));
          buffer.copy(larger, 0, 0, filled);
          buffer = larger;
        }
        buffer.set(chunk.subarray(0, bytes), filled);
        filled += bytes;
        consume();
        return true;
      },
    },
  });
  const send = (opcode: number, payload: Buffer) => socket.write(clientFrame(opcode, payload));
  const sendText = (message: unknown) => send(0x1, Buffer.from(JSON.stringify(message)));
  socket.once('error', (error) => onFailed(error));
  socket.once('close', () => disposing || countClose(closeCode));
  socket.on('connect', () => {
    socket.write(
      `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
    );
  });
  const onText = (text: string) => {
    const message = JSON.parse(text) as { type: string; payload?: unknown };
    if (message.type === 'next') onNext(message.payload as Parameters<typeof onNext>[0]);
    else if (message.type === 'connection_ack') {
      sendText({ id: randomUUID(), type: 'subscribe', payload: { query } });
      onReady();
    } else if (message.type === 'ping') sendText({ type: 'pong' });
    else if (message.type === 'error') onError();
  };
  function consume() {
    let offset = 0;
    if (!upgraded) {
      const end = buffer.subarray(0, filled).indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.toString('latin1', 0, end);
      if (!head.startsWith('HTTP/1.1 101')) return onFailed(new Error(`the gateway refused the upgrade: ${head.split('\r\n')[0]}`));
      upgraded = true;
      offset = end + 4;
      sendText({ type: 'connection_init', payload: { apiKey } });
    }
    // Server frames are unmasked and, from this server, never fragmented.
    for (;;) {
      if (filled - offset < 2) break;
      const opcode = buffer[offset] & 0x0f;
      let length = buffer[offset + 1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (filled - offset < 4) break;
        length = buffer.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (filled - offset < 10) break;
        length = Number(buffer.readBigUInt64BE(offset + 2));
        header = 10;
      }
      if (filled - offset < header + length) break;
      const start = offset + header;
      offset = start + length;
      if (opcode === 0x1) onText(buffer.toString('utf8', start, offset));
      else if (opcode === 0x9) send(0xa, Buffer.from(buffer.subarray(start, offset)));
      else if (opcode === 0x8) {
        closeCode = length >= 2 ? String(buffer.readUInt16BE(start)) : 'close frame without a code';
        socket.end();
      }
    }
    if (offset === filled) filled = 0;
    else if (offset > 0) {
      buffer.copy(buffer, 0, offset, filled);
      filled -= offset;
    }
  }
  return {
    ready,
    dispose: async () => {
      disposing = true;
      if (socket.destroyed) return;
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      send(0x8, Buffer.from([0x03, 0xe8]));
      socket.end();
      await closed;
    },
  };
}
// One scratch buffer for every subscriber's reads: each read is copied out before the next can happen.
const scratch = Buffer.allocUnsafe(256 * 1024);

function fullSubscriber(url: string, apiKey: string, query: string, onNext: (payload: { data: { eventChanged: { revision: number } } }) => void, onError: () => void): Subscriber {
  const client: Client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0, lazy: false });
  const ready = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  let disposing = false;
  client.on('closed', (event) => disposing || countClose(String((event as { code?: number }).code ?? 'closed')));
  client.subscribe<{ eventChanged: { revision: number } }>({ query }, { next: (payload) => onNext(payload as Parameters<typeof onNext>[0]), error: onError, complete: () => undefined });
  return {
    ready,
    dispose: () => {
      disposing = true;
      return client.dispose() as Promise<void>;
    },
  };
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const summary = (values: number[]) => {
  values.sort((x, y) => x - y);
  return [percentile(values, 50), percentile(values, 99), values[values.length - 1]];
};
// Wall-clock milliseconds, comparable with the parent's.
const now = () => performance.timeOrigin + performance.now();

async function run(config: LoadConfig): Promise<LoadResult> {
  const { subscribers: count, writesPerSecond } = config;
  const clients: Subscriber[] = [];
  try {
    // revision → when its write was sent and answered; each delivery is measured against both.
    const sent = new Map<number, { sentAt: number; answeredAt: number }>();
    // Arrivals in typed arrays, allocated up front: half a million objects would put major garbage
    // collections of this process, and their pauses, into the latencies it measures.
    const capacity = count * (Math.ceil((writesPerSecond * (config.seconds * 1000 + config.warmUpMs)) / 1000) + 10);
    const arrivedRevision = new Int32Array(capacity);
    const arrivedAt = new Float64Array(capacity);
    let arrivals = 0;
    let received = 0;
    let errors = 0;
    const ready: Promise<void>[] = [];
    const query = 'subscription { eventChanged(eventId: "evt_rt") { cursor type revision occurredAt event { name revision } } }';
    const url = config.gatewayUrl.replace(/^http/, 'ws') + '/api/v1/gateway';
    for (let i = 0; i < count; i++) {
      const subscriber = (config.fullClient ? fullSubscriber : minimalSubscriber)(
        url,
        'demo-org-key-0001',
        query,
        ({ data }) => {
          received++;
          if (arrivals < capacity) {
            arrivedRevision[arrivals] = data.eventChanged.revision;
            arrivedAt[arrivals++] = now();
          }
        },
        () => errors++,
      );
      clients.push(subscriber);
      ready.push(subscriber.ready);
      // Open sockets in small bursts, as real overlays would arrive.
      if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(ready);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    console.log('subscribed');
    await new Promise((resolve) => setTimeout(resolve, 200));

    // One writer, a write every 1000 / writesPerSecond ms, each with the revision the last one answered.
    let revision = config.initialRevision;
    let total = 0;
    const writeFor = async (ms: number, record: boolean) => {
      let written = 0;
      const until = performance.now() + ms;
      let next = performance.now();
      while (performance.now() < until) {
        const sentAt = now();
        const response = await fetch(`${config.writerUrl}/api/v2/events/evt_rt/matches/mtc_rt`, {
          method: 'PATCH',
          headers: { authorization: 'Bearer demo-token-app', 'content-type': 'application/json', 'if-match': `"${revision}"` },
          body: JSON.stringify({ scoreA: total + 1 }),
        });
        const body = (await response.json()) as { data?: { revision: number } };
        if (response.status !== 200 || !body.data) throw new Error(`write answered ${response.status}: ${JSON.stringify(body)}`);
        revision = body.data.revision;
        if (record) sent.set(revision, { sentAt, answeredAt: now() });
        written++;
        total++;
        next += 1000 / writesPerSecond;
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return written;
    };
    const allDelivered = async () => {
      const deadline = performance.now() + 30_000;
      while (received < total * count && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    // A warm-up at the same rate, not measured (as every other part warms up): the first changes after
    // the subscriptions are made compile and prepare their resource query, which a running gateway has
    // long done.
    await writeFor(config.warmUpMs, false);
    await allDelivered();

    console.log('measuring');
    const cpuAtStart = process.cpuUsage();
    const startedAt = performance.now();
    const writes = await writeFor(config.seconds * 1000, true);
    await allDelivered();
    const elapsedMs = performance.now() - startedAt;
    const cpu = process.cpuUsage(cpuAtStart);
    console.log('measured');

    const fromSend: number[] = [];
    const fromAnswer: number[] = [];
    // Per write: when its first and its last subscriber had it; the difference is the fan-out.
    const byWrite = new Map<number, { first: number; last: number }>();
    for (let i = 0; i < arrivals; i++) {
      const [r, at] = [arrivedRevision[i], arrivedAt[i]];
      const write = sent.get(r);
      if (!write) continue;
      fromSend.push(at - write.sentAt);
      fromAnswer.push(Math.max(0, at - write.answeredAt));
      const entry = byWrite.get(r);
      if (!entry) byWrite.set(r, { first: at, last: at });
      else {
        entry.first = Math.min(entry.first, at);
        entry.last = Math.max(entry.last, at);
      }
    }
    return {
      writes,
      total,
      received,
      expected: total * count,
      errors,
      elapsedMs,
      cpu: { user: cpu.user / 1000, system: cpu.system / 1000 },
      fromSend: summary(fromSend),
      fromAnswer: summary(fromAnswer),
      firstAfterAnswer: summary([...byWrite].map(([r, { first }]) => Math.max(0, first - sent.get(r)!.answeredAt))),
      fanOut: summary([...byWrite.values()].map(({ first, last }) => last - first)),
      closedByServer,
    };
  } finally {
    await Promise.all(clients.map((subscriber) => subscriber.dispose()));
  }
}

const result = await run(JSON.parse(process.argv[2]) as LoadConfig);
console.log(`result ${JSON.stringify(result)}`);
process.exit(0);
