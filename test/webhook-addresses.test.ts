// Webhook targets (SSRF): the creation check (checkEndpointUrl) and the delivery-time check
// (blockedTarget on the URL, then guardedLookup on what a name resolves to) are one implementation,
// so the invariant is stated and tested here rather than assumed: for an https URL and the addresses
// its host resolves to (a literal address resolves to itself), delivery accepts exactly when creation
// accepts and, for a name, every resolved address is public.
import { isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blockedTarget, checkEndpointUrl, guardedLookupVia } from '../subgraphs/developer/webhooks/addresses.ts';
import { attemptDelivery } from '../subgraphs/workers/webhook-attempt.ts';

afterEach(() => vi.unstubAllEnvs());

const createAccepts = (url: string) => {
  try {
    checkEndpointUrl(url);
    return true;
  } catch (error) {
    expect((error as { details: Array<{ field: string }> }).details[0].field).toBe('url');
    return false;
  }
};

/** What delivery decides for this URL when its host name resolves to `addresses`: the code it runs. */
async function deliveryAccepts(url: string, addresses: string[]): Promise<boolean> {
  const parsed = new URL(url);
  if (blockedTarget(parsed)) return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // Node connects to a literal address without a lookup.
  if (isIP(host)) return true;
  const resolve = (_name: string, _options: unknown, callback: (error: null, list: LookupAddress[]) => void) =>
    callback(null, addresses.map((address) => ({ address, family: isIP(address) })));
  const lookup = guardedLookupVia(resolve);
  return new Promise((done) => lookup(parsed.hostname, {}, (error) => done(!error)));
}

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet);
const special = fc.constantFrom<[number, number, number, number]>([127, 0, 0, 1], [10, 1, 2, 3], [192, 168, 0, 1], [169, 254, 169, 254], [0, 0, 0, 0], [100, 64, 0, 1], [224, 0, 0, 1], [255, 255, 255, 255], [8, 8, 8, 8], [172, 16, 5, 4]);
const anyIpv4 = fc.oneof(ipv4, special);
const dotted = (v: number[]) => v.join('.');
const value = (v: number[]) => ((v[0] << 24) >>> 0) + (v[1] << 16) + (v[2] << 8) + v[3];
/** Every spelling of an IPv4 address the WHATWG URL parser accepts as that address. */
const spellings = (v: number[]) => [
  dotted(v),
  `${dotted(v)}.`,
  String(value(v)),
  `0x${value(v).toString(16)}`,
  `0${value(v).toString(8)}`,
  v.map((part) => `0x${part.toString(16)}`).join('.'),
  v.map((part) => `0${part.toString(8)}`).join('.'),
  `${v[0]}.${(v[1] << 16) + (v[2] << 8) + v[3]}`,
  `${v[0]}.${v[1]}.${(v[2] << 8) + v[3]}`,
  `0x${v[0].toString(16)}.${(v[1] << 16) + (v[2] << 8) + v[3]}`,
];
const hex16 = (v: number[]) => `${((v[0] << 8) + v[1]).toString(16)}:${((v[2] << 8) + v[3]).toString(16)}`;
const ipv6Host = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((parts) => parts.map((part) => part.toString(16)).join(':')),
  anyIpv4.map((v) => `::ffff:${dotted(v)}`),
  anyIpv4.map((v) => `::ffff:${hex16(v)}`),
  anyIpv4.map((v) => `::${dotted(v)}`),
  anyIpv4.map((v) => `64:ff9b::${dotted(v)}`),
  fc.constantFrom('::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '2606:4700:4700::1111', '2001:db8::1'),
);
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const nameHost = fc.oneof(
  fc.constantFrom('localhost', 'LocalHost', 'localhost.', 'localhost..', 'api.localhost', 'a.b.localhost.', 'localhost.example.com', 'hooks.example.com'),
  fc.tuple(label, fc.constantFrom('com', 'net', 'io', 'localhost', 'internal')).map(([name, tld]) => `${name}.${tld}`),
  fc.tuple(label, fc.boolean()).map(([name, dot]) => `${name}.example.org${dot ? '.' : ''}`),
);
const host = fc.oneof(
  anyIpv4.chain((v) => fc.constantFrom(...spellings(v))),
  ipv6Host.map((address) => `[${address}]`),
  nameHost,
);
const resolved = fc.array(
  fc.oneof(anyIpv4.map(dotted), ipv6Host),
  { minLength: 1, maxLength: 3 },
);

