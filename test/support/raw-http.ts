// HTTP/1.1 by hand over a TCP socket, for requests no client library will send (no Host, a bad
// Expect, CONNECT, an Upgrade, malformed syntax) and for reading exactly what came back.
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` (bytes as given) to the server at `url` and reads until the server closes the
 * connection or `waitMs` passes; answers every response read, in order.
 */
export function exchange(url: string, request: string | Buffer, waitMs = 5_000): Promise<RawResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponses(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', (error) => (chunks.length ? done() : reject(error)));
  });
}

/** Responses one after another, each framed by its Content-Length (interim 1xx responses skipped). */
export function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end < 0) break;
    const [statusLine, ...lines] = data.subarray(offset, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = Number(headers['content-length'] ?? 0);
    offset = end + 4 + length;
    if (status >= 200) responses.push({ status, headers, body: data.subarray(end + 4, offset).toString('utf8') });
  }
  return responses;
}
