// Requests Node's HTTP server hands over as protocol switches, outside the 'request' event, that this
// server does not take: they are answered by the application like any other request, never dropped
// or answered with an empty body.
// - An Upgrade it does not speak (h2c from `curl --http2`, a WebSocket off the gateway paths): RFC
//   9110 §7.8 lets a server ignore Upgrade and answer the request as it is. Node has let go of the
//   socket by then, so the request's head is put back (without Upgrade) in front of what the socket
//   still holds (the body, the next requests) and the socket is handed to the HTTP server again:
//   Node parses it as the plain HTTP/1.1 request it also is, body and keep-alive included.
// - CONNECT, which Node would destroy without a word when nothing listens: answered through the
//   application on a response of its own (405 with Allow where the path exists, else 404); the
//   socket is closed after it (nothing is tunnelled).
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

export function serveIgnoringUpgrade(server: http.Server, request: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  // Pipelined behind a request still being answered: the socket goes back once that answer is done
  // (Node's own 'finish' listener, which releases the socket, runs first).
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) return void inFlight.once('finish', () => serveIgnoringUpgrade(server, request, socket, head));
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i].toLowerCase() !== 'upgrade') lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  }
  // Header values are latin1 as Node read them: written back byte for byte.
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

export function serveConnect(server: http.Server, request: http.IncomingMessage, socket: Duplex): void {
  // Node has taken its own listeners off the socket: a client that resets it must not throw.
  socket.on('error', () => socket.destroy());
  const response = new http.ServerResponse(request);
  response.shouldKeepAlive = false;
  // Bound to the socket as Node binds its own responses: 'close' is emitted when the socket closes.
  response.assignSocket(socket as Socket);
  response.once('finish', () => socket.end());
  server.emit('request', request, response);
}
