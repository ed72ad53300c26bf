// Where webhooks may be sent (SSRF). Endpoint URLs must be HTTPS; literal private, loopback,
// link-local, multicast and reserved addresses and localhost are refused when an endpoint is saved,
// and every address a host name resolves to is checked again when a delivery connects (DNS
// rebinding). WEBHOOKS_ALLOW_LOCAL=1 (tests and local development only) also allows http:// and
// loopback; private and link-local stay refused.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../shared/errors.ts';

export const allowLocal = () => process.env.WEBHOOKS_ALLOW_LOCAL === '1';

/** Why an address may not be a webhook target, or null when it may. */
export function blockedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLocal()) return null;
  return range;
}

const refuse = (issue: string, message: string) => new ApiError('validation_failed', message, [{ field: 'url', issue }]);

/** The URL as it will be stored, or a 400 naming `url`. */
export function checkEndpointUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('invalid_url', 'url must be an absolute URL.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLocal())) {
    throw refuse('https_required', 'url must be an https:// address.');
  }
  if (url.username || url.password) throw refuse('credentials_in_url', 'url must not carry a user name or password.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host) throw refuse('invalid_url', 'url must name a host.');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!allowLocal()) throw refuse('blocked_address', 'url may not point at localhost.');
  } else if (isIP(host)) {
    const range = blockedRange(host);
    if (range) throw refuse('blocked_address', `url may not point at a ${range} address.`);
  }
  return url.toString();
}

export class BlockedAddressError extends Error {
  readonly code = 'blocked_address';
}

/**
 * A dns.lookup for outgoing deliveries that fails when any resolved address is blocked, so that the
 * connection is never opened to one.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    const blocked = list.find((entry) => blockedRange(entry.address));
    if (blocked || !list.length) {
      return callback(new BlockedAddressError(`${hostname} resolves to a blocked address (${blocked?.address ?? 'none'}).`), []);
    }
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
