// Where webhooks may be sent (SSRF). One check decides for both moments: when an endpoint is saved
// (blockedTarget on its URL) and when a delivery connects (blockedTarget again, since the rule may
// have changed, then blockedRange on every address a host name resolves to, against DNS rebinding).
// Refused: localhost and its subdomains (with or without a trailing dot), and literal addresses
// outside public unicast, IPv4 in every spelling the URL parser accepts (it normalises 2130706433,
// 0x7f.1 and 017700000001 to 127.0.0.1) and IPv6 that embeds IPv4 (mapped ::ffff:a.b.c.d is
// judged by its IPv4; compatible ::a.b.c.d is refused outright). WEBHOOKS_ALLOW_LOCAL=1 (tests and
// local development only) also allows http:// and loopback; private and link-local stay refused.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../../platform/api/errors.ts';
import { setting } from '../../../platform/process/config.ts';

export const allowLocal = () => setting('WEBHOOKS_ALLOW_LOCAL');

/** Why an address may not be a webhook target, or null when it may. */
export function blockedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // ::/96 other than :: and ::1 is the deprecated IPv4-compatible form: ipaddr.js calls it
    // unicast, but no public host is reached through it, and some stacks route it to the IPv4.
    else if (v6.parts.slice(0, 6).every((part) => part === 0) && v6.range() === 'unicast') return 'ipv4Compatible';
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLocal()) return null;
  return range;
}

/**
 * Why this URL's host may not be a webhook target, judged from the URL alone, or null when it may
 * (a host name is then judged by what it resolves to, at delivery). The same answer at creation and
 * at delivery: both call this.
 */
export function blockedTarget(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return blockedRange(host);
  // "localhost." is the same name as "localhost" to a resolver.
  const name = host.replace(/\.+$/, '');
  if (!name) return 'invalid';
  if ((name === 'localhost' || name.endsWith('.localhost')) && !allowLocal()) return 'localhost';
  return null;
}

/** What a newcomer trying a receiver on their own machine needs to hear (the setting is the operator's). */
const LOCAL_HINT = ': a receiver on this machine (http://localhost or 127.0.0.1) is accepted only by a server started with WEBHOOKS_ALLOW_LOCAL=1, for local development';

/** localhost, a subdomain of it, or a loopback address: where WEBHOOKS_ALLOW_LOCAL=1 would let a delivery go. */
function isLocal(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
  if (isIP(host)) {
    const parsed = ipaddr.parse(host);
    const v4 = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
    return v4.range() === 'loopback';
  }
  return host === 'localhost' || host.endsWith('.localhost');
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
    // The setting lets http:// through, nothing else: ws:, ftp: and the like hear no hint.
    throw refuse('https_required', `url must be an https:// address${url.protocol === 'http:' && !allowLocal() && isLocal(url) ? LOCAL_HINT : ''}.`);
  }
  if (url.username || url.password) throw refuse('credentials_in_url', 'url must not carry a user name or password.');
  const blocked = blockedTarget(url);
  if (blocked === 'invalid') throw refuse('invalid_url', 'url must name a host.');
  if (blocked === 'localhost') throw refuse('blocked_address', `url may not point at localhost${LOCAL_HINT}.`);
  if (blocked === 'loopback') throw refuse('blocked_address', `url may not point at a loopback address${LOCAL_HINT}.`);
  if (blocked) throw refuse('blocked_address', `url may not point at a ${blocked} address.`);
  return url.toString();
}

export class BlockedAddressError extends Error {
  readonly code = 'blocked_address';
}

type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A dns.lookup for outgoing deliveries that fails when any address `resolve` answers is blocked, so
 * that the connection is never opened to one. `resolve` is dns.lookup except in tests.
 */
export function guardedLookupVia(resolve: Resolver) {
  return function guardedLookup(
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    resolve(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, []);
      const blocked = list.find((entry) => blockedRange(entry.address));
      if (blocked || !list.length) {
        return callback(new BlockedAddressError(`${hostname} resolves to a blocked address (${blocked?.address ?? 'none'}).`), []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

export const guardedLookup = guardedLookupVia(dnsLookup as unknown as Resolver);