describe('webhook target checks', () => {
  it('delivery accepts a URL and its resolved addresses exactly when creation accepts it and, for a name, every address is public', async () => {
    await fc.assert(
      fc.asyncProperty(host, resolved, fc.boolean(), async (target, addresses, local) => {
        vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', local ? '1' : '0');
        const url = `https://${target}/hook`;
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          return; // not a URL: creation says invalid_url, nothing is ever delivered to it
        }
        const literal = isIP(parsed.hostname.replace(/^\[|\]$/g, '')) !== 0;
        const created = createAccepts(url);
        const publicAddresses = literal || (await deliveryAccepts('https://example.com/', addresses));
        expect(await deliveryAccepts(url, addresses), `${url} → ${addresses.join(', ')}`).toBe(created && publicAddresses);
      }),
      { numRuns: 2000 },
    );
  });

  it('every spelling of an IPv4 address, and its IPv4-mapped IPv6 forms, is judged as the address itself', () => {
    fc.assert(
      fc.property(anyIpv4, (v) => {
        const expected = createAccepts(`https://${dotted(v)}/`);
        for (const spelling of [...spellings(v), `[::ffff:${dotted(v)}]`, `[::ffff:${hex16(v)}]`]) {
          expect(createAccepts(`https://${spelling}/`), spelling).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses at creation, and at delivery without connecting, the addresses of the issue and their relatives', async () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '0');
    const refused = [
      'https://localhost./',
      'https://LOCALHOST../x',
      'https://hooks.localhost./',
      'https://[::127.0.0.1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[::10.0.0.1]/',
      'https://[::8.8.8.8]/',
      'https://0.0.0.0/',
      'https://0/',
      'https://[::]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://017700000001/',
      'https://127.1/',
      'https://127.0.0.1./',
      'https://0xa9fea9fe/',
      'https://[fe80::1]/',
      'https://[64:ff9b::7f00:1]/',
    ];
    for (const url of refused) {
      expect(createAccepts(url), url).toBe(false);
      const outcome = await attemptDelivery({ deliveryId: 'dlv_x', url, body: '{}', secrets: [`whsec_${Buffer.from('x').toString('base64')}`], timeoutMs: 1000 });
      expect(outcome, url).toMatchObject({ errorCode: 'blocked_address', responseStatus: null });
    }
    for (const url of ['https://hooks.example.com/x', 'https://8.8.8.8/', 'https://[::ffff:8.8.8.8]/', 'https://[2606:4700:4700::1111]/', 'https://localhost.example.com/']) {
      expect(createAccepts(url), url).toBe(true);
    }
    // With local targets allowed (tests, development), loopback is allowed in every spelling; private is not.
    vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '1');
    for (const url of ['http://localhost./', 'https://[::ffff:127.0.0.1]/', 'http://2130706433/']) expect(createAccepts(url), url).toBe(true);
    for (const url of ['https://[::127.0.0.1]/', 'https://[::ffff:10.0.0.1]/', 'https://0/', 'http://0xa9fea9fe/']) expect(createAccepts(url), url).toBe(false);
  });

  it('a refused receiver on this machine is told about WEBHOOKS_ALLOW_LOCAL; other refusals are not', () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', '0');
    const messageOf = (url: string) => {
      try {
        checkEndpointUrl(url);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${url} was accepted`);
    };
    for (const url of ['http://localhost:8080/hook', 'http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://api.localhost/', 'https://localhost/hook', 'https://127.0.0.1/hook', 'https://[::ffff:127.0.0.1]/']) {
      expect(messageOf(url), url).toMatch(/^url (must be an https:\/\/ address|may not point at (localhost|a loopback address)): a receiver on this machine \(http:\/\/localhost or 127\.0\.0\.1\) is accepted only by a server started with WEBHOOKS_ALLOW_LOCAL=1, for local development\.$/);
    }
    expect(messageOf('http://hooks.example.com/x')).toBe('url must be an https:// address.');
    expect(messageOf('https://10.0.0.1/x')).toBe('url may not point at a private address.');
    // A scheme the setting does not let through hears no hint, with the setting or without it.
    for (const local of ['0', '1']) {
      vi.stubEnv('WEBHOOKS_ALLOW_LOCAL', local);
      for (const url of ['ws://localhost/', 'ftp://127.0.0.1/', 'javascript://localhost/']) expect(messageOf(url), `${url} ${local}`).toBe('url must be an https:// address.');
    }
  });
});
