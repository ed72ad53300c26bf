// One delivery attempt: signed per Standard Webhooks (webhook-id is the delivery's id on every try;
// during a rotation's overlap both secrets sign), posted with a 15 s time limit to an address that
// passed the SSRF check at connect time, and classified into the outcome the worker records.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { blockedTarget, guardedLookup } from '../developer/webhooks/addresses.ts';

export interface AttemptRequest {
  deliveryId: string;
  url: string;
  body: string;
  secrets: string[];
  timeoutMs: number;
}

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  /** null on a 2xx answer. */
  errorCode: string | null;
  /** The first 1 KB of the response body. */
  responseBody: string | null;
  /** Seconds the receiver asked for (Retry-After on 429/503). */
  retryAfterSeconds: number | null;
}

const RESPONSE_BODY_LIMIT = 1024;
/** Read at most this much of an answer (the rest is dropped with the connection). */
const RESPONSE_READ_LIMIT = 64 * 1024;

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup as never }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup as never }),
};

export function signatureHeaders(deliveryId: string, body: string, secrets: string[], at = new Date()): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(deliveryId, new Date(timestamp * 1000), body));
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}

/** The platform's name for why no answer came. */
export function errorCodeOf(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: string; name?: string };
  if (code === 'blocked_address') return 'blocked_address';
  if (name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'timeout') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') return 'dns_failed';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  if (code && (/^ERR_TLS|^ERR_SSL|CERT|^UNABLE_TO|^DEPTH_ZERO|^SELF_SIGNED/.test(code) || code === 'EPROTO')) return 'tls_error';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
  return 'network_error';
}

function retryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function attemptDelivery(request: AttemptRequest): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const finish = (outcome: Omit<AttemptOutcome, 'startedAt' | 'durationMs'>): AttemptOutcome => ({
    startedAt,
    durationMs: Math.round(performance.now() - started),
    ...outcome,
  });
  const failed = (error: unknown) => finish({ responseStatus: null, errorCode: errorCodeOf(error), responseBody: null, retryAfterSeconds: null });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
  const agent = agents[url.protocol as keyof typeof agents];
  // The check made when the endpoint was saved, again (the rule may have changed since): literal
  // addresses are not looked up, so this is their only check; names go through guardedLookup too.
  if (!agent || blockedTarget(url)) return Promise.resolve(failed({ code: 'blocked_address' }));

  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'esports-platform-webhooks/1',
        ...signatureHeaders(request.deliveryId, request.body, request.secrets, startedAt),
      },
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' }));
    }, request.timeoutMs);
    req.on('error', (error) => done(failed(error)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_READ_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_READ_LIMIT) res.destroy();
      });
      const answer = () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        done(
          finish({
            responseStatus: status,
            errorCode: status >= 200 && status < 300 ? null : 'http_error',
            responseBody: text || null,
            retryAfterSeconds: status === 429 || status === 503 ? retryAfter(res.headers['retry-after'], Date.now()) : null,
          }),
        );
      };
      res.on('end', answer);
      res.on('close', answer);
      res.on('error', answer);
    });
    req.end(request.body);
  });
}
