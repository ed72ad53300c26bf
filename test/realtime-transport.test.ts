// The gateway's transport (facade/realtime/transport.ts) over real sockets: frames pushed during a turn
// reach their sockets whole and in order, and what a flush's wake-ups push is written in the next
// turn, whichever sockets it goes to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoalescingTransport, textFrame, type Outlet } from '../facade/realtime/transport.ts';

let server: http.Server;
let wss: WebSocketServer;
let transport: CoalescingTransport;
const connected: ((ws: import('ws').WebSocket) => void)[] = [];

beforeAll(async () => {
  transport = new CoalescingTransport({ log: () => undefined, messageLimit: { messages: 1_000_000, windowMs: 10_000, closeCode: 4429 } });
  wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws) => connected.shift()?.(ws));
  server = http.createServer();
  server.on('upgrade', (request, socket, head) => transport.upgrade(wss, request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const ws of wss.clients) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await new Promise((resolve) => server.close(resolve));
});

/** A client socket and the server side's outlet; `messages` collects what the client receives. */
async function open(): Promise<{ outlet: Outlet; messages: string[]; client: WebSocket; accepted: import('ws').WebSocket }> {
  const accepted = new Promise<import('ws').WebSocket>((resolve) => connected.push(resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const messages: string[] = [];
  client.on('message', (data) => messages.push(String(data)));
  await new Promise((resolve) => client.once('open', resolve));
  const ws = await accepted;
  return { outlet: transport.outlet(ws), messages, client, accepted: ws };
}

const until = async (done: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('gateway transport', () => {
  it('writes the frames of a turn to each socket whole and in order', async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, open));
    sockets.forEach(({ outlet }, s) => {
      for (let m = 0; m < 3; m++) outlet.push(textFrame(Buffer.from(`socket ${s} message ${m}`)));
    });
    // A frame may be shared between sockets: it is written as it is.
    const shared = textFrame(Buffer.from('é'.repeat(200)));
    for (const { outlet } of sockets) outlet.push(shared);
    await until(() => sockets.every(({ messages }) => messages.length === 4));
    sockets.forEach(({ messages }, s) => expect(messages).toEqual([0, 1, 2].map((m) => `socket ${s} message ${m}`).concat('é'.repeat(200))));
    for (const { client } of sockets) client.close();
  });

  it('loses nothing that a wake-up pushes while the turn is being written, to its own socket or to others', async () => {
    const [full, waiting, ...others] = await Promise.all(Array.from({ length: 6 }, open));
    // Past the high-water mark: the socket is not writable until this turn is written.
    full.outlet.push(textFrame(Buffer.alloc(32 * 1024, 'x')));
    expect(full.outlet.writable()).toBe(false);
    full.outlet.whenWritable(() => {
      full.outlet.push(textFrame(Buffer.from('after the drain')));
      for (const { outlet } of others) outlet.push(textFrame(Buffer.from('pushed by a wake-up')));
    });
    // Queued in the same turn behind the full socket.
    waiting.outlet.push(textFrame(Buffer.from('queued in the same turn')));
    await until(() => waiting.messages.length === 1 && others.every(({ messages }) => messages.length === 1) && full.messages.length === 2);
    expect(waiting.messages).toEqual(['queued in the same turn']);
    for (const { messages } of others) expect(messages).toEqual(['pushed by a wake-up']);
    expect(full.messages.map((m) => m.length)).toEqual([32 * 1024, 'after the drain'.length]);
    for (const { client } of [full, waiting, ...others]) client.close();
  });

  it('waits for a socket that does not read with one drain listener, however many turns wait for it', async () => {
    const { outlet, client, accepted } = await open();
    // The client stops reading: the server's socket fills and stays full.
    (client as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const raw = (accepted as unknown as { _socket: import('node:net').Socket })._socket;
    const big = textFrame(Buffer.alloc(256 * 1024, 'a'));
    for (let turn = 0; turn < 20; turn++) {
      outlet.push(big);
      outlet.whenWritable(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(raw.writableNeedDrain).toBe(true);
    expect(raw.listenerCount('drain')).toBeLessThanOrEqual(2);
    client.terminate();
  });
});
