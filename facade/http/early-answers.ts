// Requests answered before their body has arrived (refused: over the bodies in flight, too large, the
// wrong content type). The rest of the body is read and dropped rather than left unread: a body left
// unread stalls its connection (a client that wrote it at once, as fetch does, reuses the connection
// for its next request, which waits behind it until the request timeout), and a socket closed over
// unread bytes is reset by the kernel, which can make the client lose the answer with them (or fail
// its write with EPIPE before it reads the answer).
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';

/** How long a connection being closed keeps reading (and dropping) what its client still sends. */
const LINGER_MS = 5_000;

/** Sockets whose current request has had its answer while its body was still arriving. */
const answered = new WeakSet<Duplex>();

/**
 * Whether the socket's current request was answered before its body arrived: nothing more may be
 * written for it (not the parser's 400 for a broken rest of the body, nor a 408 when the rest never
 * comes), only the connection closed.
 */
export const answeredBeforeItsBody = (socket: Duplex) => answered.has(socket);

/**
 * Reads the rest of the request's body and drops it. The connection serves the next request once the
 * body has ended, unless `limit` bytes in all arrive first (a chunked body has no end announced) or
 * `close` is set: then it is closed after the answer.
 */
export function dropRest(ctx: Context, received: number, { limit, close = false }: { limit: number; close?: boolean }) {
  const request = ctx.req;
  const socket = request.socket;
  answered.add(socket);
  request.once('end', () => answered.delete(socket));
  let total = received;
  let closing = false;
  const closeAfterAnswer = () => {
    if (closing) return;
    closing = true;
    if (ctx.res.writableFinished) closeGracefully(socket);
    else ctx.res.once('finish', () => closeGracefully(socket));
  };
  request.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > limit) closeAfterAnswer();
  });
  request.on('error', () => undefined);
  request.resume();
  if (close) closeAfterAnswer();
}

/**
 * Ends this side of the connection (after what is written, the answer included) and keeps reading, for
 * LINGER_MS at most, until the client ends its side; then it is destroyed. A client still sending
 * when the answer comes finishes its write and reads the answer instead of meeting a reset.
 */
export function closeGracefully(socket: Duplex) {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('error', () => undefined);
  socket.end();
  // Reading on after the HTTP parser has stopped (a broken body, a timeout): what comes is dropped.
  (socket as Socket).resume();
}
