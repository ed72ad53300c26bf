// The platform's answer to requests Node's HTTP parser refuses, on a real Node server with the
// platform's 'clientError' listener and timeouts short enough to wait for (the platform's are 30 s
// for the head and 30 s for the whole request, checked every 5 s). http-conventions.test.ts sends the
// other refusals to the whole platform.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from '../facade/http/client-errors.ts';
import { exchange } from './support/raw-http.ts';

let server: http.Server;
let url: string;
beforeAll(async () => {
  // Answers a GET at once, anything else once it has read the request's body.
  server = http.createServer({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }, (request, response) => {
    if (request.method === 'GET') return void response.end('{}');
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Node's clientError answers", () => {
  it('a request whose headers do not arrive in time: 408 with the error body and a request id', async () => {
    const [answer] = await exchange(url, 'GET / HTTP/1.1\r\nHost: a\r\n', 3_000);
    expect(answer.status).toBe(408);
    const body = JSON.parse(answer.body);
    expect(body.error).toMatchObject({ code: 'validation_failed', details: [{ issue: 'request_timeout' }] });
    expect(body.error.requestId).toBe(answer.headers['x-request-id']);
    expect(answer.headers.connection).toBe('close');
  });

  it('a request whose body does not arrive in time: 408 as well', async () => {
    const [answer] = await exchange(url, 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n{"a"', 3_000);
    expect(answer?.status).toBe(408);
  });

  it('a malformed request pipelined behind a whole answer: that answer, then 400', async () => {
    const answers = await exchange(url, 'GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost a\r\n\r\n', 3_000);
    expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
  });
});
