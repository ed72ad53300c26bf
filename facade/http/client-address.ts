// The client's address for requests Koa never sees (WebSocket upgrades), as Koa computes ctx.ip with
// app.proxy and app.maxIpsCount set from TRUST_PROXY: the n-th address of X-Forwarded-For from the
// right when n proxies are trusted, else the socket's peer. The per-address limits of the gateway and
// of the HTTP routes then count the same client alike.
import type http from 'node:http';

export function clientAddress(request: http.IncomingMessage, trustedProxies: number): string {
  const forwarded = request.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  const ips = trustedProxies > 0 && header ? header.split(/\s*,\s*/).slice(-trustedProxies) : [];
  return ips[0] || request.socket.remoteAddress || '';
}
