// Answers written straight to a socket, for requests refused before any middleware runs: those Node's
// HTTP parser refuses ('clientError': malformed syntax, a request line and headers over 16 KB, chunk
// extensions over 16 KB, a request not received within headersTimeout or requestTimeout: 400, 431,
// 413, 408 as Node would answer them) and WebSocket handshakes the ws library refuses (400). They
// still carry the platform's error body and a request id.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { ErrorCode, ErrorDetail } from '../../platform/api/errors.ts';
import { errorBody } from './problem.ts';
import { answeredBeforeItsBody, closeGracefully } from './early-answers.ts';

/** The answer to a request refused before any route: its headers (a new request id, the connection closed) and error body. */
function earlyAnswer(message: string, detail: ErrorDetail, headers: Record<string, string> = {}, code: ErrorCode = 'validation_failed'): { headers: Record<string, string>; body: string } {
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  const body = JSON.stringify(errorBody(code, message, requestId, [detail]));
  return { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), 'x-request-id': requestId, Connection: 'close', ...headers }, body };
}

function writeError(socket: Duplex, status: number, message: string, detail: ErrorDetail, headers: Record<string, string> = {}, code: ErrorCode = 'validation_failed'): void {
  const answer = earlyAnswer(message, detail, headers, code);
  const lines = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines}\r\n${answer.body}`);
}

const PARSER_ANSWERS: Record<string, { status: number; message: string; detail: ErrorDetail }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request line and headers are too large (at most 16 KB).', detail: { issue: 'headers_too_large' } },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'The chunk extensions of the request body are too large (at most 16 KB).', detail: { field: 'body', issue: 'payload_too_large' } },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.', detail: { issue: 'request_timeout' } },
};
/** The 408 of a request not received in time, for a server that notices it before Node's parser (the router's deadline). */
export function requestTimeoutAnswer(): { status: number; headers: Record<string, string>; body: string } {
  const { status, message, detail } = PARSER_ANSWERS.ERR_HTTP_REQUEST_TIMEOUT;
  return { status, ...earlyAnswer(message, detail) };
}

const MALFORMED = { status: 400, message: 'The request is not valid HTTP.', detail: { issue: 'malformed_request' } };

/** The HTTP server's 'clientError' listener. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing is written into the middle of a response being sent (a pipelined request that fails to
  // parse behind it), nor to a socket the client has gone from; after a whole response it may follow.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || (inFlight?.headersSent && !inFlight.writableEnded)) return void socket.destroy();
  // A request answered before its body arrived gets no second answer when the rest breaks or stalls.
  if (answeredBeforeItsBody(socket)) return closeGracefully(socket);
  const { status, message, detail } = PARSER_ANSWERS[error.code ?? ''] ?? MALFORMED;
  writeError(socket, status, message, detail);
}

/** A WebSocketServer's 'wsClientError' listener: ws's reason (a missing key, an unknown version, …), as a 400. */
export function refuseHandshake(error: Error, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  // ws names the versions it speaks when the client's is not one of them (RFC 6455 §4.4).
  const headers: Record<string, string> = /Sec-WebSocket-Version/.test(error.message) ? { 'Sec-WebSocket-Version': '13, 8' } : {};
  writeError(socket, 400, `The WebSocket handshake is not valid: ${error.message}.`, { issue: 'invalid_handshake' }, headers);
}

/**
 * A WebSocket handshake the gateway has no room for: 429 when the client's address holds its share of
 * the gateway's sockets, 503 when the gateway holds all it may; either way retry after a second.
 */
export function refuseBusyHandshake(socket: Duplex, whose: 'client' | 'total'): void {
  if (!socket.writable) return void socket.destroy();
  const [status, code, message] =
    whose === 'client'
      ? ([429, 'rate_limited', 'This address holds as many gateway sockets as it may: close one, or retry later.'] as const)
      : ([503, 'service_unavailable', 'The gateway holds as many sockets as it may: retry later.'] as const);
  writeError(socket, status, message, { issue: 'socket_limit' }, { 'Retry-After': '1' }, code);
}
